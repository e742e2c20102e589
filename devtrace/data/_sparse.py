"""``tf.data`` elements that are SparseTensors: held between steps as host arrays (``HostSparse``:
indices, values, dense shape), sliced by ``from_tensor_slices``, stacked by ``batch`` (the batch
position becomes the first index column), split again by ``unbatch``."""

from __future__ import annotations

import numpy as np

from ..ops.sparse.sparse_tensor import SparseTensor
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..runtime import dtypes


class HostSparse:
    __slots__ = ("indices", "values", "shape")

    def __init__(self, indices, values, shape):
        self.indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
        self.values, self.shape = np.asarray(values), np.asarray(shape, np.int64)

    def __len__(self):
        return int(self.shape[0])


def from_sparse(sp: SparseTensor) -> HostSparse:
    return HostSparse(sp.indices.numpy(), sp.values.numpy(), sp.dense_shape.numpy())


def to_sparse(host: HostSparse) -> SparseTensor:
    return SparseTensor(host.indices, host.values, host.shape)


def spec(host: HostSparse, batch=None) -> SparseTensorSpec:
    dtype = dtypes.string if host.values.dtype.kind in "SUO" else dtypes.as_dtype(host.values.dtype)
    shape = [int(d) for d in host.shape]
    return SparseTensorSpec(shape if batch is None else [batch] + shape[1:], dtype)


def row(host: HostSparse, i: int) -> HostSparse:
    mine = host.indices[:, 0] == i
    return HostSparse(host.indices[mine, 1:], host.values[mine], host.shape[1:])


def stack(items) -> HostSparse:
    """SparseTensors of one rank as one, with a new first dimension (dense shapes: the largest)."""
    indices = [np.concatenate([np.full((len(h.indices), 1), k, np.int64), h.indices], axis=1)
               for k, h in enumerate(items)]
    shape = np.concatenate([[len(items)], np.max([h.shape for h in items], axis=0)])
    return HostSparse(np.concatenate(indices), np.concatenate([h.values for h in items]), shape)
