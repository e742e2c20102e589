"""Segment reductions and counting: ``segment_sum`` … (ids sorted: one output row per id up to the
last), ``unsorted_segment_max`` … (``num_segments`` rows), ``bincount`` (``DenseBincount``)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.dtypes import NUMERIC, REAL
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ...runtime.values import constant
from ..declare import as_tensor, gradient, host_arg, on_host, op, op_scope, public
from ..array.indexing_ops import gather
from ..array import array_ops
from ..array.array_ops import cast, reshape, where, zeros_like
from .. import shapes
from .math_ops import add, divide, greater_equal, maximum, sqrt
from .reduction_ops import reduce_max

_UFUNCS = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum, "mean": np.add}


def _lowest_or_highest(kind, dtype):
    """What an empty segment's max/min holds: the dtype's lowest/highest finite value (TensorFlow's
    ``Eigen::NumTraits::lowest()``/``highest()``: -3.4028235e+38 for float32, not -inf)."""
    limits = dtypes.as_dtype(dtype)
    return limits.min if kind == "max" else limits.max


def _segment_kernel(kind, unsorted):
    """Empty segments hold 0 (a product 1; an unsorted max/min the dtype's extreme, as TensorFlow's)."""
    def kernel(xp, data, ids, num_segments=None):
        values, keys = on_host(xp, data), on_host(xp, ids).astype(np.int64)
        if not unsorted and keys.size and (np.diff(keys.reshape(-1)) < 0).any():
            raise ValueError("segment ids are not increasing")
        rows = int(num_segments) if unsorted else (int(keys.reshape(-1)[-1]) + 1 if keys.size else 0)
        extreme = kind in ("max", "min")
        start = _lowest_or_highest(kind, values.dtype) if extreme else (1 if kind == "prod" else 0)
        out = np.full((rows,) + values.shape[keys.ndim:], start, dtype=values.dtype)
        valid = (keys >= 0) & (keys < rows)
        _UFUNCS[kind].at(out, keys[valid], values[valid])
        counts = np.zeros(rows, np.int64)
        np.add.at(counts, keys[valid], 1)
        counts = counts.reshape((rows,) + (1,) * (out.ndim - 1))
        if kind == "mean":
            out = (out / np.maximum(counts, 1)).astype(values.dtype)
        if extreme and not unsorted:
            out = np.where(counts == 0, np.zeros((), values.dtype), out)
        return xp.asarray(out)
    return kernel


for _kind in ("sum", "prod", "max", "min", "mean"):
    op(f"Segment{_kind.capitalize()}", _segment_kernel(_kind, False), REAL if _kind in ("max", "min") else NUMERIC,
       mixed_dtypes=True)
for _kind in ("sum", "prod", "max", "min"):
    op(f"UnsortedSegment{_kind.capitalize()}", _segment_kernel(_kind, True),
       REAL if _kind in ("max", "min") else NUMERIC, mixed_dtypes=True, host_args={"num_segments": "num_segments"},
       shape=shapes.unsorted_segment)


def _sorted(kind):
    def fn(data, segment_ids, name=None):
        return execute(f"Segment{kind.capitalize()}", (as_tensor(data), as_tensor(segment_ids)), name=name)
    fn.__name__ = f"segment_{kind}"
    return public(f"math.segment_{kind}")(fn)


def _unsorted(kind):
    def fn(data, segment_ids, num_segments, name=None):
        op_type, attrs = f"UnsortedSegment{kind.capitalize()}", {"num_segments": int(host_arg(num_segments))}
        if context().eager:
            return execute(op_type, (as_tensor(data), as_tensor(segment_ids)), attrs, name=name)
        with op_scope(op_type, name) as scope:  # a graph converts the inputs in the op's scope
            return execute(op_type, (as_tensor(data, name="data"), as_tensor(segment_ids, name="segment_ids")),
                           attrs, name=scope)
    fn.__name__ = f"unsorted_segment_{kind}"
    return public(f"math.unsorted_segment_{kind}")(fn)


segment_sum, segment_prod, segment_max, segment_min, segment_mean = map(_sorted, ("sum", "prod", "max", "min", "mean"))
unsorted_segment_sum, unsorted_segment_prod, unsorted_segment_max, unsorted_segment_min = map(
    _unsorted, ("sum", "prod", "max", "min"))


def _segment_counts(data, ids, num_segments):
    """How many elements each segment holds (at least 1), shaped to broadcast against the sums."""
    ones = array_ops.ones(array_ops.shape(ids), data.dtype)
    n = unsorted_segment_sum(ones, ids, num_segments)
    extra = len(data.shape) - len(ids.shape)
    return maximum(array_ops.reshape(n, [int(num_segments)] + [1] * extra), constant(1, data.dtype))


@public("math.unsorted_segment_mean")
def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """TensorFlow's composition: the segment sums over the segment counts."""
    data, ids = as_tensor(data), as_tensor(segment_ids)
    return divide(unsorted_segment_sum(data, ids, num_segments), _segment_counts(data, ids, num_segments))


@public("math.unsorted_segment_sqrt_n")
def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """TensorFlow's composition: the segment sums over the square roots of the segment counts."""
    data, ids = as_tensor(data), as_tensor(segment_ids)
    return divide(unsorted_segment_sum(data, ids, num_segments), sqrt(_segment_counts(data, ids, num_segments)))


@gradient("SegmentSum")
@gradient("UnsortedSegmentSum")
def _segment_sum_grad(op, grad):
    """Each element gets its segment's gradient (a dropped, negative id: zero), as TensorFlow's."""
    ids = op.inputs[1]
    valid = greater_equal(ids, constant(0, ids.dtype))
    picked = gather(grad, maximum(ids, constant(0, ids.dtype)))
    mask = reshape(valid, list(ids.shape) + [1] * (len(picked.shape) - len(ids.shape)))
    return where(mask, picked, zeros_like(picked)), None


def _dense_bincount(xp, values, weights, size=0, binary_output=False):
    """Counts of a 1-D input, or of each row of a 2-D one (``bincount(axis=-1)``)."""
    keys = on_host(xp, values)
    if (keys < 0).any():
        raise ValueError("Input arr must be non-negative!")
    w = on_host(xp, weights)
    rows = keys.reshape(-1, keys.shape[-1] if keys.ndim == 2 else keys.size)
    w = w.reshape(rows.shape) if w.size else w
    out = np.zeros((rows.shape[0], size), dtype=w.dtype)
    for r, row in enumerate(rows):
        keep = row < size
        if binary_output:
            out[r, row[keep]] = 1
        else:
            np.add.at(out[r], row[keep], w[r][keep] if w.size else 1)
    return xp.asarray(out if keys.ndim == 2 else out.reshape(size))


# kernels chosen by the counts' dtype T (the weights'); TensorFlow's GPU kernel counts in int32 or float32
op("DenseBincount", _dense_bincount, {CPU: NUMERIC, GPU: {"int32", "float32"}}, mixed_dtypes=True, host_args=("size",))


@public("math.bincount", "compat.v1.bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """TensorFlow's composition: the size is ``max(arr) + 1`` (bounded by ``minlength``/``maxlength``)."""
    arr = as_tensor(arr)
    if not arr.dtype.is_integer:
        arr = cast(arr, dtypes.int32)
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
    if axis == 0:
        arr = reshape(arr, [-1])
        weights = None if weights is None else reshape(as_tensor(weights), [-1])
    size = add(reduce_max(arr), 1) if arr.shape.num_elements() else None
    size = 0 if size is None else int(size.numpy())
    if minlength is not None:
        size = max(size, int(minlength))
    if maxlength is not None:
        size = min(size, int(maxlength))
    w = as_tensor(weights) if weights is not None else as_tensor(np.zeros(0, dtypes.as_dtype(dtype).np))
    return execute("DenseBincount", (arr, w), {"size": int(host_arg(size, arr.dtype)), "binary_output": binary_output},
                   name=name, dtype=w.dtype)


@public("math.confusion_matrix")
def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """TensorFlow's composition: int64 labels and predictions checked, then ``ScatterNd`` of ones
    (or the weights) at ``[label, prediction]``."""
    from .. import check_ops
    from .reduction_ops import reduce_max
    from ..array.scatter_ops import scatter_nd

    labels, predictions = cast(as_tensor(labels), dtypes.int64), cast(as_tensor(predictions), dtypes.int64)
    check_ops.assert_non_negative(labels, message="`labels` contains negative values")
    check_ops.assert_non_negative(predictions, message="`predictions` contains negative values")
    if num_classes is None:
        num_classes = add(maximum(reduce_max(predictions), reduce_max(labels)), constant(1, dtypes.int64))
    else:
        num_classes = cast(as_tensor(num_classes), dtypes.int64)
        check_ops.assert_less(labels, num_classes, message="`labels` out of bound")
        check_ops.assert_less(predictions, num_classes, message="`predictions` out of bound")
    values = array_ops.ones_like(predictions, dtype) if weights is None else cast(as_tensor(weights), dtype)
    indices = array_ops.stack([labels, predictions], axis=1)
    return scatter_nd(indices, values, cast(array_ops.stack([num_classes, num_classes]), dtypes.int64))
