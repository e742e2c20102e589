"""``tf.sparse`` beyond the basics in ``ragged_ops``: concat, slice, transpose, map_values,
reduce_max, and a SparseTensor's product with a scalar or a dense tensor (TensorFlow's
``SparseDenseCwiseMul``: a SparseTensor again). Host-side, as ``ragged_ops``' sparse helpers."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.tensor_shape import TensorShape
from ...runtime.values import constant
from ..declare import API, DISPATCH, as_tensor, public
from .sparse_tensor import SparseTensor


def _parts(sp: SparseTensor):
    return sp.indices.numpy().reshape(-1, len(sp.dense_shape.numpy())), sp.values.numpy(), sp.dense_shape.numpy()


def _ordered(indices, values, shape) -> SparseTensor:
    """A SparseTensor with its entries in row-major order (TensorFlow's canonical order)."""
    order = np.lexsort(indices.T[::-1]) if len(indices) else np.arange(0)
    return SparseTensor(indices[order].reshape(-1, len(shape)), values[order], shape)


@public("sparse.concat")
def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None, concat_dim=None):
    parts = [_parts(sp) for sp in sp_inputs]
    axis = int(axis) % len(parts[0][2])
    offset, indices = 0, []
    for index, _, shape in parts:
        moved = index.copy()
        moved[:, axis] += offset
        indices.append(moved)
        offset += int(shape[axis])
    shape = parts[0][2].copy()
    if expand_nonconcat_dims:
        shape = np.max([p[2] for p in parts], axis=0)
    shape[axis] = offset
    return _ordered(np.concatenate(indices), np.concatenate([p[1] for p in parts]), shape)


@public("sparse.slice")
def sparse_slice(sp_input, start, size, name=None):
    indices, values, shape = _parts(sp_input)
    start, size = np.asarray(start, np.int64), np.asarray(size, np.int64)
    end = np.minimum(start + size, shape)
    inside = np.all((indices >= start) & (indices < end), axis=1) if len(indices) else np.zeros(0, bool)
    return SparseTensor((indices[inside] - start).reshape(-1, len(shape)), values[inside],
                        np.maximum(end - start, 0))


@public("sparse.transpose")
def transpose(sp_input, perm=None, name=None):
    indices, values, shape = _parts(sp_input)
    perm = np.arange(len(shape))[::-1] if perm is None else np.asarray(perm)
    return _ordered(indices[:, perm], values, shape[perm])


@public("sparse.map_values")
def map_values(op, *args, **kwargs):
    """``op`` on the values of the SparseTensor arguments (all of one sparsity pattern)."""
    def value(arg):
        return arg.values if isinstance(arg, SparseTensor) else arg
    pattern = next(a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor))
    out = op(*[value(a) for a in args], **{k: value(v) for k, v in kwargs.items()})
    return SparseTensor(pattern.indices, out, pattern.dense_shape)


def reduced_sparse(sp_input, axis, keepdims, combine) -> SparseTensor:
    """``output_is_sparse=True`` (TensorFlow's SparseReduceSumSparse / SparseReduceMaxSparse): a value
    for each group over ``axis`` that stores one, the groups in row-major order."""
    indices, values, shape = _parts(sp_input)
    axes = sorted({int(a) % len(shape) for a in np.atleast_1d(range(len(shape)) if axis is None else axis)})
    kept = [d for d in range(len(shape)) if d not in axes]
    groups: dict = {}
    for index, v in zip(indices, values):
        key = tuple(int(i) for i in index[kept])
        groups[key] = combine(groups[key], v) if key in groups else v
    keys = sorted(groups)
    out_shape = [1 if d in axes else int(shape[d]) for d in range(len(shape))] if keepdims else \
        [int(shape[d]) for d in kept]
    out_indices = np.zeros((len(keys), len(out_shape)), np.int64)
    for row, key in enumerate(keys):
        out_indices[row, [kept.index(d) if not keepdims else d for d in kept]] = key
    return SparseTensor(out_indices, np.array([groups[k] for k in keys], values.dtype), out_shape)


@public("sparse.reduce_max")
def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The largest stored value (implicit zeros are not values); over ``axis``, per group, 0 where a
    group stores nothing (TensorFlow's SparseReduceMax)."""
    if output_is_sparse:
        return reduced_sparse(sp_input, axis, keepdims, max)
    indices, values, shape = _parts(sp_input)
    if axis is None:
        out = values.max()
        return constant(out.reshape((1,) * len(shape)) if keepdims else out)
    axes = sorted({int(a) % len(shape) for a in np.atleast_1d(axis)})
    kept = [d for d in range(len(shape)) if d not in axes]
    groups: dict = {}
    for index, v in zip(indices, values):
        key = tuple(index[kept])
        groups[key] = max(groups.get(key, v), v)
    out = np.zeros([int(shape[d]) for d in kept], values.dtype)
    for key, v in groups.items():
        out[key] = v
    return constant(out.reshape([1 if d in axes else int(shape[d]) for d in range(len(shape))]) if keepdims else out)


def _times(sp: SparseTensor, other) -> SparseTensor:
    """SparseDenseCwiseMul: the dense side broadcast to the dense shape, read at the stored indices."""
    indices, values, shape = _parts(sp)
    dense = np.broadcast_to(as_tensor(other).numpy(), tuple(int(d) for d in shape))
    return SparseTensor(sp.indices, values * dense[tuple(indices.T)], shape)


SparseTensor.__mul__ = SparseTensor.__rmul__ = _times


@public("SparseTensorSpec", "sparse.SparseTensorSpec")
class SparseTensorSpec:
    """The type of a SparseTensor: its dense shape (dimensions may be unknown) and dtype."""

    value_type = SparseTensor

    def __init__(self, shape=None, dtype=dtypes.float32):
        self.shape, self.dtype = TensorShape(shape), dtypes.as_dtype(dtype)

    def __eq__(self, other):
        return isinstance(other, SparseTensorSpec) and (self.shape, self.dtype) == (other.shape, other.dtype)

    __hash__ = object.__hash__

    def __repr__(self):
        return f"SparseTensorSpec({self.shape!r}, {self.dtype!r})"


DISPATCH["cast", SparseTensor] = lambda sp, dtype, name=None: SparseTensor(sp.indices, API["cast"](sp.values, dtype, name),
                                                                            sp.dense_shape)
