"""Complex numbers: ``tf.complex``, ``tf.math.real``/``imag``/``angle``/``conj`` and
``ComplexAbs`` (what ``tf.abs`` runs for complex input: this module wraps ``math_ops``' real
``abs``), as TensorFlow's ``math_ops`` composes them: a real input to ``real``/``conj`` is
returned as it is, ``imag`` of it is zeros."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from .. import shapes
from ..array.array_ops import ones_like, where, zeros_like
from ...runtime.tensor import Tensor
from ..declare import API, COMPOSITE, as_tensor, op, public
from .math_ops import less

COMPLEX = frozenset(("complex64", "complex128"))


def _real_output(name, shapes_, attrs, dtype):
    """``Real``, ``Imag``, ``Angle``, ``ComplexAbs``: the input's shape, its real dtype (``Tout``)."""
    return dtypes.as_dtype(attrs.get("Tout", dtype.real_dtype)), shapes_[0]


def _complex_output(name, shapes_, attrs, dtype):
    return dtypes.as_dtype(attrs["Tout"]), shapes.broadcast(name, shapes_, attrs, dtype)[1]


def _complex(xp, re, im, Tout="complex64"):
    re, im = xp.broadcast_arrays(re, im)
    out = xp.empty(re.shape, dtype=dtypes.as_dtype(Tout).np)
    out.real, out.imag = re, im
    return out


op("Complex", _complex, dtypes.FLOATS - {"float16", "bfloat16"}, shape=_complex_output)
op("Real", lambda xp, x, Tout=None: xp.real(x), COMPLEX, shape=_real_output)
op("Imag", lambda xp, x, Tout=None: xp.imag(x), COMPLEX, shape=_real_output)
op("Angle", lambda xp, x, Tout=None: xp.angle(x), COMPLEX, shape=_real_output)
op("Conj", lambda xp, x: xp.conj(x), COMPLEX, shape=shapes.same)
op("ComplexAbs", lambda xp, x, Tout=None: xp.abs(x.astype(xp.complex128)).astype(x.real.dtype), COMPLEX,
   shape=_real_output)  # NumPy's complex64 abs is 1 ulp off in some of its loops: rounded once from float64


@public("complex", "dtypes.complex")
def complex(real, imag, name=None):  # noqa: A001 (TensorFlow's name)
    real, imag = as_tensor(real), as_tensor(imag)
    kinds = {(dtypes.float64, dtypes.float64): dtypes.complex128, (dtypes.float32, dtypes.float32): dtypes.complex64}
    out = kinds.get((real.dtype, imag.dtype))
    if out is None:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {real.dtype.name} "
                        f"{imag.dtype.name}. They must be consistent, and one of [tf.float32, tf.float64]")
    return execute("Complex", (real, imag), {"Tout": out.name}, name=name)


def _numeric(x):
    x = as_tensor(x)
    if not x.dtype.is_numeric:
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype {x.dtype}")
    return x


@public("math.real", "compat.v1.real")
def real(input, name=None):  # noqa: A002 (TensorFlow's parameter names)
    x = _numeric(input)
    if not x.dtype.is_complex:
        return x
    return execute("Real", (x,), {"Tout": x.dtype.real_dtype.name}, name=name)


@public("math.imag", "compat.v1.imag")
def imag(input, name=None):  # noqa: A002
    x = _numeric(input)
    if not x.dtype.is_complex:
        return zeros_like(x)
    return execute("Imag", (x,), {"Tout": x.dtype.real_dtype.name}, name=name)


@public("math.angle", "compat.v1.angle")
def angle(input, name=None):  # noqa: A002
    x = _numeric(input)
    if not x.dtype.is_complex:
        return where(less(x, 0), np.pi * ones_like(x), zeros_like(x))
    return execute("Angle", (x,), {"Tout": x.dtype.real_dtype.name}, name=name)


@public("math.conj", "compat.v1.conj")
def conj(x, name=None):
    x = as_tensor(x)
    if x.dtype.is_floating or x.dtype.is_integer:
        return x
    if not x.dtype.is_complex:
        raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")
    return execute("Conj", (x,), name=name)


_real_abs = API["abs"]  # math_ops': the Abs op


@public("abs", "math.abs")
def abs(x, name=None):  # noqa: A001 (TensorFlow's name)
    """``ComplexAbs`` for complex input (its real dtype out), ``math_ops``' ``Abs`` otherwise."""
    if type(x) in COMPOSITE:  # a RaggedTensor: on its values
        return COMPOSITE[type(x)].unary(abs, x, name)
    x = as_tensor(x)
    if x.dtype.is_complex:
        return execute("ComplexAbs", (x,), {"Tout": x.dtype.real_dtype.name}, name=name)
    return _real_abs(x, name=name)


Tensor.__abs__ = lambda self: abs(self)
