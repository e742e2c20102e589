"""Samples: shapes, joins and splits, indexing, scatters, padding, sorting, segments."""

import numpy as np

import devtrace as tf

from . import Sample
from .math import I, J, X, t

V = np.array([3.0, 1.0, 2.0, 1.0, 5.0, 3.0], np.float32)
SEG = np.array([0, 0, 1, 1, 1, 3], np.int32)


def _seg(reduce, ids, n, init):
    out = np.full(n, init, np.float32)
    for v, s in zip(V, ids):
        out[s] = reduce(out[s], v)
    return out


def _strided_slice_grad(x):
    """A strided slice's gradient in a function graph: StridedSliceGrad (ones where the slice read)."""
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x[1:, ::2])
        return tape.gradient(y, x)
    return grad(x)


SHAPES = [
    Sample("_EagerConst", lambda: tf.constant(X), X),
    Sample("Reshape", lambda: tf.reshape(t(X), [3, -1]), X.reshape(3, 2)),
    Sample("Fill", lambda: tf.fill([2, 3], 7), np.full((2, 3), 7, np.int32)),
    Sample("Fill", lambda: tf.zeros([2, 2]), np.zeros((2, 2), np.float32), id="zeros"),
    Sample("Range", lambda: tf.range(1, 10, 3), np.arange(1, 10, 3, dtype=np.int32)),
    Sample("Range", lambda: tf.range(0.5, 2.0, 0.5), np.arange(0.5, 2.0, 0.5, dtype=np.float32), id="float32"),
    Sample("LinSpace", lambda: tf.linspace(0.0, 1.0, 5), np.linspace(0, 1, 5, dtype=np.float32)),
    Sample("Transpose", lambda: tf.transpose(t(X)), X.T),
    Sample("ConcatV2", lambda: tf.concat([t(X), t(X)], axis=1), np.concatenate([X, X], 1)),
    Sample("Pack", lambda: tf.stack([t(I), t(J)], axis=1), np.stack([I, J], 1)),
    Sample("ExpandDims", lambda: tf.expand_dims(t(X), 1), X[:, None]),
    Sample("Squeeze", lambda: tf.squeeze(t(X[None]), [0]), X),
    Sample("Shape", lambda: tf.shape(t(X)), np.array([2, 3], np.int32)),
    Sample("ShapeN", lambda: tf.shape_n([t(X), t(V)]), [np.array([2, 3], np.int32), np.array([6], np.int32)]),
    Sample("ZerosLike", lambda: tf.zeros_like(t(X)), np.zeros_like(X)),
    Sample("OnesLike", lambda: tf.ones_like(t(I)), np.ones_like(I)),
    Sample("SelectV2", lambda: tf.where(t(X) > 0, t(X), 0.0), np.where(X > 0, X, 0)),
    Sample("Where", lambda: tf.where(t(X) > 0), np.argwhere(X > 0)),
    Sample("Tile", lambda: tf.tile(t(X), [2, 1]), np.tile(X, [2, 1])),
    Sample("ReverseV2", lambda: tf.reverse(t(X), [1]), X[:, ::-1]),
    Sample("BroadcastTo", lambda: tf.broadcast_to(t(V[:3]), [2, 3]), np.broadcast_to(V[:3], (2, 3))),
    Sample("BroadcastArgs", lambda: tf.broadcast_dynamic_shape(t([2, 1]), t([3])), np.array([2, 3], np.int32)),
    Sample("OneHot", lambda: tf.one_hot(t([0, 2]), 3), np.eye(3, dtype=np.float32)[[0, 2]]),
    Sample("EnsureShape", lambda: tf.ensure_shape(t(X), [2, None]), X),
    Sample("Einsum", lambda: tf.einsum("ij,kj->ik", t(X), t(X)), X @ X.T),
    Sample("InvertPermutation", lambda: tf.math.invert_permutation(t([2, 0, 1])), np.array([1, 2, 0], np.int32)),
    Sample("UnravelIndex", lambda: tf.unravel_index(t([1, 5]), t([2, 3])), np.array([[0, 1], [1, 2]], np.int32), "CPU"),
]

INDEXING = [
    Sample("StridedSlice", lambda: t(X)[1:, ::2], X[1:, ::2]),
    Sample("StridedSlice", lambda: t(X)[:, -1], X[:, -1], id="int"),
    Sample("StridedSliceGrad", lambda: _strided_slice_grad(t(X)), np.array([[0, 0, 0], [1, 0, 1]], np.float32)),
    Sample("Slice", lambda: tf.slice(t(X), [0, 1], [2, 2]), X[:, 1:3]),
    Sample("GatherV2", lambda: tf.gather(t(X), [1, 0, 1]), X[[1, 0, 1]]),
    Sample("GatherV2", lambda: tf.gather(t(X), t([2, 0]), axis=1), X[:, [2, 0]], id="axis1"),
    Sample("GatherNd", lambda: tf.gather_nd(t(X), [[0, 1], [1, 2]]), X[[0, 1], [1, 2]]),
    Sample("ScatterNd", lambda: tf.scatter_nd(t([[1], [3]]), t(V[:2]), [5]), np.array([0, 3, 0, 1, 0], np.float32)),
    Sample("TensorScatterUpdate", lambda: tf.tensor_scatter_nd_update(t(V), t([[0], [5]]), t(V[:2] * 10)),
           np.array([30, 1, 2, 1, 5, 10], np.float32)),
    Sample("TensorScatterAdd", lambda: tf.tensor_scatter_nd_add(t(V), t([[0], [0]]), t(V[:2])),
           np.array([7, 1, 2, 1, 5, 3], np.float32)),
    Sample("TensorScatterSub", lambda: tf.tensor_scatter_nd_sub(t(I), t([[1]]), t(J[:1])),
           np.array([[1, 2, 3], [-6, 2, -8]], np.int32)),
    Sample("TensorScatterMin", lambda: tf.tensor_scatter_nd_min(t(V), t([[0], [1]]), t([0.0, 9.0])),
           np.array([0, 1, 2, 1, 5, 3], np.float32)),
    Sample("TensorScatterMax", lambda: tf.tensor_scatter_nd_max(t(V), t([[0], [1]]), t([0.0, 9.0])),
           np.array([3, 9, 2, 1, 5, 3], np.float32)),
]

MANIP = [
    Sample("Pad", lambda: tf.pad(t(X), [[1, 0], [0, 2]]), np.pad(X, [(1, 0), (0, 2)])),
    Sample("PadV2", lambda: tf.pad(t(X), [[1, 0], [0, 1]], constant_values=9.0),
           np.pad(X, [(1, 0), (0, 1)], constant_values=9)),
    Sample("MirrorPad", lambda: tf.pad(t(X), [[1, 1], [2, 0]], mode="REFLECT"), np.pad(X, [(1, 1), (2, 0)], "reflect")),
    Sample("Roll", lambda: tf.roll(t(X), 1, 1), np.roll(X, 1, 1)),
    Sample("ReverseSequence", lambda: tf.reverse_sequence(t(I), [2, 3], seq_axis=1, batch_axis=0),
           np.array([[2, 1, 3], [-6, 5, -4]], np.int32)),
    Sample("LowerBound", lambda: tf.searchsorted(t([1.0, 2.0, 3.0]), t([2.0, 0.5, 9.0])), np.array([1, 0, 3], np.int32)),
    Sample("UpperBound", lambda: tf.searchsorted(t([1.0, 2.0, 3.0]), t([2.0, 0.5]), side="right"),
           np.array([2, 0], np.int32)),
    Sample("Unpack", lambda: tf.unstack(t(X), axis=1), list(X.T)),
    Sample("Split", lambda: tf.split(t(X), 3, axis=1), np.split(X, 3, 1)),
    Sample("SplitV", lambda: tf.split(t(X), [1, 2], axis=1), np.split(X, [1], 1)),
    Sample("Unique", lambda: tf.unique(t(V)), [np.array([3, 1, 2, 5], np.float32), np.array([0, 1, 2, 1, 3, 0], np.int32)]),
    Sample("UniqueWithCounts", lambda: tf.unique_with_counts(t(V)),
           [np.array([3, 1, 2, 5], np.float32), np.array([0, 1, 2, 1, 3, 0], np.int32), np.array([2, 2, 1, 1], np.int32)]),
    Sample("TopKV2", lambda: tf.math.top_k(t(X), k=2), [np.sort(X, 1)[:, ::-1][:, :2], np.argsort(-X, 1)[:, :2].astype(np.int32)]),
    Sample("InTopKV2", lambda: tf.math.in_top_k(t([2, 0]), t(X), 1), np.array([True, False])),
    Sample("DenseBincount", lambda: tf.math.bincount(t([1, 1, 3])), np.array([0, 2, 0, 1], np.int32)),
]

SEGMENTS = [
    Sample("SegmentSum", lambda: tf.math.segment_sum(t(V), t(SEG)), _seg(np.add, SEG, 4, 0)),
    Sample("SegmentMean", lambda: tf.math.segment_mean(t(V), t(SEG)), np.array([2, 8 / 3, 0, 3], np.float32)),
    Sample("SegmentProd", lambda: tf.math.segment_prod(t(V), t(SEG)), _seg(np.multiply, SEG, 4, 1)),
    Sample("SegmentMax", lambda: tf.math.segment_max(t(V), t(SEG)), np.array([3, 5, 0, 3], np.float32)),
    Sample("SegmentMin", lambda: tf.math.segment_min(t(V), t(SEG)), np.array([1, 1, 0, 3], np.float32)),
    Sample("UnsortedSegmentSum", lambda: tf.math.unsorted_segment_sum(t(V), t(SEG[::-1]), 4),
           _seg(np.add, SEG[::-1], 4, 0)),
    Sample("UnsortedSegmentProd", lambda: tf.math.unsorted_segment_prod(t(V), t(SEG[::-1]), 4),
           _seg(np.multiply, SEG[::-1], 4, 1)),
    Sample("UnsortedSegmentMax", lambda: tf.math.unsorted_segment_max(t(V), t(SEG[::-1]), 4),
           _seg(np.maximum, SEG[::-1], 4, np.finfo(np.float32).min)),
    Sample("UnsortedSegmentMin", lambda: tf.math.unsorted_segment_min(t(V), t(SEG[::-1]), 4),
           _seg(np.minimum, SEG[::-1], 4, np.finfo(np.float32).max)),
]

SAMPLES = SHAPES + INDEXING + MANIP + SEGMENTS
