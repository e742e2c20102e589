"""TensorFlow 2.21's auto dtype conversion (``experimental_enable_numpy_behavior(dtype_conversion_mode=
'all'|'safe')``): weak tensors (from Python scalars and lists) and the promotion lattice of binary ops.

``MODE`` is ``None`` in the default ``'legacy'`` mode; ops consult it only where they convert operands,
so the legacy hot path is unchanged. The lattice is derived by rule (kinds and widths), not tabulated."""

from __future__ import annotations

import numpy as np

from . import dtypes
from .tensor import Tensor

MODE = None  # None (legacy), "all" or "safe"
_MODE_NAMES = {"all": "PromoMode.ALL", "safe": "PromoMode.SAFE"}


class WeakTensor(Tensor):
    """A tensor whose dtype yields to a strong operand's (TensorFlow's ``WeakTensor``)."""

    __slots__ = ()

    def __repr__(self):
        return Tensor.__repr__(self)[:-1] + ", weak=True>"


WeakTensor.__name__ = WeakTensor.__qualname__ = "EagerTensor"

# The ops TensorFlow's weak-tensor dispatch wraps (weak_tensor_ops.py); the others (Less, Greater …)
# convert a Python operand to the tensor's dtype as in the legacy mode.
BINARY_OPS = frozenset({"AddV2", "Sub", "Mul", "MulNoNan", "RealDiv", "Div", "DivNoNan", "TruncateDiv",
                        "FloorDiv", "TruncateMod", "FloorMod", "Pow", "Maximum", "Minimum", "Equal"})
UNARY_OPS = frozenset({"Abs", "Softplus", "Sign", "Real", "Imag", "Angle", "Round", "Sigmoid", "Conj", "Erfinv",
                       "Ndtri", "Ceil", "Sqrt", "Exp", "Rsqrt", "Acos", "Floor", "Invert", "Acosh", "Asin", "Asinh",
                       "Atan", "Atanh", "Cos", "Cosh", "Digamma", "Erf", "Erfc", "Expm1", "Lgamma", "Log", "Log1p",
                       "Neg", "Reciprocal", "Rint", "Sin", "Sinh", "Square", "Tan", "Tanh", "Identity", "Relu",
                       "Relu6", "Elu", "Selu", "Softsign", "ZerosLike", "OnesLike", "StopGradient"})

_KIND = {"bool": ("b", 1), "uint8": ("u", 8), "uint16": ("u", 16), "uint32": ("u", 32), "uint64": ("u", 64),
         "int8": ("i", 8), "int16": ("i", 16), "int32": ("i", 32), "int64": ("i", 64), "bfloat16": ("f", 8),
         "float16": ("f", 11), "float32": ("f", 24), "float64": ("f", 53), "complex64": ("c", 24),
         "complex128": ("c", 53)}
_WEAK_ORDER = ("int32", "int64", "float32", "float64", "complex128")


def key(x):
    """``(dtype name, weak)`` of an operand, as TensorFlow infers it; ``None`` when it has no rule."""
    if isinstance(x, dtypes.DType):
        return x.name, False
    if isinstance(x, Tensor) or isinstance(getattr(x, "dtype", None), dtypes.DType):
        return x.dtype.name, type(x) is WeakTensor
    if isinstance(x, (np.ndarray, np.generic)):
        return dtypes.as_dtype(x.dtype).name, False
    if isinstance(x, bool):
        return "bool", False
    if isinstance(x, int):
        return "int32", True
    if isinstance(x, float):
        return "float32", True
    if isinstance(x, complex):
        return "complex128", True
    if isinstance(x, (list, tuple)) and x:
        keys = [key(v) for v in x]
        if None in keys or not all(k[1] or k[0] == "bool" for k in keys):
            return None
        return max(keys, key=lambda k: (k[1], _WEAK_ORDER.index(k[0]) if k[1] else -1))
    return None


def _precision(name):
    kind, bits = _KIND[name]
    return bits - 1 if kind == "i" else bits


def _strong(a, b):
    """Two strong dtypes: (result, weak, safe)."""
    (ka, ba), (kb, bb) = _KIND[a], _KIND[b]
    if ka == "b":
        return b, False, True
    if kb == "b":
        return a, False, True
    order = "uifc"
    if order.index(ka) > order.index(kb):
        (a, ka, ba), (b, kb, bb) = (b, kb, bb), (a, ka, ba)
    if ka == kb:
        if ka == "f" and {a, b} == {"bfloat16", "float16"}:
            return "float32", False, False
        return (a if ba >= bb else b), False, True
    if ka == "u" and kb == "i":
        if ba == 64:
            return "float64", True, False
        result = f"int{max(bb, 2 * ba)}"
        return result, False, result == b
    if ka in "ui":  # an integer with a float or complex
        return b, False, _precision(a) <= bb
    if {a, b} == {"float64", "complex64"}:  # a float with a complex
        return "complex128", False, False
    return b, False, True


def _with_weak(strong, weak):
    """A strong dtype and a weak one: (result, weak, safe)."""
    kind, bits = _KIND[strong]
    wkind = _KIND[weak][0]
    if kind == "b":
        return weak, True, True
    if wkind == "i" or kind == "c":
        return strong, False, True
    if wkind == "f":
        if kind in "ui":
            return "float64", True, weak == "float64" and bits < 64
        return strong, False, True
    if kind in "ui":  # complex128 weak
        return "complex128", True, bits < 64
    return ("complex128", False, True) if strong == "float64" else ("complex64", False, False)


def result(ka, kb):
    """The promoted ``(dtype name, weak)`` of two operand keys and whether SAFE mode allows it."""
    if ka == kb:
        return ka[0], ka[1], True
    if ka[1] and kb[1]:
        return max(ka[0], kb[0], key=_WEAK_ORDER.index), True, True
    if ka[1]:
        return _with_weak(kb[0], ka[0])
    if kb[1]:
        return _with_weak(ka[0], kb[0])
    return _strong(ka[0], kb[0])


def promote(x, y):
    """The dtype two operands run in and whether the result is weak; SAFE mode's ``TypeError``."""
    ka, kb = key(x), key(y)
    if ka is None or kb is None:
        return None, False
    name, weak, safe = result(ka, kb)
    if not safe and MODE == "safe":
        raise TypeError(f"In promotion mode {_MODE_NAMES[MODE]}, implicit dtype promotion between "
                        f"(<dtype: '{ka[0]}'>, weak={ka[1]}) and (<dtype: '{kb[0]}'>, weak={kb[1]}) is "
                        "disallowed. You need to explicitly specify the dtype in your op, or relax your dtype "
                        "promotion rules (such as from SAFE mode to ALL mode).")
    return dtypes.as_dtype(name), weak


def make_weak(tensor):
    """Mark an op's fresh output weak (its class only: the buffer and its allocation stay)."""
    if type(tensor) is Tensor:
        tensor.__class__ = WeakTensor
    return tensor

