"""Reductions, cumulative ops and arg-extrema: ``reduce_mean`` (``Mean``), ``reduce_max`` …,
``argmax``, ``cumsum``. Axes are converted to an ``_EagerConst`` as TensorFlow does (``None``:
every axis, ``range(rank)``)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.dtypes import NUMERIC, REAL
from ...runtime.eager.executor import execute
from .. import shapes
from ..declare import (COMPOSITE, as_tensor, dynamic_reduce, host_arg, on_host, op, public, reduce, symbolic,
                       unknown_rank_axes)
from .math_ops import check_axes, reduce_sum  # noqa: F401 (Sum lives in math_ops, with its gradient)


def _identity(fn, dtype):
    """What max/min of nothing is in TensorFlow: the lowest or highest value of the dtype."""
    if dtype.kind == "f":
        return -np.inf if fn == "max" else np.inf
    info = np.iinfo(dtype)
    return info.min if fn == "max" else info.max


def _reduce_kernel(fn):
    def kernel(xp, x, axis=None, keepdims=False):
        check_axes(x, axis)
        extra = {"initial": _identity(fn, x.dtype)} if fn in ("max", "min") and x.size == 0 else {}
        return xp.asarray(getattr(xp, fn)(x, axis=axis, keepdims=keepdims, **extra), dtype=x.dtype)
    return kernel


def _mean(xp, x, axis=None, keepdims=False):
    check_axes(x, axis)
    out = xp.mean(x, axis=axis, keepdims=keepdims)
    if x.dtype.kind in "iu":  # TensorFlow's integer mean truncates
        out = xp.trunc(out)
    return xp.asarray(out, dtype=x.dtype)


_BOOL = frozenset(("bool",))
_AXES = {"axis": "reduction_indices"}  # in a graph: the Const node <op>/reduction_indices
op("Mean", _mean, NUMERIC, shape=shapes.reduction, host_args=_AXES)
op("Max", _reduce_kernel("max"), REAL, shape=shapes.reduction, host_args=_AXES)
op("Min", _reduce_kernel("min"), REAL, shape=shapes.reduction, host_args=_AXES)
op("Prod", _reduce_kernel("prod"), NUMERIC, shape=shapes.reduction, host_args=_AXES)
op("Any", _reduce_kernel("any"), _BOOL, shape=shapes.reduction, host_args=_AXES)
op("All", _reduce_kernel("all"), _BOOL, shape=shapes.reduction, host_args=_AXES)


def _axes(x, axis):
    axes = host_arg(np.arange(len(x.shape), dtype=np.int32) if axis is None else axis)
    return None if axis is None else (int(axes) if axes.ndim == 0 else tuple(int(a) for a in axes))


def _reduction(op_type, api):
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        if type(input_tensor) in COMPOSITE:
            return COMPOSITE[type(input_tensor)].reduce(op_type, fn, input_tensor, axis, keepdims, name)
        x = as_tensor(input_tensor)
        axis = unknown_rank_axes(x, axis)
        if symbolic(axis):
            return dynamic_reduce(op_type, x, axis, keepdims, name)
        return reduce(op_type, x, axis, {"axis": _axes(x, axis), "keepdims": bool(keepdims)}, name)
    fn.__name__ = api[0].rsplit(".", 1)[-1]
    return public(*api)(fn)


reduce_mean = _reduction("Mean", ("reduce_mean", "math.reduce_mean"))
reduce_max = _reduction("Max", ("reduce_max", "math.reduce_max"))
reduce_min = _reduction("Min", ("reduce_min", "math.reduce_min"))
reduce_prod = _reduction("Prod", ("reduce_prod", "math.reduce_prod"))
reduce_any = _reduction("Any", ("reduce_any", "math.reduce_any"))
reduce_all = _reduction("All", ("reduce_all", "math.reduce_all"))


def _arg(fn):
    def kernel(xp, x, axis=0, output_type="int64"):
        return xp.asarray(getattr(xp, fn)(x, axis=axis), dtype=dtypes.as_dtype(output_type).np)
    return kernel


def _arg_shape(name, in_shapes, attrs, dtype):
    shape = in_shapes[0]
    out = dtypes.as_dtype(attrs.get("output_type", "int64"))
    if shape is None:
        return out, None
    axis = attrs.get("axis", 0) % max(len(shape), 1)
    return out, tuple(d for i, d in enumerate(shape) if i != axis)


op("ArgMax", _arg("argmax"), REAL, shape=_arg_shape, host_args={"axis": "dimension"})
op("ArgMin", _arg("argmin"), REAL, shape=_arg_shape, host_args={"axis": "dimension"})


@public("argmax", "math.argmax")
def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002 (TensorFlow's name)
    x = as_tensor(input)
    axis = int(host_arg(0 if axis is None else axis))
    return execute("ArgMax", (x,), {"axis": axis, "output_type": dtypes.as_dtype(output_type).name}, name=name)


@public("argmin", "math.argmin")
def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002 (TensorFlow's name)
    x = as_tensor(input)
    axis = int(host_arg(0 if axis is None else axis))
    return execute("ArgMin", (x,), {"axis": axis, "output_type": dtypes.as_dtype(output_type).name}, name=name)


def _cumulative(accumulate, first):
    """A cumulative kernel: ``accumulate(xp, x, axis)``; ``first``: what an exclusive one starts from."""
    def kernel(xp, x, axis=0, exclusive=False, reverse=False):
        if reverse:
            x = xp.flip(x, axis=axis)
        out = accumulate(xp, x, axis)
        if exclusive:
            start = xp.full_like(xp.take(out, [0], axis=axis), first)
            out = xp.concatenate([start, xp.take(out, list(range(out.shape[axis] - 1)), axis=axis)], axis=axis)
        return xp.flip(out, axis=axis) if reverse else out
    return kernel


op("Cumsum", _cumulative(lambda xp, x, axis: xp.cumsum(x, axis=axis, dtype=x.dtype), 0), NUMERIC,
   shape=shapes.same, host_args={"axis": "axis"})
op("Cumprod", _cumulative(lambda xp, x, axis: xp.cumprod(x, axis=axis, dtype=x.dtype), 1), NUMERIC,
   shape=shapes.same, host_args={"axis": "axis"})
def _logaddexp_accumulate(xp, x, axis):
    """On the host: CuPy's ``logaddexp`` has no ``accumulate`` (its ufuncs scan only add and multiply)."""
    return xp.asarray(np.logaddexp.accumulate(on_host(xp, x), axis=axis))


op("CumulativeLogsumexp", _cumulative(_logaddexp_accumulate, -np.inf),
   dtypes.FLOATS, shape=shapes.same, host_args={"axis": "axis"})


@public("math.cumulative_logsumexp")
def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    x = as_tensor(x)
    return execute("CumulativeLogsumexp", (x,), {"axis": int(host_arg(axis)), "exclusive": exclusive,
                                                 "reverse": reverse}, name=name)


@public("math.cumsum", "cumsum")
def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    x = as_tensor(x)
    return execute("Cumsum", (x,), {"axis": int(host_arg(axis)), "exclusive": exclusive, "reverse": reverse},
                   name=name)


@public("math.cumprod", "compat.v1.cumprod")
def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    x = as_tensor(x)
    return execute("Cumprod", (x,), {"axis": int(host_arg(axis)), "exclusive": exclusive, "reverse": reverse},
                   name=name)
