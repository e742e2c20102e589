"""``tf.io.serialize_sparse``, ``serialize_many_sparse`` and ``deserialize_many_sparse``: TensorFlow 2.21's
``SerializeSparse``, ``SerializeManySparse`` and ``DeserializeManySparse`` (CPU-only ops): a sparse tensor
as the serialized ``TensorProto``s of its indices, values and dense shape (``SerializeTensor``'s bytes),
one triple for the whole tensor or one per row of a minibatch."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..declare import as_tensor, on_host, op, public
from ..io.io_ops import _parse_tensor, _serialize_tensor
from .sparse_tensor import SparseTensor


def _triple(xp, indices, values, shape, values_dtype):
    return [_serialize_tensor(xp, indices, "int64").item(), _serialize_tensor(xp, values, values_dtype).item(),
            _serialize_tensor(xp, shape, "int64").item()]


def _out_type(out_type):
    if out_type != "string":
        raise NotImplementedError(f"devtrace does not implement tf.io.serialize_sparse's out_type={out_type} yet")


def _serialize_sparse(xp, indices, values, dense_shape, out_type="string", values_dtype="float32"):
    _out_type(out_type)
    parts = [on_host(xp, a) for a in (indices, values, dense_shape)]
    return np.array(_triple(np, *parts, values_dtype), dtype=object)


def _serialize_many_sparse(xp, indices, values, dense_shape, out_type="string", values_dtype="float32"):
    _out_type(out_type)
    indices, values, shape = (on_host(xp, a) for a in (indices, values, dense_shape))
    if shape.size < 2:
        raise ValueError(f"SparseTensor must have rank at least 2 (the minibatch dimension), got rank {shape.size}")
    rows = []
    for b in range(int(shape[0])):
        keep = indices[:, 0] == b
        rows.append(_triple(np, indices[keep][:, 1:], values[keep], shape[1:], values_dtype))
    return np.array(rows, dtype=object).reshape(int(shape[0]), 3)


def _deserialize_many_sparse(xp, serialized, dtype="float32"):
    data = np.asarray(serialized, dtype=object)
    if data.ndim != 2 or data.shape[1] != 3:
        raise ValueError(f"Serialized sparse should be a matrix with 3 columns, got shape {list(data.shape)}")
    indices, values, shapes = [], [], []
    for b, (i, v, s) in enumerate(data.tolist()):
        idx = _parse_tensor(np, np.asarray(i, object), "int64")
        vals = _parse_tensor(np, np.asarray(v, object), dtype)
        shape = _parse_tensor(np, np.asarray(s, object), "int64")
        idx = idx.reshape(len(vals), len(shape))
        indices.append(np.concatenate([np.full((len(vals), 1), b, np.int64), idx], axis=1))
        values.append(vals)
        shapes.append(shape)
    rank = max((len(s) for s in shapes), default=0)
    dense = np.array([len(shapes)] + [max(int(s[d]) for s in shapes) for d in range(rank)], np.int64)
    out_values = np.concatenate(values) if values else np.zeros((0,), dtypes.as_dtype(dtype).np)
    return (np.concatenate(indices) if indices else np.zeros((0, rank + 1), np.int64), out_values, dense)


def _strings(rows):
    def shape(name, shapes, attrs, dtype):
        return dtypes.string, (None, 3) if rows else (3,)
    return shape


op("SerializeSparse", _serialize_sparse, None, devices=(CPU,), mixed_dtypes=True, shape=_strings(False))
op("SerializeManySparse", _serialize_many_sparse, None, devices=(CPU,), mixed_dtypes=True, shape=_strings(True))
op("DeserializeManySparse", _deserialize_many_sparse, None, devices=(CPU,), mixed_dtypes=True, multi=True,
   shape=lambda name, s, attrs, dtype: ([(dtypes.int64, (None, None)), (dtypes.as_dtype(attrs["dtype"]), (None,)),
                                         (dtypes.int64, (None,))], None))


def _sparse_parts(sp_input):
    return as_tensor(sp_input.indices), as_tensor(sp_input.values), as_tensor(sp_input.dense_shape)


@public("io.serialize_sparse")
def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """The three serialized ``TensorProto``s of a sparse tensor: indices, values, dense shape."""
    _out_type(dtypes.as_dtype(out_type).name)
    indices, values, shape = _sparse_parts(sp_input)
    return execute("SerializeSparse", (indices, values, shape), {"out_type": dtypes.as_dtype(out_type).name,
                                                                  "values_dtype": values.dtype.name},
                   name=name, dtype=values.dtype)


@public("io.serialize_many_sparse")
def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """One serialized triple per row of a minibatch (the first dimension)."""
    _out_type(dtypes.as_dtype(out_type).name)
    indices, values, shape = _sparse_parts(sp_input)
    return execute("SerializeManySparse", (indices, values, shape),
                   {"out_type": dtypes.as_dtype(out_type).name, "values_dtype": values.dtype.name}, name=name,
                   dtype=values.dtype)


@public("io.deserialize_many_sparse")
def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """A minibatch's serialized triples back into one sparse tensor, the batch its first dimension."""
    dt = dtypes.as_dtype(dtype)
    indices, values, shape = execute("DeserializeManySparse", (as_tensor(serialized_sparse),), {"dtype": dt.name},
                                     name=name, dtype=dt)
    return SparseTensor(indices, values, shape)
