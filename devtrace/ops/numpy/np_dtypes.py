"""tf.experimental.numpy's dtypes and type promotion: NumPy's rules on tensors' dtypes, Python
floats as float64 (float32 once ``experimental_enable_numpy_behavior(prefer_float32=True)``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...runtime import dtypes as _dtypes
from ...runtime.tensor import Tensor


@dataclass
class Behavior:
    """What ``experimental_enable_numpy_behavior`` switched on."""
    enabled: bool = False
    prefer_float32: bool = False


BEHAVIOR = Behavior()

# NumPy's scalar types, as tf.experimental.numpy publishes them
TYPES = {"bool_": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
         "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
         "float16": np.float16, "float32": np.float32, "float64": np.float64, "complex64": np.complex64,
         "complex128": np.complex128, "int_": np.int64, "float_": np.float64, "complex_": np.complex128,
         "object_": np.object_, "string_": np.bytes_, "unicode_": np.str_, "inexact": np.inexact,
         "e": np.e, "pi": np.pi, "inf": np.inf, "newaxis": np.newaxis, "iinfo": np.iinfo, "finfo": np.finfo,
         "issubdtype": np.issubdtype}


def np_dtype(dtype):
    """A NumPy dtype from a tf.DType, a NumPy type or a Python type (``float``: tnp's default float)."""
    if dtype is None:
        return None
    if dtype is float:
        return default_float()
    if isinstance(dtype, _dtypes.DType):
        return np.dtype(dtype.as_numpy_dtype)
    return np.dtype(dtype)


def tf_dtype(dtype):
    return _dtypes.as_dtype(np_dtype(dtype))


def default_float():
    """``result_type(float)``: float64 even with ``prefer_float32``, which only types Python float values."""
    return np.dtype(np.float64)


def python_float():
    """The dtype of a Python float value."""
    return np.dtype(np.float32 if BEHAVIOR.prefer_float32 else np.float64)


def _value_dtype(x):
    """The dtype a value takes as an array (tensors keep theirs; Python floats take tnp's float)."""
    if isinstance(x, Tensor) or hasattr(x, "dtype") and isinstance(getattr(x, "dtype"), _dtypes.DType):
        return np.dtype(x.dtype.as_numpy_dtype)
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, (_dtypes.DType, type, np.dtype)):
        return np_dtype(x)
    a = np.asarray(x)
    if a.dtype == np.float64:
        return python_float()
    if a.dtype == np.complex128 and BEHAVIOR.prefer_float32:
        return np.dtype(np.complex64)
    return a.dtype


def result_type(*arrays_and_dtypes):
    """``tnp.result_type``: NumPy's promotion of the values' dtypes, as a tf.DType."""
    return _dtypes.as_dtype(_result_np(*arrays_and_dtypes))


def _result_np(*values):
    """Python scalars are weak (``float32 tensor + 1.5`` stays float32), as in tnp."""
    strong = [_value_dtype(v) for v in values if not isinstance(v, (bool, int, float, complex))]
    weak = [v for v in values if isinstance(v, (bool, int, float, complex))]
    if BEHAVIOR.prefer_float32:
        weak = [np.float32(v) if isinstance(v, float) else np.complex64(v) if isinstance(v, complex) else v
                for v in weak]
    if not strong:
        return np.result_type(*[_value_dtype(v) for v in weak])
    return np.result_type(*strong, *weak)


def promote_types(type1, type2):
    """``tnp.promote_types``: a NumPy dtype, as TensorFlow's returns."""
    return np.promote_types(np_dtype(type1), np_dtype(type2))
