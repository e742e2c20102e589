"""``tf.experimental.DynamicRaggedShape`` (what ``tf.shape`` of a RaggedTensor returns: its row
partitions and the shape of its flat values) and ``tf.experimental.RowPartition``; ``tf.reshape``,
``tf.zeros``, ``tf.ones`` and ``tf.fill`` given one make a RaggedTensor of that shape."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.values import constant
from ..declare import API, as_tensor, public
from .ragged_dispatch import install
from .ragged_tensor import RaggedTensor


@public("experimental.RowPartition")
class RowPartition:
    """How one ragged dimension splits the values into rows (its int64 ``row_splits``)."""

    def __init__(self, row_splits):
        self._splits = np.asarray(row_splits, np.int64).reshape(-1)

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        return cls(row_splits)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        return cls(np.concatenate([[0], np.cumsum(np.asarray(row_lengths, np.int64))]))

    def row_splits(self):
        return constant(self._splits, dtypes.int64)

    def row_lengths(self):
        return constant(np.diff(self._splits), dtypes.int64)

    def nrows(self):
        return constant(len(self._splits) - 1, dtypes.int64)

    def nvals(self):
        return constant(int(self._splits[-1]), dtypes.int64)

    def __repr__(self):
        return f"tf.RowPartition(row_splits={np.array2string(self._splits)})"


@public("experimental.DynamicRaggedShape")
class DynamicRaggedShape:
    """Row partitions (outermost first), then the flat values' shape (``inner_shape``)."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=True, static_inner_shape=None):
        self._partitions = list(row_partitions)
        self._inner = [int(d) for d in np.asarray(as_tensor(inner_shape).numpy()).reshape(-1)]
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.int64

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """``[4, (2, 1, 0, 8), 12]``: 4 rows, of those lengths, each value 12 long."""
        partitions, inner = [], [int(lengths[0])] if lengths else []
        for dim in lengths[1:]:
            if isinstance(dim, (tuple, list)):
                partitions.append(RowPartition.from_row_lengths(dim))
                inner = [int(np.sum(dim))]
            else:
                inner.append(int(dim))
        return cls(partitions, inner, dtype)

    @classmethod
    def from_tensor(cls, t, dtype=None):
        if isinstance(t, RaggedTensor):
            return cls([RowPartition(s.numpy()) for s in t.nested_row_splits], list(t.flat_values.shape), dtype)
        return cls([], list(as_tensor(t).shape), dtype)

    num_row_partitions = property(lambda self: len(self._partitions))
    row_partitions = property(lambda self: tuple(self._partitions))
    dtype = property(lambda self: self._dtype)
    rank = property(lambda self: len(self._partitions) + len(self._inner))
    inner_shape = property(lambda self: constant(np.asarray(self._inner, self._dtype.np), self._dtype))

    def _lengths(self) -> list:
        if not self._partitions:
            return list(self._inner)
        ragged = [tuple(int(n) for n in np.diff(p._splits)) for p in self._partitions]
        return [len(self._partitions[0]._splits) - 1] + ragged + self._inner[1:]

    def __getitem__(self, key):
        lengths = self._lengths()
        if isinstance(key, slice):
            return DynamicRaggedShape.from_lengths(lengths[key], dtype=self._dtype)
        if isinstance(lengths[key], tuple):
            raise ValueError(f"Index {key} is not uniform")
        return constant(lengths[key], self._dtype)

    def __repr__(self):
        return f"<DynamicRaggedShape lengths={self._lengths()} num_row_partitions={len(self._partitions)}>"

    def _ragged(self, flat_values) -> RaggedTensor:
        """``flat_values`` (of the inner shape) partitioned as this shape says."""
        out = flat_values
        for partition in reversed(self._partitions):
            out = RaggedTensor(out, partition._splits)
        return out


def _shape(input, out_type=dtypes.int32, name=None):  # noqa: A002 (TensorFlow's name)
    return DynamicRaggedShape.from_tensor(input, out_type)


def _reshape(tensor, shape, name=None):
    return shape._ragged(API["reshape"](tensor, shape._inner))


def _filled(fill):
    def fn(shape, dtype=dtypes.float32, name=None):
        return shape._ragged(fill(shape._inner, dtype))
    return fn


def _at(position, kind):
    return lambda args: len(args) > position and isinstance(args[position], kind)


install("shape", _shape, _at(0, RaggedTensor))
install("reshape", _reshape, _at(1, DynamicRaggedShape))
install("zeros", _filled(API["zeros"]), _at(0, DynamicRaggedShape))
install("ones", _filled(API["ones"]), _at(0, DynamicRaggedShape))
install("fill", lambda dims, value, name=None: dims._ragged(API["fill"](dims._inner, value)), _at(0, DynamicRaggedShape))
