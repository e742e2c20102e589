"""Casts beyond ``tf.cast``: ``tf.bitcast`` (the same bytes seen as another dtype) and
``tf.dtypes.saturate_cast`` (clamped into the target's range, then cast)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.values import constant
from ..array.array_ops import cast
from ..declare import as_tensor, op, public
from .. import shapes

# TensorFlow's Bitcast takes the fixed-size numeric dtypes (not bool, not strings)
_BITCASTABLE = dtypes.NUMERIC | {d.name for d in dtypes.QUANTIZED}


def _bitcast_shape(shape, src: dtypes.DType, dst: dtypes.DType):
    """The output shape, as TensorFlow's kernel computes it; ``None`` when the bytes do not fit."""
    if src.size == dst.size:
        return tuple(shape)
    if src.size > dst.size:
        return (*shape, src.size // dst.size)
    if shape and shape[-1] is not None and shape[-1] * src.size == dst.size:
        return tuple(shape[:-1])
    return None


def _bitcast(xp, x, type="int32"):
    src, dst = dtypes.as_dtype(x.dtype), dtypes.as_dtype(type)
    shape = _bitcast_shape(x.shape, src, dst)
    if shape is None:
        raise ValueError(f"Cannot bitcast from {src.as_datatype_enum} to {dst.as_datatype_enum}")
    return xp.ascontiguousarray(x).view(dst.np).reshape(shape)


def _bitcast_shape_fn(name, shapes, attrs, dtype):
    dst = dtypes.as_dtype(attrs["type"])
    return dst, None if shapes[0] is None else _bitcast_shape(shapes[0], dtype, dst)


op("Bitcast", _bitcast, _BITCASTABLE, shape=_bitcast_shape_fn)


@public("bitcast")
def bitcast(input, type, name=None):  # noqa: A002 (TensorFlow's parameter names)
    return execute("Bitcast", (as_tensor(input),), {"type": dtypes.as_dtype(type).name}, name=name)


op("ClipByValue", lambda xp, t, lo, hi: xp.minimum(xp.maximum(t, lo), hi), dtypes.REAL, shape=shapes.same)


def _limits(src: dtypes.DType, dst: dtypes.DType):
    """The clamp TensorFlow's ``saturate_cast`` applies: the narrower of both ranges, nudged
    towards zero where the bound is not representable in the input dtype."""
    np_type = src.as_numpy_dtype
    try:
        promoted = np.promote_types(np_type, dst.as_numpy_dtype)
    except TypeError:  # bfloat16: NumPy cannot promote it
        promoted = float
    low = np_type(np.maximum(src.min, dst.min))
    if np.array([low, dst.min], dtype=promoted)[0] < np.array([low, dst.min], dtype=promoted)[1]:
        low = np.nextafter(low, np_type(0), dtype=np_type)
    high = np_type(np.minimum(float(src.max), float(dst.max)))
    if np.array([high, dst.max], dtype=promoted)[0] > np.array([high, dst.max], dtype=promoted)[1]:
        high = np.nextafter(high, np_type(0), dtype=np_type)
    return low, high


@public("dtypes.saturate_cast", "saturate_cast")
def saturate_cast(value, dtype, name=None):
    """``ClipByValue`` into the target's range, then ``Cast`` (complex to real keeps the real part)."""
    value = as_tensor(value)
    dst = dtypes.as_dtype(dtype)
    if value.dtype.is_complex:
        from .complex_ops import real

        if dst.is_complex:
            return cast(value, dst, name=name)  # complex64 ↔ complex128: both ranges hold the values
        value = real(value)
    low, high = _limits(value.dtype, dst.real_dtype)
    clamped = execute("ClipByValue", (value, constant(low, value.dtype), constant(high, value.dtype)))
    return cast(clamped, dst, name=name)
