"""Gradients of clipping, the ``*_no_nan``/``xlogy``/``xdivy`` family, space/depth shuffles, the
segment reductions other than sums and ``lgamma`` (through ``Digamma`` and ``Polygamma``, declared here), after
TensorFlow's ``math_grad.py``/``array_grad.py``: each is ``fn(op, grad)`` returning one gradient
per input (``None``: none)."""

from __future__ import annotations

import math

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ..array import array_ops, indexing_ops
from . import math_ops, reduction_ops, segment_ops
from ..declare import gradient, not_differentiable, on_host, op, pair, public, unary
from .math_grad import reduce_to


@gradient("ClipByValue")
def _clip_by_value_grad(op, grad):
    """To the tensor where it was inside the bounds, to a bound where it was clipped to it."""
    x, low, high = op.inputs
    zeros = array_ops.zeros_like(grad)
    below, above = math_ops.less(x, low), math_ops.greater(x, high)
    gx = array_ops.where(math_ops.logical_or(below, above), zeros, grad)
    return (reduce_to(gx, x.shape), reduce_to(array_ops.where(below, grad, zeros), low.shape),
            reduce_to(array_ops.where(above, grad, zeros), high.shape))


@gradient("MulNoNan")
def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    return (reduce_to(execute("MulNoNan", (grad, y)), x.shape), reduce_to(execute("MulNoNan", (x, grad)), y.shape))


def _not_zero(x):
    return array_ops.cast(math_ops.not_equal(x, array_ops.constant(0, x.dtype)), x.dtype)


@gradient("Xlogy")
def _xlogy_grad(op, grad):
    x, y = op.inputs
    partial_x = execute("Xlogy", (_not_zero(x), y))
    partial_y = execute("Xdivy", (x, y))
    return (reduce_to(math_ops.multiply(partial_x, grad), x.shape),
            reduce_to(math_ops.multiply(partial_y, grad), y.shape))


@gradient("Xdivy")
def _xdivy_grad(op, grad):
    x, y = op.inputs
    partial_x = execute("Xdivy", (_not_zero(x), y))
    partial_y = execute("Xdivy", (math_ops.negative(x), math_ops.multiply(y, y)))
    return (reduce_to(math_ops.multiply(partial_x, grad), x.shape),
            reduce_to(math_ops.multiply(partial_y, grad), y.shape))


gradient("CheckNumerics")(lambda op, grad: (grad,))
gradient("EnsureShape")(lambda op, grad: (grad,))
gradient("Add")(lambda op, grad: (reduce_to(grad, op.inputs[0].shape), reduce_to(grad, op.inputs[1].shape)))
gradient("DepthToSpace")(lambda op, grad: (execute("SpaceToDepth", (grad,), dict(op.attrs)),))
gradient("SpaceToDepth")(lambda op, grad: (execute("DepthToSpace", (grad,), dict(op.attrs)),))


@gradient("SegmentMean")
def _segment_mean_grad(op, grad):
    data, ids = op.inputs
    rows = tuple(op.outputs[0].shape)[0]
    counts = segment_ops._segment_counts(data, ids, rows)
    return indexing_ops.gather(math_ops.divide(grad, counts), ids), None


def _segment_min_or_max_grad(op, grad):
    """To the elements equal to their segment's result, shared among ties."""
    data, ids = op.inputs[0], op.inputs[1]
    rows = tuple(op.outputs[0].shape)[0]
    selected = math_ops.equal(data, indexing_ops.gather(op.outputs[0], ids))
    chosen = segment_ops.unsorted_segment_sum(array_ops.cast(selected, grad.dtype), ids, rows)
    shared = indexing_ops.gather(math_ops.divide(grad, chosen), ids)
    return (array_ops.where(selected, shared, array_ops.zeros_like(data)),) + (None,) * (len(op.inputs) - 1)


for _name in ("SegmentMax", "SegmentMin", "UnsortedSegmentMax", "UnsortedSegmentMin"):
    gradient(_name)(_segment_min_or_max_grad)
not_differentiable("StatelessRandomGetKeyCounter", "StatelessRandomNormalV2", "StatelessRandomUniformV2",
                   "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2", "StatelessTruncatedNormalV2",
                   "InvertPermutation", "ShapeN", "LeftShift", "RightShift", "StringToHashBucketFast", "DenseBincount",
                   "UnravelIndex")


@gradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, grad):
    """TensorFlow's: the gradient's positive and negative parts summed in log space."""
    x, out, attrs = op.inputs[0], op.outputs[0], op.attrs
    lowest = array_ops.constant(float(np.finfo(grad.dtype.as_numpy_dtype).min), grad.dtype)
    zero = array_ops.zeros_like(grad)

    def part(mask, magnitude):
        log_part = array_ops.where(mask, math_ops.log(array_ops.where(mask, magnitude, array_ops.ones_like(grad))),
                                   lowest)
        summed = reduction_ops.cumulative_logsumexp(math_ops.subtract(log_part, out), attrs["axis"],
                                                    exclusive=attrs.get("exclusive", False),
                                                    reverse=not attrs.get("reverse", False))
        return math_ops.exp(math_ops.add(summed, x))
    return (math_ops.subtract(part(math_ops.greater(grad, zero), grad),
                              part(math_ops.less(grad, zero), math_ops.negative(grad))),)


gradient("ReverseSequence")(lambda op, grad: (execute("ReverseSequence", (grad, op.inputs[1]), dict(op.attrs)), None))
not_differentiable("TruncateDiv")


def _segment_prod_grad(op, grad):
    """The product of the segment's other elements (TensorFlow's: zeros handled apart, a segment
    with two zeros gives none)."""
    data, ids = op.inputs[0], op.inputs[1]
    rows = tuple(op.outputs[0].shape)[0]
    zero = array_ops.zeros_like(data)
    is_zero = math_ops.equal(data, zero)
    zeros_in = segment_ops.unsorted_segment_sum(array_ops.cast(is_zero, data.dtype), ids, rows)
    grad = array_ops.where(math_ops.greater(zeros_in, array_ops.ones_like(zeros_in)), array_ops.zeros_like(grad), grad)
    non_zero = array_ops.where(is_zero, array_ops.ones_like(data), data)
    non_zero_prod = segment_ops.unsorted_segment_prod(non_zero, ids, rows)
    others = array_ops.where(is_zero, indexing_ops.gather(non_zero_prod, ids),
                             math_ops.divide(indexing_ops.gather(op.outputs[0], ids), non_zero))
    return (math_ops.multiply(indexing_ops.gather(grad, ids), others),) + (None,) * (len(op.inputs) - 1)


gradient("SegmentProd")(_segment_prod_grad)
gradient("UnsortedSegmentProd")(_segment_prod_grad)


def _digamma(xp, x):
    """ψ(x): the reflection formula below zero, the recurrence up to 6, then the asymptotic series
    (on the host: a device array never converts implicitly)."""
    x = on_host(xp, x)
    v = x.astype(np.float64)
    out = np.zeros_like(v)
    reflect = v < 0.5
    v = np.where(reflect, 1.0 - v, v)
    with np.errstate(all="ignore"):
        shift = np.zeros_like(v)
        while np.any(v < 6.0):
            small = v < 6.0
            shift = np.where(small, shift - 1.0 / v, shift)
            v = np.where(small, v + 1.0, v)
        inv2 = 1.0 / (v * v)
        series = np.log(v) - 0.5 / v - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (
            1 / 240 - inv2 / 132))))
        out = series + shift
        out = np.where(reflect, out - np.pi / np.tan(np.pi * x.astype(np.float64)), out)
        out = np.where((x <= 0) & (x == np.floor(x)), np.nan, out)  # the poles: NaN, as Eigen's
    return xp.asarray(out.astype(x.dtype))


digamma = unary("Digamma", _digamma, dtypes.FLOATS, ("math.digamma",))
gradient("Lgamma")(lambda op, grad: (math_ops.multiply(grad, execute("Digamma", (op.inputs[0],))),))
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)  # B2, B4 … B14


def _polygamma(xp, a, x):
    """ψ⁽ⁿ⁾(x): ψ for n = 0; for a whole n > 0 the recurrence up to 20, then the asymptotic series;
    NaN for any other order (TensorFlow's kernel)."""
    a, x = on_host(xp, a), on_host(xp, x)  # computed on the host, as ψ is
    n, v = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(v.shape, np.nan)
    for order in np.unique(n[(n == np.floor(n)) & (n >= 0)]):
        at = n == order
        out[at] = _digamma(np, v[at]) if order == 0 else _polygamma_of_order(int(order), v[at])
    return xp.asarray(out.astype(x.dtype))


def _polygamma_of_order(n, v):
    fact = math.factorial
    with np.errstate(all="ignore"):
        shift = np.zeros_like(v)
        while np.any(v < 20.0):
            small = v < 20.0
            shift = np.where(small, shift + fact(n) / v ** (n + 1), shift)  # ψ⁽ⁿ⁾(v) = ψ⁽ⁿ⁾(v+1) + (-1)ⁿ⁺¹ n!/vⁿ⁺¹
            v = np.where(small, v + 1.0, v)
        series = fact(n - 1) / v ** n + fact(n) / (2 * v ** (n + 1))
        for k, b in enumerate(_BERNOULLI, 1):
            series = series + b * fact(2 * k + n - 1) / (fact(2 * k) * v ** (2 * k + n))
    return (-1) ** (n + 1) * (series + shift)


op("Polygamma", _polygamma, dtypes.FLOATS - {"bfloat16", "float16"})


@public("math.polygamma", "compat.v1.polygamma")
def polygamma(a, x, name=None):
    return execute("Polygamma", pair(a, x), name=name)


gradient("Digamma")(lambda op, grad: (math_ops.multiply(grad, polygamma(array_ops.constant(
    1, op.inputs[0].dtype), op.inputs[0])),))
gradient("Polygamma")(lambda op, grad: (None, math_ops.multiply(grad, polygamma(
    math_ops.add(op.inputs[0], array_ops.constant(1, op.inputs[0].dtype)), op.inputs[1]))))
