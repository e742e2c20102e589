"""TensorFlow-named dtypes over NumPy dtypes."""

from __future__ import annotations

import numpy as np

try:  # bfloat16 as NumPy knows it: TensorFlow's own numpy type is ml_dtypes'
    import ml_dtypes
except ImportError:  # pragma: no cover - a dependency; without it devtrace has no tf.bfloat16
    ml_dtypes = None


class DType:
    __slots__ = ("name", "np", "c_name", "enum_name", "is_floating", "is_integer", "is_complex", "is_bool",
                 "is_unsigned", "is_quantized")

    def __init__(self, name, np_dtype, c_name, enum_name, kind=None):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.c_name = c_name  # as TensorFlow's C++ prints it: float, double, half, int32, ...
        self.enum_name = enum_name  # DT_FLOAT ...
        kind = kind or self.np.kind  # bfloat16's NumPy kind is "V": given as "f"
        self.is_floating = kind == "f"
        self.is_integer = kind in "iu"
        self.is_complex = kind == "c"
        self.is_bool = kind == "b"
        self.is_unsigned = kind == "u"
        self.is_quantized = kind == "q"  # qint8 …: a structured NumPy dtype, as TensorFlow's

    @property
    def as_numpy_dtype(self):
        if self.is_quantized:
            return self.np
        return object if self.np.kind == "O" else self.np.type

    @property
    def size(self) -> int:
        return 0 if self.np.kind == "O" else self.np.itemsize

    @property
    def is_numeric(self) -> bool:
        return self.name in NUMERIC or self.is_quantized  # not the experimental float8/int4 …, as TensorFlow

    @property
    def base_dtype(self) -> "DType":
        return self

    @property
    def real_dtype(self) -> "DType":
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    @property
    def as_datatype_enum(self) -> int:
        return _ENUMS[self.name]

    @property
    def min(self):
        return self._limit("minimum")

    @property
    def max(self):
        return self._limit("maximum")

    @property
    def limits(self) -> tuple:
        return self.min, self.max

    def _limit(self, which: str):
        if self.is_quantized:
            raise TypeError(f"Cannot find {which} value of {self} with quantized type {self}.")
        if self.is_floating:
            info = (ml_dtypes or np).finfo(self.np)  # ml_dtypes' knows NumPy's floats too
            return info.min if which == "minimum" else info.max
        if self.is_integer:
            info = (ml_dtypes or np).iinfo(self.np)
            return int(info.min if which == "minimum" else info.max)
        raise TypeError(f"Cannot find {which} value of {self} with type {self}.")

    def is_compatible_with(self, other) -> bool:
        return self == as_dtype(other)

    def __eq__(self, other):
        if isinstance(other, DType):
            return self is other
        try:
            return other is not None and as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self == other

    __hash__ = object.__hash__  # identity, in C: dtypes key the per-op placement cache

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16, "half", "DT_HALF")
float32 = DType("float32", np.float32, "float", "DT_FLOAT")
float64 = DType("float64", np.float64, "double", "DT_DOUBLE")
int32 = DType("int32", np.int32, "int32", "DT_INT32")
int64 = DType("int64", np.int64, "int64", "DT_INT64")
bool_ = DType("bool", np.bool_, "bool", "DT_BOOL")
string = DType("string", np.object_, "string", "DT_STRING")
int8 = DType("int8", np.int8, "int8", "DT_INT8")
int16 = DType("int16", np.int16, "int16", "DT_INT16")
uint8 = DType("uint8", np.uint8, "uint8", "DT_UINT8")
uint16 = DType("uint16", np.uint16, "uint16", "DT_UINT16")
uint32 = DType("uint32", np.uint32, "uint32", "DT_UINT32")
uint64 = DType("uint64", np.uint64, "uint64", "DT_UINT64")
complex64 = DType("complex64", np.complex64, "complex64", "DT_COMPLEX64")
complex128 = DType("complex128", np.complex128, "complex128", "DT_COMPLEX128")
half, double = float16, float64
_BFLOAT16 = () if ml_dtypes is None else (DType("bfloat16", ml_dtypes.bfloat16, "bfloat16", "DT_BFLOAT16", "f"),)
if _BFLOAT16:
    bfloat16 = _BFLOAT16[0]

# tf.dtypes.experimental: ml_dtypes' narrow floats and ints (TensorFlow casts some of them, computes with none)
EXPERIMENTAL = () if ml_dtypes is None else tuple(
    DType(n, getattr(ml_dtypes, n), n, f"DT_{n.upper()}", kind) for n, kind in (
        ("float8_e5m2", "f"), ("float8_e4m3fn", "f"), ("float8_e4m3fnuz", "f"), ("float8_e4m3b11fnuz", "f"),
        ("float8_e5m2fnuz", "f"), ("int4", "i"), ("uint4", "u"), ("int2", "i"), ("uint2", "u"), ("float4_e2m1fn", "f")))

ALL = (float16, float32, float64, int32, int64, bool_, string, int8, int16, uint8, uint16, uint32, uint64,
       complex64, complex128) + _BFLOAT16 + EXPERIMENTAL
_BY_NAME = {d.name: d for d in ALL}
# Quantized dtypes: named, sized and enumerated as TensorFlow's; no devtrace kernel takes them.
QUANTIZED = tuple(DType(n, [(n, t)], n, f"DT_{n.upper()}", "q")
                  for n, t in (("qint8", np.int8), ("quint8", np.uint8), ("qint16", np.int16),
                               ("quint16", np.uint16), ("qint32", np.int32)))
qint8, quint8, qint16, quint16, qint32 = QUANTIZED
_BY_NAME.update({d.name: d for d in QUANTIZED})
_BY_NAME.update({"half": float16, "double": float64, "float": float32})
# A variable's handle (a function's captured variable input): no kernel takes it as data.
resource = DType("resource", np.object_, "resource", "DT_RESOURCE")
_BY_NAME["resource"] = resource
# A TensorList (what a TensorArray is inside a tf.function): a 0-d object array of the items.
variant = DType("variant", np.object_, "variant", "DT_VARIANT")
_BY_NAME["variant"] = variant
# TensorFlow's DataType enum values (types.proto)
_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7, "complex64": 8,
          "int64": 9, "bool": 10, "qint8": 11, "quint8": 12, "qint32": 13, "bfloat16": 14, "qint16": 15,
          "quint16": 16, "uint16": 17, "complex128": 18, "float16": 19, "resource": 20, "variant": 21,
          "uint32": 22, "uint64": 23, "float8_e5m2": 24, "float8_e4m3fn": 25, "float8_e4m3fnuz": 26,
          "float8_e4m3b11fnuz": 27, "float8_e5m2fnuz": 28, "int4": 29, "uint4": 30, "int2": 31, "uint2": 32,
          "float4_e2m1fn": 33}
_BY_ENUM = {v: _BY_NAME[k] for k, v in _ENUMS.items() if k in _BY_NAME}


class ListValue(np.ndarray):
    """The value of a ``variant`` tensor: ``value[()]`` is the list of item arrays (``None``:
    not written yet)."""

    @staticmethod
    def of(items: list) -> "ListValue":
        out = np.empty((), dtype=object).view(ListValue)
        out[()] = items
        return out
_BY_NP = BY_NP = {d.np: d for d in ALL + QUANTIZED}  # NumPy dtype -> DType
# the same by the NumPy dtype objects' identities (an array's dtype is one of these objects; they are
# kept alive as _BY_NP's keys): strings, bytes and objects excepted, which as_dtype takes its own way
_BY_NP_ID = {id(npd): d for npd, d in _BY_NP.items() if npd.kind not in "SUO"}
FLOATS = frozenset(("float16", "float32", "float64") + tuple(d.name for d in _BFLOAT16))
NUMERIC = frozenset(d.name for d in (int32, int64, int8, int16, uint8, uint16, uint32, uint64, complex64,
                                     complex128)) | FLOATS
INTEGERS = frozenset(d.name for d in (int8, int16, int32, int64, uint8, uint16, uint32, uint64))
REAL = NUMERIC - {"complex64", "complex128"}  # what comparisons, max/min and floor division take


def as_dtype(value) -> DType:
    """A DType from a DType, a name (``'float32'``), a NumPy dtype or a Python type."""
    found = _BY_NP_ID.get(id(value))  # a kernel's array's dtype, first: below, ``value in (str, bytes)``
    if found is not None:             # alone costs NumPy a conversion of each type to a dtype
        return found
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    if type(value) is int and value in _BY_ENUM:  # a DataType enum value (3: int32)
        return _BY_ENUM[value]
    if value is bool:
        return bool_
    if value in (str, bytes):
        return string
    try:
        npd = np.dtype(value)
    except TypeError:
        raise TypeError(f"Cannot convert {value!r} to a devtrace DType") from None
    if npd.kind in "SUO":
        return string
    if npd in _BY_NP:
        return _BY_NP[npd]
    raise TypeError(f"Unsupported dtype {npd} (devtrace supports {', '.join(d.name for d in ALL)})")


def as_dtype_public(type_value) -> DType:
    """``tf.as_dtype``: names, DTypes, NumPy dtypes and types, enum values; TensorFlow's errors."""
    if isinstance(type_value, int) and not isinstance(type_value, bool) and type_value in _BY_ENUM:
        return _BY_ENUM[type_value]
    if type_value is float:  # TensorFlow's Python-type table: float is float32
        return float32
    if type_value is int or isinstance(type_value, (int, float)) and not isinstance(type_value, bool):
        raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a TensorFlow DType.")
    try:
        return as_dtype(type_value)
    except TypeError:
        raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a TensorFlow DType.") from None


def infer(value) -> DType:
    """The dtype TensorFlow infers for a Python/NumPy value: floats → float32, ints → int32."""
    if isinstance(value, np.generic):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SUO":
            return string
        if value.dtype == np.float64 or value.dtype == np.int64 or value.dtype in _BY_NP:
            return _BY_NP.get(value.dtype) or as_dtype(value.dtype)
        return as_dtype(value.dtype)
    arr = np.asarray(value)
    kind = arr.dtype.kind
    if kind == "b":
        return bool_
    if kind in "iu":  # int64 when a value does not fit int32, as TensorFlow infers it
        return int32 if not arr.size or (arr.min() >= -2**31 and arr.max() < 2**31) else int64
    if kind == "f":
        return float32
    if kind == "c":
        return complex128
    if kind in "SUO":
        return string
    raise TypeError(f"Cannot infer a dtype for {value!r}")
