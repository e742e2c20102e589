"""Gradients of the gamma samplers (TensorFlow's ``random_grad.py``): a sample's derivative in its
``alpha`` with its quantile held fixed (implicit reparameterisation), ``RandomGammaGrad``:
``dx/da = -(∂P/∂a) / (∂P/∂x)``, ``P`` the regularised lower incomplete gamma function; the
parameterised truncated normal's likewise in its four parameters."""

from __future__ import annotations

import math

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..array import array_ops
from ..math import math_ops
from ..declare import gradient, not_differentiable, on_host, op
from ..math.math_grad import reduce_to


def _lower_gamma(a: float, x: float) -> float:
    """P(a, x): its series below ``a + 1``, else 1 - the continued fraction of Q (Lentz)."""
    if x <= 0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-17:
            n += 1
            term *= x / n
            total += term
        return total * math.exp(log_front)
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 10_000):
        an, b = -i * (i - a), b + 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c if abs(b + an / c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return 1 - math.exp(log_front) * h


def _sample_der_alpha(a: float, x: float) -> float:
    if x <= 0:
        return 0.0
    h = 1e-5 * max(a, 1e-3)
    dp_da = (_lower_gamma(a + h, x) - _lower_gamma(a - h, x)) / (2 * h)
    dp_dx = math.exp((a - 1) * math.log(x) - x - math.lgamma(a))
    return -dp_da / dp_dx


def _random_gamma_grad(xp, alpha, sample):
    """Computed on the host, element by element (a GPU's arrays come back through ``xp``)."""
    alpha, sample = on_host(xp, alpha), on_host(xp, sample)
    a, x = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    out = np.array([_sample_der_alpha(float(p), float(q)) for p, q in zip(a.ravel(), x.ravel())]).reshape(a.shape)
    return xp.asarray(out.astype(sample.dtype))


# TensorFlow 2.21 registers CPU and GPU kernels (float, double)
op("RandomGammaGrad", _random_gamma_grad, dtypes.FLOATS - {"bfloat16", "float16"})


def _alpha_grad(alpha, sample, grad):
    """Summed over the sample dims in front of ``alpha``'s."""
    leading = len(sample.shape) - len(alpha.shape)
    expanded = array_ops.reshape(alpha, [1] * leading + list(alpha.shape))
    partial = execute("RandomGammaGrad", (expanded, sample))
    return math_ops.reduce_sum(math_ops.multiply(grad, partial), list(range(leading))) if leading else \
        math_ops.multiply(grad, partial)


gradient("RandomGamma")(lambda op, grad: (_alpha_grad(op.inputs[0], op.outputs[0], grad),))
gradient("StatelessRandomGammaV3")(lambda op, grad: (None, None, None, _alpha_grad(op.inputs[3], op.outputs[0], grad)))
# TensorFlow's NotDifferentiable samplers (a LookupError otherwise, where TensorFlow gives None)
not_differentiable("Multinomial", "StatelessMultinomial", "RandomIndexShuffle", "StatelessRandomPoisson",
                   "StatelessRandomBinomial")


def _ndtr(x):
    """The standard normal distribution function, through erf near 0 and erfc in the tails (TensorFlow's)."""
    w = math_ops.multiply(x, array_ops.constant(0.5 * np.sqrt(2.0), x.dtype))
    z = math_ops.abs_(w)
    tails = array_ops.where(math_ops.greater(w, array_ops.constant(0, x.dtype)),
                            math_ops.subtract(array_ops.constant(2, x.dtype), math_ops.erfc(z)), math_ops.erfc(z))
    middle = math_ops.add(array_ops.constant(1, x.dtype), math_ops.erf(w))
    y = array_ops.where(math_ops.less(z, array_ops.constant(0.5 * np.sqrt(2.0), x.dtype)), middle, tails)
    return math_ops.multiply(y, array_ops.constant(0.5, x.dtype))


@gradient("StatelessParameterizedTruncatedNormal")
def _parameterized_truncated_normal_grad(op, grad):
    """The sample's derivatives with its quantile within the truncated range held fixed: 1 in the mean,
    the standardised sample in the stddev, and in the bounds the normal densities' ratios weighted by
    the quantile (maxval) or its complement (minval); summed to each parameter's shape."""
    _, mean, stddev, low, high = op.inputs
    standard = [math_ops.divide(math_ops.subtract(t, mean), stddev) for t in (op.outputs[0], low, high)]
    sample, low_std, high_std = standard
    ndtr_low = _ndtr(low_std)
    cdf = math_ops.divide(math_ops.subtract(_ndtr(sample), ndtr_low), math_ops.subtract(_ndtr(high_std), ndtr_low))
    info = np.finfo(mean.dtype.as_numpy_dtype)
    cdf = math_ops.minimum(math_ops.maximum(cdf, array_ops.constant(info.tiny, cdf.dtype)),
                           array_ops.constant(1 - info.eps, cdf.dtype))
    half = array_ops.constant(0.5, cdf.dtype)

    def density_ratio(bound_std, weight):
        exponent = math_ops.multiply(half, math_ops.subtract(math_ops.square(sample), math_ops.square(bound_std)))
        return math_ops.exp(math_ops.add(exponent, weight))

    partials = (array_ops.ones_like(sample), sample, density_ratio(low_std, math_ops.log1p(math_ops.negative(cdf))),
                density_ratio(high_std, math_ops.log(cdf)))
    return (None,) + tuple(reduce_to(math_ops.multiply(grad, d), p.shape)
                           for d, p in zip(partials, (mean, stddev, low, high)))
