"""Still more of ``keras.ops.numpy``: ``diag``, ``trace``, ``cross``, ``bincount``, ``digitize`` and
``nan_to_num``, with the dtypes Keras's TensorFlow backend gives them."""

from __future__ import annotations

import devtrace as tf
from .convert import _pair, _t


def diag(x, k=0):
    x = _t(x)
    if len(x.shape) == 1:
        return tf.linalg.diag(x, k=k)
    if len(x.shape) == 2:
        return tf.linalg.diag_part(x, k=k)
    raise ValueError(f"`x` must be 1d or 2d. Received: x.shape={x.shape}")


def trace(x, offset=0, axis1=0, axis2=1):
    x = _t(x)
    if x.dtype.name in ("bool", "int8", "int16"):
        x = tf.cast(x, tf.int32)
    elif x.dtype.name in ("uint8", "uint16"):
        x = tf.cast(x, tf.uint32)
    rank = len(x.shape)
    a1, a2 = axis1 % rank, axis2 % rank
    order = [a for a in range(rank) if a not in (a1, a2)] + [a1, a2]
    return tf.reduce_sum(tf.linalg.diag_part(tf.transpose(x, order), k=offset), axis=-1)


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    x1, x2 = _pair(x1, x2)
    if axis is not None:
        axisa = axisb = axisc = axis
    if (axisa, axisb, axisc) != (-1, -1, -1) or x1.shape[-1] != 3 or x2.shape[-1] != 3:
        raise NotImplementedError("devtrace does not implement keras.ops.cross of other than 3-vectors on the last "
                                  "axis yet")
    return tf.linalg.cross(x1, x2)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise NotImplementedError("devtrace does not implement keras.ops.bincount(sparse=...) yet")
    x = _t(x)
    if x.dtype.name not in ("int32", "int64"):
        x = tf.cast(x, tf.int32)
    if weights is None:
        return tf.cast(tf.math.bincount(x, minlength=minlength, axis=-1 if len(x.shape) > 1 else None), tf.int32)
    weights = _t(weights)
    return tf.math.bincount(x, weights=weights, minlength=minlength, axis=-1 if len(x.shape) > 1 else None)


def digitize(x, bins):
    x = _t(x)
    if x.dtype.name in ("bool", "int8", "int16", "uint8", "uint16"):
        x = tf.cast(x, tf.int32)
    elif x.dtype.name in ("bfloat16", "float16"):
        x = tf.cast(x, tf.float32)
    bins = tf.constant([float(b) for b in list(bins)], tf.float64)
    flat = tf.cast(tf.reshape(x, [-1]), tf.float64)
    return tf.reshape(tf.searchsorted(bins, flat, side="right", out_type=tf.int32), tf.shape(x))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = _t(x)
    if not x.dtype.is_floating:
        return x
    x = tf.where(tf.math.is_nan(x), tf.constant(nan, x.dtype), x)
    x = tf.where(tf.math.is_inf(x) & (x > 0), tf.constant(x.dtype.max if posinf is None else posinf, x.dtype), x)
    return tf.where(tf.math.is_inf(x) & (x < 0), tf.constant(x.dtype.min if neginf is None else neginf, x.dtype), x)


__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == __name__)
