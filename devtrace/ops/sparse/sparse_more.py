"""More of ``tf.sparse``: eye, split, expand_dims, bincount, softmax, minimum/maximum,
sampled_addmm, and SparseTensor's ``with_values``/``set_shape``. Host-side on the SparseTensor's
index arrays, as ``sparse_ops``; the dense arithmetic (softmax's exponentials, sampled_addmm's
product) runs as ops."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.tensor_shape import TensorShape
from ...runtime.values import constant
from ..declare import API, as_tensor, public
from .sparse_ops import _ordered, _parts
from .sparse_tensor import SparseTensor


def _values(sp, array) -> SparseTensor:
    return SparseTensor(sp.indices, constant(array, sp.dtype), sp.dense_shape)


@public("sparse.eye")
def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    rows = int(as_tensor(num_rows).numpy())
    cols = rows if num_columns is None else int(as_tensor(num_columns).numpy())
    n = min(rows, cols)
    diagonal = np.repeat(np.arange(n, dtype=np.int64)[:, None], 2, axis=1)
    dt = dtypes.as_dtype(dtype)
    return SparseTensor(diagonal, constant(np.ones(n, dt.np), dt), [rows, cols])


@public("sparse.split")
def split(sp_input=None, num_split=None, axis=None, name=None, keyword_required=None):
    indices, values, shape = _parts(sp_input)
    axis = int(axis) % len(shape)
    dim, parts = int(shape[axis]), int(num_split)
    sizes = [dim // parts + (1 if k < dim % parts else 0) for k in range(parts)]
    out, start = [], 0
    for size in sizes:
        inside = (indices[:, axis] >= start) & (indices[:, axis] < start + size)
        moved = indices[inside].copy()
        moved[:, axis] -= start
        part_shape = shape.copy()
        part_shape[axis] = size
        out.append(SparseTensor(moved.reshape(-1, len(shape)), constant(values[inside], sp_input.dtype), part_shape))
        start += size
    return out


@public("sparse.expand_dims")
def expand_dims(sp_input, axis=None, name=None):
    indices, values, shape = _parts(sp_input)
    axis = -1 if axis is None else int(axis)
    axis = axis if axis >= 0 else len(shape) + 1 + axis
    return SparseTensor(np.insert(indices, axis, 0, axis=1), sp_input.values, np.insert(shape, axis, 1))


@public("sparse.bincount")
def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """Counts per (row, value) as a SparseTensor, in TensorFlow's order; ``axis=-1`` counts each row."""
    if isinstance(values, SparseTensor):
        indices, data, shape = _parts(values)
        rows = indices[:, 0] if axis == -1 and len(shape) > 1 else np.zeros(len(data), np.int64)
        out_dtype = values.dtype
        w = None if weights is None else (_parts(weights)[1] if isinstance(weights, SparseTensor)
                                          else as_tensor(weights).numpy().reshape(-1))
        nrows = int(shape[0]) if axis == -1 and len(shape) > 1 else None
    else:
        x = as_tensor(values)
        data = x.numpy()
        out_dtype = x.dtype
        rows = (np.repeat(np.arange(data.shape[0]), data.shape[-1]) if axis == -1 and data.ndim > 1
                else np.zeros(data.size, np.int64))
        nrows = data.shape[0] if axis == -1 and data.ndim > 1 else None
        data = data.reshape(-1)
        w = None if weights is None else np.asarray(as_tensor(weights, ).numpy(), np.float32).reshape(-1)
    if w is not None:
        out_dtype = dtypes.float32 if as_tensor(weights).dtype in (dtypes.float32, dtypes.float64) else out_dtype
    keep = data >= 0 if maxlength is None else (data >= 0) & (data < int(maxlength))
    counts: dict = {}
    for r, v, weight in zip(rows[keep], data[keep], (w[keep] if w is not None else np.ones(int(keep.sum())))):
        key = (int(r), int(v))
        counts[key] = 1 if binary_output else counts.get(key, 0) + weight
    keys = sorted(counts)
    size = max((k[1] for k in keys), default=-1) + 1
    if minlength is not None:
        size = max(size, int(minlength))
    if maxlength is not None:
        size = min(size, int(maxlength))
    vals = np.array([counts[k] for k in keys], out_dtype.np)
    if nrows is None:
        return SparseTensor(np.array([[k[1]] for k in keys], np.int64).reshape(-1, 1), constant(vals, out_dtype), [size])
    return SparseTensor(np.array(keys, np.int64).reshape(-1, 2), constant(vals, out_dtype), [nrows, size])


@public("sparse.softmax")
def softmax(sp_input, name=None):
    """Softmax over each innermost row's stored values (implicit zeros take no part)."""
    indices, values, shape = _parts(sp_input)
    sp = _ordered(indices, values, shape)
    indices, values = sp.indices.numpy(), sp.values.numpy()
    out = np.zeros_like(values)
    groups: dict = {}
    for k, index in enumerate(indices):
        groups.setdefault(tuple(index[:-1]), []).append(k)
    for members in groups.values():
        v = values[members]
        e = np.exp(v - v.max())
        out[members] = e / e.sum()
    return _values(sp, out)


def _elementwise(a, b, fn) -> SparseTensor:
    ia, va, shape = _parts(a)
    ib, vb, _ = _parts(b)
    merged: dict = {}
    for index, v in zip(map(tuple, ia), va):
        merged[index] = [v, 0]
    for index, v in zip(map(tuple, ib), vb):
        merged.setdefault(index, [0, 0])[1] = v
    keys = sorted(merged)
    vals = np.array([fn(*merged[k]) for k in keys], a.values.numpy().dtype)
    return SparseTensor(np.array(keys, np.int64).reshape(-1, len(shape)), constant(vals, a.dtype), shape)


@public("sparse.maximum")
def maximum(sp_a, sp_b, name=None):
    return _elementwise(sp_a, sp_b, max)


@public("sparse.minimum")
def minimum(sp_a, sp_b, name=None):
    return _elementwise(sp_a, sp_b, min)


@public("sparse.sampled_addmm")
def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0, output_type=dtypes.float32):
    """``beta * values + alpha * (mat1 @ mat2)`` read at ``indices`` (batched over leading dimensions)."""
    indices, values = as_tensor(indices), as_tensor(values)
    product = API["matmul"](mat1, mat2)
    picked = API["gather_nd"](product, indices, batch_dims=len(indices.shape) - 2)
    out = API["add"](API["multiply"](beta, values), API["multiply"](alpha, picked))
    return indices, API["cast"](out, output_type), as_tensor(dense_shape)


def _with_values(self, new_values):
    return SparseTensor(self.indices, as_tensor(new_values), self.dense_shape)


def _set_shape(self, shape):
    if not TensorShape(shape).is_compatible_with(self.shape):
        raise ValueError(f"Shapes {self.shape} and {TensorShape(shape)} are incompatible")


SparseTensor.with_values = _with_values
SparseTensor.set_shape = _set_shape
