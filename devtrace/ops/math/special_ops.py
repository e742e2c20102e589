"""``tf.math.special`` (the Bessel functions, Dawson's and the exponential, Fresnel and Spence
integrals) and the rest of TensorFlow's special-function ops: ``Igamma``/``Igammac``, ``Betainc``,
``Zeta``, ``Erfinv``, ``Ndtri``, ``NextAfter``, ``Xlog1py``; with ``lbeta`` and ``erfcinv``, the
Python composites TensorFlow builds on them. Values from :mod:`.special_kernels`, computed on the
host in float64 (as ``lgamma``), each op with TensorFlow's gradient."""

from __future__ import annotations

import math

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..array import array_ops
from ..declare import API, as_tensor, binary, gradient, not_differentiable, on_host, op, pair, public, quiet, unary
from . import math_ops, special_kernels as K
from .math_grad import reduce_to

_HALF_TO_DOUBLE = frozenset(("float16", "float32", "float64"))
_SINGLE_DOUBLE = frozenset(("float32", "float64"))


def _host(fn):
    """A kernel computing ``fn`` of its inputs (broadcast) in float64 on the host."""
    def kernel(xp, *arrays):
        hosts = [on_host(xp, a) for a in arrays]
        with np.errstate(all="ignore"):
            out = fn(*np.broadcast_arrays(*(h.astype(np.float64) for h in hosts)))
        return xp.asarray(np.asarray(out).astype(hosts[-1].dtype))
    return kernel


_UNARY = {
    "BesselI0": ("bessel_i0", K.bessel_i0, _HALF_TO_DOUBLE), "BesselI0e": ("bessel_i0e", K.bessel_i0e, _HALF_TO_DOUBLE),
    "BesselI1": ("bessel_i1", K.bessel_i1, _HALF_TO_DOUBLE), "BesselI1e": ("bessel_i1e", K.bessel_i1e, _HALF_TO_DOUBLE),
    "BesselJ0": ("bessel_j0", K.bessel_j0, _HALF_TO_DOUBLE), "BesselJ1": ("bessel_j1", K.bessel_j1, _HALF_TO_DOUBLE),
    "BesselK0": ("bessel_k0", K.bessel_k0, _HALF_TO_DOUBLE), "BesselK0e": ("bessel_k0e", K.bessel_k0e, _HALF_TO_DOUBLE),
    "BesselK1": ("bessel_k1", K.bessel_k1, _HALF_TO_DOUBLE), "BesselK1e": ("bessel_k1e", K.bessel_k1e, _HALF_TO_DOUBLE),
    "BesselY0": ("bessel_y0", K.bessel_y0, _HALF_TO_DOUBLE), "BesselY1": ("bessel_y1", K.bessel_y1, _HALF_TO_DOUBLE),
    "Dawsn": ("dawsn", K.dawsn, _SINGLE_DOUBLE), "Expint": ("expint", K.expint, _SINGLE_DOUBLE),
    "FresnelCos": ("fresnel_cos", K.fresnel_cos, _SINGLE_DOUBLE),
    "FresnelSin": ("fresnel_sin", K.fresnel_sin, _SINGLE_DOUBLE), "Spence": ("spence", K.spence, _SINGLE_DOUBLE),
}
# the four of them tf.math has too
_IN_MATH = {"bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"}
FUNCTIONS = {}
for _op, (_name, _fn, _types) in _UNARY.items():
    FUNCTIONS[_name] = unary(_op, _host(_fn), _types, (f"math.special.{_name}",) +
                             ((f"math.{_name}",) if _name in _IN_MATH else ()))

erfinv = unary("Erfinv", _host(K.erfinv), _SINGLE_DOUBLE, ("math.erfinv",))
ndtri = unary("Ndtri", _host(K.ndtri), _SINGLE_DOUBLE, ("math.ndtri",))


def _binary_op(name, fn, types=_SINGLE_DOUBLE):
    op(name, _host(fn), types)


_binary_op("Igamma", K.igamma)
_binary_op("Igammac", K.igammac)
_binary_op("Zeta", K.zeta)
op("Betainc", _host(K.betainc), _SINGLE_DOUBLE)
binary("NextAfter", lambda xp, a, b: xp.nextafter(a, b), _SINGLE_DOUBLE, ("math.nextafter",))
xlog1py = binary("Xlog1py", quiet(lambda xp, a, b: xp.where(a == 0, xp.zeros_like(a), a * xp.log1p(b))),
                 frozenset(("float16", "float32", "float64", "complex64", "complex128")), ("math.xlog1py",))


@public("math.igamma")
def igamma(a, x, name=None):
    return execute("Igamma", pair(a, x), name=name)


@public("math.igammac")
def igammac(a, x, name=None):
    return execute("Igammac", pair(a, x), name=name)


@public("math.zeta")
def zeta(x, q, name=None):
    return execute("Zeta", pair(x, q), name=name)


@public("math.betainc")
def betainc(a, b, x, name=None):
    first = next((v for v in (a, b, x) if isinstance(v, Tensor)), None)
    dtype = first.dtype if first is not None else None
    if dtype is None:
        a = as_tensor(a)
        dtype = a.dtype
    a, b, x = (v if isinstance(v, Tensor) else constant(v, dtype) for v in (a, b, x))
    return execute("Betainc", (a, b, x), name=name)


@public("math.lbeta")
def lbeta(x, name=None):
    """``log |B(x)|`` over the last axis: the sum of ``lgamma`` less ``lgamma`` of the sum (TensorFlow's composite)."""
    x = as_tensor(x)
    log_prod_gamma = API["reduce_sum"](API["math.lgamma"](x), axis=[-1])
    sum_x = API["reduce_sum"](x, axis=[-1])
    return API["subtract"](log_prod_gamma, API["math.lgamma"](sum_x), name=name)


@public("math.erfcinv")
def erfcinv(x, name=None):
    """TensorFlow's composite: ``-ndtri(x / 2) * sqrt(1/2)``."""
    x = as_tensor(x)
    half = array_ops.constant(0.5, x.dtype)
    return API["multiply"](API["negative"](ndtri(API["multiply"](half, x))), array_ops.constant(np.sqrt(0.5), x.dtype),
                           name=name)


def _const(value, like):
    return array_ops.constant(value, like.dtype)


def _special(name, x):
    return FUNCTIONS[name](x)


def _grad(op_type, partial):
    gradient(op_type)(lambda op, grad: (math_ops.multiply(grad, partial(op.inputs[0], op.outputs[0])),))


_mul, _sub, _div, _neg = math_ops.multiply, math_ops.subtract, (lambda a, b: API["divide"](a, b)), math_ops.negative
_grad("BesselI0", lambda x, y: _special("bessel_i1", x))
_grad("BesselI0e", lambda x, y: _sub(_special("bessel_i1e", x), _mul(API["sign"](x), y)))
_grad("BesselI1", lambda x, y: array_ops.where(math_ops.equal(x, _const(0, x)), _const(0.5, x),
                                               _sub(_special("bessel_i0", x), API["divide"](y, x))))
_grad("BesselI1e", lambda x, y: array_ops.where(math_ops.equal(x, _const(0, x)), _const(0.5, x), _sub(
    _special("bessel_i0e", x), _mul(y, math_ops.add(API["sign"](x), API["math.reciprocal"](x))))))
_grad("BesselJ0", lambda x, y: _neg(_special("bessel_j1", x)))
_grad("BesselJ1", lambda x, y: array_ops.where(math_ops.equal(x, _const(0, x)), _const(0.5, x),
                                               _sub(_special("bessel_j0", x), API["divide"](y, x))))
_grad("BesselY0", lambda x, y: _neg(_special("bessel_y1", x)))
_grad("BesselY1", lambda x, y: _sub(_special("bessel_y0", x), API["divide"](y, x)))
_grad("BesselK0", lambda x, y: _neg(_special("bessel_k1", x)))
_grad("BesselK0e", lambda x, y: _sub(y, _special("bessel_k1e", x)))
_grad("BesselK1", lambda x, y: _sub(_neg(_special("bessel_k0", x)), API["divide"](y, x)))
_grad("BesselK1e", lambda x, y: _sub(_mul(y, _sub(_const(1, x), API["math.reciprocal"](x))), _special("bessel_k0e", x)))
_grad("Dawsn", lambda x, y: _sub(_const(1, x), _mul(_mul(_const(2, x), x), y)))
_grad("Expint", lambda x, y: API["divide"](API["exp"](x), x))
_grad("FresnelCos", lambda x, y: API["cos"](_mul(_const(np.pi / 2, x), API["square"](x))))
_grad("FresnelSin", lambda x, y: API["sin"](_mul(_const(np.pi / 2, x), API["square"](x))))
_grad("Spence", lambda x, y: array_ops.where(math_ops.equal(x, _const(1, x)), _const(-1, x),
                                             API["divide"](API["math.log"](x), _sub(_const(1, x), x))))
_grad("Erfinv", lambda x, y: _mul(_const(np.sqrt(np.pi) / 2, x), API["exp"](API["square"](y))))
_grad("Ndtri", lambda x, y: _mul(_const(np.sqrt(2 * np.pi), x), API["exp"](_mul(_const(0.5, x), API["square"](y)))))
not_differentiable("NextAfter")


def _igamma_grad_a(a: float, x: float) -> float:
    """∂P(a, x)/∂a by a fourth-order central difference in float64 (TensorFlow's IgammaGradA kernel
    differentiates its series; this agrees to about 1e-9)."""
    if not (a > 0 and x > 0) or math.isinf(x):
        return 0.0 if a > 0 and x >= 0 else math.nan
    h = 1e-4 * max(a, 1e-3)
    p = [K._igamma(a + k * h, x, False) for k in (-2, -1, 1, 2)]
    return (p[0] - 8 * p[1] + 8 * p[2] - p[3]) / (12 * h)


op("IgammaGradA", _host(np.vectorize(_igamma_grad_a, otypes=[np.float64])), _SINGLE_DOUBLE)
not_differentiable("IgammaGradA")


def _igamma_partial_x(a, x):
    """``exp(-x + (a - 1) log x - lgamma(a))``, the density of the gamma distribution."""
    return API["exp"](_sub(_sub(_mul(_sub(a, _const(1, a)), API["math.log"](x)), x), API["math.lgamma"](a)))


@gradient("Igamma")
def _igamma_grad(op, grad):
    a, x = op.inputs
    return (reduce_to(_mul(grad, execute("IgammaGradA", (a, x))), a.shape),
            reduce_to(_mul(grad, _igamma_partial_x(a, x)), x.shape))


@gradient("Igammac")
def _igammac_grad(op, grad):
    a, x = op.inputs
    return (reduce_to(_neg(_mul(grad, execute("IgammaGradA", (a, x)))), a.shape),
            reduce_to(_neg(_mul(grad, _igamma_partial_x(a, x))), x.shape))


@gradient("Zeta")
def _zeta_grad(op, grad):
    """To ``q`` only: ``-x ζ(x + 1, q)`` (TensorFlow has none to ``x``)."""
    x, q = op.inputs
    partial_q = _mul(_neg(x), zeta(math_ops.add(x, _const(1, x)), q))
    return None, reduce_to(_mul(grad, partial_q), q.shape)


@gradient("Betainc")
def _betainc_grad(op, grad):
    """To ``x`` only (TensorFlow has none to ``a`` and ``b``): ``x^(a-1) (1-x)^(b-1) / B(a, b)``."""
    a, b, x = op.inputs
    log_beta = _sub(math_ops.add(API["math.lgamma"](a), API["math.lgamma"](b)), API["math.lgamma"](math_ops.add(a, b)))
    partial_x = API["exp"](_sub(math_ops.add(API["math.xlogy"](_sub(a, _const(1, a)), x),
                                             xlog1py(_sub(b, _const(1, b)), _neg(x))), log_beta))
    return None, None, reduce_to(_mul(grad, partial_x), x.shape)


@gradient("Xlog1py")
def _xlog1py_grad(op, grad):
    x, y = op.inputs
    not_zero = array_ops.cast(math_ops.not_equal(x, _const(0, x)), x.dtype)
    partial_x = xlog1py(not_zero, y)
    partial_y = API["math.xdivy"](x, math_ops.add(y, _const(1, y)))
    return reduce_to(_mul(partial_x, grad), x.shape), reduce_to(_mul(partial_y, grad), y.shape)
