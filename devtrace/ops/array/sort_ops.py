"""Sorting: ``TopKV2`` (``tf.math.top_k``), ``InTopKV2``, and ``tf.sort`` / ``tf.argsort``, which
TensorFlow builds from ``top_k`` (negating for an ascending order) — so they log the same ops."""

from __future__ import annotations

import collections

import numpy as np

from ...runtime import dtypes
from ...runtime.dtypes import NUMERIC
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.values import constant
from . import array_ops
from ..math import math_ops
from ..declare import (as_tensor, gradient, graph_valued, host_arg, not_differentiable, on_host, op, op_scope, public,
                       with_graph_host_args)

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])
_REAL = NUMERIC - {"complex64", "complex128"}


def _descending_order(x: np.ndarray) -> np.ndarray:
    """Indices that sort the last axis in descending order; ties keep their order, NaN last."""
    n = x.shape[-1]
    key = np.flip(x, -1)
    if key.dtype.kind == "f":
        key = np.where(np.isnan(key), -np.inf, key)
    ascending = np.argsort(key, axis=-1, kind="stable")  # of the reversed row: equal values keep order
    return (n - 1 - np.flip(ascending, -1)).astype(np.int64)


def _top_k(xp, x, k=1, sorted=True, index_type="int32"):  # noqa: A002 (TensorFlow's attr name)
    if x.ndim < 1:
        raise ValueError("input must be >= 1-D, got shape []")
    if x.shape[-1] < k:
        raise ValueError(f"input must have at least k columns. Had {x.shape[-1]}, needed {k}")
    host = on_host(xp, x)
    idx = _descending_order(host)[..., :k]
    values = np.take_along_axis(host, idx, -1)
    return xp.asarray(values), xp.asarray(idx.astype(dtypes.as_dtype(index_type).np))


def _top_k_shape(name, shapes, attrs, dtype):
    shape = shapes[0]
    k = attrs.get("k")
    out = None if shape is None else shape[:-1] + (None if k is None else int(k),)
    return [(dtype, out), (dtypes.as_dtype(attrs.get("index_type", "int32")), out)], None


def _in_top_k(xp, predictions, targets, k=1):
    """As ``in_topk_op.h``: a target out of ``[0, classes)`` or a row with a non-finite prediction
    is not in the top k."""
    host = on_host(xp, predictions)
    targets = on_host(xp, targets).astype(np.int64)
    valid = (targets >= 0) & (targets < host.shape[1])
    target_values = host[np.arange(host.shape[0]), np.where(valid, targets, 0)]
    larger = (host > target_values[:, None]).sum(axis=1)
    return xp.asarray((larger < k) & valid & np.isfinite(host).all(axis=1))


op("TopKV2", _top_k, _REAL, shape=_top_k_shape, host_args={"k": "k"}, multi=True)
op("InTopKV2", _in_top_k, {"float32"}, host_args={"k": "k"}, mixed_dtypes=True)  # a GPU kernel too (in_topk_op.cc)
not_differentiable("InTopKV2")


@public("math.top_k", "nn.top_k")
def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002 (TensorFlow's names)
    x = as_tensor(input)
    if graph_valued(k):  # k known when the graph runs: the last dimension is unknown
        values, indices = with_graph_host_args("TopKV2", (x,), {"k": k}, {"sorted": bool(sorted),
                                               "index_type": dtypes.as_dtype(index_type).name}, name)
        return TopKV2(values, indices)
    k = int(host_arg(k))
    values, indices = execute("TopKV2", (x,), {"k": k, "sorted": bool(sorted),
                                               "index_type": dtypes.as_dtype(index_type).name}, name=name)
    return TopKV2(values, indices)


@public("math.in_top_k", "nn.in_top_k")
def in_top_k(targets, predictions, k, name=None):
    if context().eager:
        predictions = as_tensor(predictions)
        targets = as_tensor(targets)
        return execute("InTopKV2", (predictions, targets), {"k": int(host_arg(k))}, name=name)
    with op_scope("in_top_k", name):  # TensorFlow's scope around the op: in_top_k/InTopKV2, …/k
        inputs = (as_tensor(predictions, name="predictions"), as_tensor(targets, name="targets"))
        return execute("InTopKV2", inputs, {"k": int(host_arg(k))})


def _descending(values, axis, indices):
    rank = len(values.shape)
    k = array_ops.shape(values)[axis]
    array_ops.rank(values)  # TensorFlow computes the rank here: a logged constant for a known shape
    axis = axis % rank
    perm = None
    if axis != rank - 1:
        perm = list(range(rank))
        perm[axis], perm[-1] = rank - 1, axis
        perm = constant(np.array(perm, np.int64))  # int64, as TensorFlow builds it (its placement log)
        values = array_ops.transpose(values, perm)
    out = top_k(values, k)[1 if indices else 0]
    return out if perm is None else array_ops.transpose(out, perm)


def _sort_or_argsort(values, axis, direction, indices):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction={direction}")
    axis = int(host_arg(axis))
    values = as_tensor(values)
    if direction == "DESCENDING":
        return _descending(values, axis, indices)
    if values.dtype.is_integer:  # ~x reverses the order without overflow: -x - 1
        out = _descending(math_ops.subtract(math_ops.negative(values), 1), axis, indices)
        return out if indices else math_ops.subtract(math_ops.negative(out), 1)
    out = _descending(math_ops.negative(values), axis, indices)
    return out if indices else math_ops.negative(out)


@public("sort")
def sort(values, axis=-1, direction="ASCENDING", name=None):
    return _sort_or_argsort(values, axis, direction, False)


@public("argsort")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    return _sort_or_argsort(values, axis, direction, True)


@gradient("TopKV2")
def _top_k_grad(op, grad_values, grad_indices):
    """Scatter the values' gradient back to the positions top_k took them from."""
    x, indices = op.inputs[0], op.outputs[1]
    host = np.zeros(x.shape, grad_values.numpy().dtype)
    np.put_along_axis(host, indices.numpy().astype(np.int64), grad_values.numpy(), -1)
    return (constant(host),)
