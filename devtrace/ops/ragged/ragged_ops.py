"""``tf.ragged.constant``, ``tf.strings.split`` and the basics of ``tf.sparse`` (to_dense,
from_dense, add, reduce_sum, sparse_dense_matmul, reorder); the classes: ``ragged_tensor``,
``sparse_tensor``."""

from __future__ import annotations

import re

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..array import indexing_ops
from ..math import math_ops
from ..declare import as_tensor, gradient, on_host, op, public
from .ragged_tensor import RaggedTensor
from ..sparse import sparse_ops
from ..sparse.sparse_tensor import SparseTensor


def _depth(value) -> int | None:
    """How deep the scalars of a nested list lie (None: only empty lists, which fit any depth)."""
    if not isinstance(value, (list, tuple)):
        return 0
    depths = {d for d in (_depth(v) for v in value) if d is not None}
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    return 1 + depths.pop() if depths else None


@public("ragged.constant")
def ragged_constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """Each of the ``ragged_rank`` outer levels of ``pylist`` becomes a row partition; what is
    below them, one dense tensor (``ragged_rank`` defaults to the scalars' depth minus one)."""
    depth = _depth(pylist) or 1
    if depth == 1 and ragged_rank is None and pylist and not isinstance(pylist[0], (list, tuple)):
        return constant(list(pylist), dtype)  # no nesting to partition: TensorFlow's dense Tensor
    levels = max(depth - 1 - (len(inner_shape) if inner_shape else 0), 1) if ragged_rank is None else ragged_rank
    partitions, flat = [], list(pylist)
    for _ in range(levels):
        partitions.append([len(row) for row in flat])
        flat = [v for row in flat for v in row]
    if flat:
        values = constant(flat, dtype)
    else:
        inner = tuple(inner_shape or ()) if inner_shape or depth - 1 <= levels else (0,) * (depth - 1 - levels)
        values = constant(np.zeros((0,) + inner, (dtypes.as_dtype(dtype) if dtype else dtypes.float32).np), dtype)
    for lengths in reversed(partitions):
        values = RaggedTensor.from_row_lengths(values, lengths)
    return values


def _whitespace_split(v: bytes, maxsplit: int) -> list:
    """TensorFlow's whitespace split with a ``maxsplit``: once ``maxsplit`` tokens are out, the rest
    (its leading whitespace dropped) is one more token, even when empty (``b"abc"``, 1: ``[b"abc", b""]``)."""
    out, rest = [], v.lstrip()
    while rest:
        token, rest = re.match(rb"(\S+)\s*(.*)", rest, re.S).groups()
        out.append(token)
        if len(out) == maxsplit:
            out.append(rest)
            break
    return out


@public("strings.split")
def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002 (TensorFlow's name)
    x = as_tensor(input) if not isinstance(input, Tensor) else input
    text = x.numpy()

    def parts(v):
        if sep is None and maxsplit > 0:
            return _whitespace_split(v, maxsplit)
        return v.split(None if sep is None else sep.encode(), maxsplit) if sep is not None or maxsplit >= 0 else v.split()
    if np.ndim(text) == 0:
        return constant(np.array(parts(text), dtype=object), dtypes.string)
    rows = [parts(v) for v in text.reshape(-1)]
    return RaggedTensor.from_row_lengths(constant(np.array([p for r in rows for p in r], dtype=object), dtypes.string),
                                         [len(r) for r in rows])


def _sparse_to_dense(xp, indices, shape, values, default, validate_indices=True):
    dims = on_host(xp, shape).reshape(-1)
    index = on_host(xp, indices).reshape(-1, max(len(dims), 1))
    for k, at in enumerate(index):
        text = f"indices[{k}] = [{','.join(map(str, at))}]"
        if validate_indices and ((at < 0) | (at >= dims)).any():
            raise ValueError(f"{text} is out of bounds: need 0 <= index < [{','.join(map(str, dims))}]")
        if validate_indices and k and tuple(at) <= tuple(index[k - 1]):
            raise ValueError(f"{text} is repeated" if tuple(at) == tuple(index[k - 1]) else
                             f"{text} is out of order. Many sparse ops require sorted indices.\n    Use "
                             "`tf.sparse.reorder` to create a correctly ordered copy.\n\n")
    out = xp.full(tuple(int(d) for d in dims), default, dtype=values.dtype)
    out[tuple(xp.asarray(index.T))] = values
    return out


op("SparseToDense", _sparse_to_dense, {CPU: ALL_TYPES, GPU: DEVICE_SAFE}, mixed_dtypes=True)  # no string GPU kernel


@gradient("SparseToDense")
def _sparse_to_dense_grad(op, grad):
    """The values' gradient is read at their indices, the default value's is the rest's sum (TensorFlow's)."""
    values_grad = indexing_ops.gather_nd(grad, op.inputs[0])
    return None, None, values_grad, math_ops.subtract(math_ops.reduce_sum(grad), math_ops.reduce_sum(values_grad))


def _dense(sp: SparseTensor) -> np.ndarray:
    out = np.zeros(sp.dense_shape.numpy(), dtype=sp.values.numpy().dtype)
    for index, value in zip(sp.indices.numpy(), sp.values.numpy()):
        out[tuple(index)] = value
    return out


@public("sparse.to_dense")
def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    dt = sp_input.dtype
    default = default_value if isinstance(default_value, Tensor) else constant(
        (b"" if dt is dtypes.string else 0) if default_value is None else default_value, dt)
    return execute("SparseToDense", (sp_input.indices, sp_input.dense_shape, sp_input.values, default),
                   {"validate_indices": bool(validate_indices)}, name=name, dtype=dt)


@public("sparse.from_dense")
def from_dense(tensor, name=None):
    host = as_tensor(tensor).numpy()
    indices = np.argwhere(host != (b"" if host.dtype == object else 0))  # a string's zero is b"" (TensorFlow's)
    return SparseTensor(indices, host[tuple(indices.T)], host.shape)


@public("sparse.add")
def sparse_add(a, b, threshold=0):
    return from_dense(constant(_dense(a) + _dense(b)))


@public("sparse.reduce_sum")
def sparse_reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    if output_is_sparse:
        return sparse_ops.reduced_sparse(sp_input, axis, keepdims, lambda a, b: a + b)
    return math_ops.reduce_sum(to_dense(sp_input), axis=axis, keepdims=bool(keepdims))


@public("sparse.sparse_dense_matmul")
def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    return math_ops.matmul(to_dense(sp_a), b)


@public("sparse.reorder")
def reorder(sp_input, name=None):
    order = np.lexsort(sp_input.indices.numpy().T[::-1])
    return SparseTensor(sp_input.indices.numpy()[order], sp_input.values.numpy()[order], sp_input.dense_shape.numpy())

