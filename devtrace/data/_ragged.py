"""``tf.data`` elements that are RaggedTensors: held between steps as host arrays (``HostRagged``:
flat values and the nested row splits, outermost first), sliced by ``from_tensor_slices`` (a
slice has one ragged dimension less; with none left it is a dense tensor, as TensorFlow's
``RaggedTensorSpec(..., 0, ...)`` elements are), stacked by ``batch`` (one ragged dimension more),
and made from dense elements of varying shapes by ``ragged_batch``."""

from __future__ import annotations

import numpy as np

from ..ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..runtime import dtypes
from ..runtime.values import constant


class HostRagged:
    __slots__ = ("flat", "splits", "splits_dtype")

    def __init__(self, flat, splits=(), splits_dtype=dtypes.int64):
        self.flat, self.splits = np.asarray(flat), [np.asarray(s, np.int64) for s in splits]
        self.splits_dtype = dtypes.as_dtype(splits_dtype)

    def __len__(self):
        return len(self.splits[0]) - 1 if self.splits else len(self.flat)


def _dtype(array):
    return dtypes.string if array.dtype.kind in "SUO" else dtypes.as_dtype(array.dtype)


def from_ragged(rt: RaggedTensor, splits_dtype=dtypes.int64) -> HostRagged:
    return HostRagged(rt.flat_values.numpy(), [s.numpy() for s in rt.nested_row_splits], splits_dtype)


def from_dense(array, ragged_rank=0, splits_dtype=dtypes.int64) -> HostRagged:
    """A dense element as a ragged one of ``ragged_rank`` (its rows uniform): ``ragged_batch``'s
    ``RaggedTensor.from_tensor(value, ragged_rank)``."""
    array = np.asarray(array)
    splits = [np.arange(int(np.prod(array.shape[:k + 1])) + 1, dtype=np.int64) * array.shape[k + 1]
              for k in range(ragged_rank)]
    return HostRagged(array.reshape((-1,) + array.shape[ragged_rank + 1:]) if ragged_rank else array, splits,
                      splits_dtype)


def to_value(host: HostRagged):
    """The tensor a program sees: a RaggedTensor, or a dense tensor when no dimension is ragged."""
    flat = constant(host.flat, _dtype(host.flat))
    return RaggedTensor.from_nested_row_splits(flat, host.splits) if host.splits else flat


def to_numpy(host: HostRagged):
    """``as_numpy_iterator``'s value: TensorFlow's ``RaggedTensor.numpy()`` (rows as arrays)."""
    return to_value(host).numpy()


def spec(host: HostRagged, batch=None) -> RaggedTensorSpec:
    shape = [len(host)] + [None] * len(host.splits) + list(host.flat.shape[1:]) if host.splits else list(
        host.flat.shape)
    if batch is not None:
        shape = [batch] + shape[1:]
    return RaggedTensorSpec(shape, _dtype(host.flat), len(host.splits), host.splits_dtype)


def batched(s: RaggedTensorSpec, size) -> RaggedTensorSpec:
    return RaggedTensorSpec([size] + list(s.shape), s.dtype, s.ragged_rank + 1, s.row_splits_dtype)


def unbatched(s: RaggedTensorSpec) -> RaggedTensorSpec:
    return RaggedTensorSpec(list(s.shape)[1:], s.dtype, max(s.ragged_rank - 1, 0), s.row_splits_dtype)


def row(host: HostRagged, i: int) -> HostRagged:
    """Element ``i`` of the outermost dimension."""
    if not host.splits:
        return HostRagged(host.flat[i], (), host.splits_dtype)
    lo, hi, inner = int(host.splits[0][i]), int(host.splits[0][i + 1]), []
    for splits in host.splits[1:]:
        inner.append(splits[lo:hi + 1] - splits[lo])
        lo, hi = int(splits[lo]), int(splits[hi])
    return HostRagged(host.flat[lo:hi], inner, host.splits_dtype)


def stack(items) -> HostRagged:
    """Elements of one ragged rank as one ragged tensor with a new outer ragged dimension."""
    items = [item if isinstance(item, HostRagged) else from_dense(item) for item in items]
    outer = np.concatenate([[0], np.cumsum([len(item) for item in items])]).astype(np.int64)
    levels = []
    for k in range(len(items[0].splits)):
        parts, offset = [np.zeros(1, np.int64)], 0
        for item in items:
            own = item.splits[k]
            parts.append(own[1:] + offset)
            offset += int(own[-1])
        levels.append(np.concatenate(parts))
    flat = np.concatenate([item.flat for item in items]) if items else np.zeros((0,))
    return HostRagged(flat, [outer] + levels, items[0].splits_dtype)
