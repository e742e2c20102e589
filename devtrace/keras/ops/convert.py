"""How ``keras.ops`` converts its arguments, as Keras's TensorFlow backend does: Python ints are
``int32`` and floats ``float32``; two tensors of different dtypes meet at the wider (a float where
one is)."""

from __future__ import annotations

import builtins

import devtrace as tf


def _t(x, dtype=None):
    if tf.is_tensor(x):
        return tf.cast(x, dtype) if dtype is not None and x.dtype != tf.as_dtype(dtype) else x
    return tf.convert_to_tensor(x, dtype=dtype)


def _float(x):
    x = _t(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, tf.float32)


def _scalar_as(value, other):
    """A Python scalar takes the tensor's dtype, unless it is a float meeting an integer tensor."""
    if isinstance(value, (bool, int)) or isinstance(value, float) and not other.dtype.is_integer:
        return _t(value, other.dtype)
    return _t(value)


def _pair(a, b):
    if not tf.is_tensor(a) and not tf.is_tensor(b):
        a = _t(a)
    if not tf.is_tensor(a):
        a = _scalar_as(a, b)
    elif not tf.is_tensor(b):
        b = _scalar_as(b, a)
    if a.dtype == b.dtype:
        return a, b
    floats = [t.dtype for t in (a, b) if t.dtype.is_floating]
    if len(floats) == 1:
        dtype = floats[0]
    else:
        dtype = builtins.max((a.dtype, b.dtype), key=lambda d: d.size)
    return tf.cast(a, dtype), tf.cast(b, dtype)
