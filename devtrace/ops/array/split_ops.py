"""Ops with several outputs that take a tensor apart: ``Unpack`` (``tf.unstack``), ``Split`` and
``SplitV`` (``tf.split``), ``Unique`` and ``UniqueWithCounts``. Each kernel returns a tuple of
arrays; the op returns a tuple of tensors (the registry's ``multi``)."""

from __future__ import annotations

import collections

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from . import array_ops
from ..declare import as_tensor, gradient, host_arg, on_host, op, public, with_host_inputs

_ANY_ON_CPU = {CPU: ALL_TYPES, GPU: DEVICE_SAFE}
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _axis(axis, rank, what):
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{what} must be in range [{-rank}, {rank}), but was {axis}")
    return axis % rank


def _unpack(xp, x, num=0, axis=0):
    return tuple(xp.take(x, i, axis=axis) for i in range(x.shape[axis]))


def _unpack_shape(name, shapes, attrs, dtype):
    shape, axis = shapes[0], attrs["axis"]
    rest = None if shape is None else shape[:axis] + shape[axis + 1:]
    return [(dtype, rest)] * attrs["num"], None


def _split(xp, x, split_dim=0, num_split=1):
    size = x.shape[split_dim]
    if size % num_split:
        raise ValueError(f"Number of ways to split should evenly divide the split dimension, but got split_dim "
                         f"{split_dim} (size = {size}) and num_split {num_split}")
    return tuple(xp.split(x, num_split, axis=split_dim))


def _split_shape(name, shapes, attrs, dtype):
    shape, axis, n = shapes[0], attrs["split_dim"], attrs["num_split"]
    if shape is None:
        return [(dtype, None)] * n, None
    part = None if shape[axis] is None else shape[axis] // n
    return [(dtype, shape[:axis] + (part,) + shape[axis + 1:])] * n, None


def _split_v(xp, x, size_splits=(), split_dim=0):
    bounds = np.cumsum(size_splits)[:-1]
    return tuple(xp.split(x, [int(b) for b in bounds], axis=split_dim))


def _split_v_shape(name, shapes, attrs, dtype):
    shape, axis = shapes[0], attrs["split_dim"]
    if shape is None:
        return [(dtype, None)] * len(attrs["size_splits"]), None
    return [(dtype, shape[:axis] + (int(s),) + shape[axis + 1:]) for s in attrs["size_splits"]], None


def _unique(xp, x, out_idx="int32", counts=False):
    if x.ndim != 1:
        raise ValueError("unique expects a 1D vector.")
    values, first, inverse, count = np.unique(on_host(xp, x), return_index=True, return_inverse=True,
                                              return_counts=True)
    order = np.argsort(first, kind="stable")  # TensorFlow keeps the order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    idx_dtype = dtypes.as_dtype(out_idx).np
    out = (xp.asarray(values[order]), xp.asarray(rank[inverse].astype(idx_dtype)))
    return out + (xp.asarray(count[order].astype(idx_dtype)),) if counts else out


def _unique_shape(name, shapes, attrs, dtype):
    idx = dtypes.as_dtype(attrs.get("out_idx", "int32"))
    pairs = [(dtype, (None,)), (idx, shapes[0])]
    return (pairs + [(idx, (None,))] if attrs.get("counts") else pairs), None


op("Unpack", _unpack, _ANY_ON_CPU, shape=_unpack_shape, multi=True, number_attr="num")
op("Split", _split, _ANY_ON_CPU, shape=_split_shape, host_args={"split_dim": "split_dim"}, multi=True, number_attr="num_split")
op("SplitV", _split_v, _ANY_ON_CPU, shape=_split_v_shape, host_args={"size_splits": "size_splits", "split_dim": "split_dim"},
   multi=True,
   number_attr="num_split")
op("Unique", _unique, {CPU: ALL_TYPES, GPU: DEVICE_SAFE}, shape=_unique_shape, multi=True)
op("UniqueWithCounts", lambda xp, x, out_idx="int32": _unique(xp, x, out_idx, True), _ANY_ON_CPU,
   shape=lambda name, shapes, attrs, dtype: _unique_shape(name, shapes, dict(attrs, counts=True), dtype),
   multi=True)


@public("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
    x = as_tensor(value)
    rank = len(x.shape)
    if not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")
    axis %= rank
    size = x.shape[axis]
    if size is None:  # known only when the graph runs: ``num`` says how many
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {x.shape}")
        size = num
    if num is not None and num != size:
        raise InvalidArgumentError(f"Input shape axis {axis} must equal {num}, got shape {list(x.shape)} "
                                   f"[Op:Unpack] name: {name}", op="Unpack")
    return list(execute("Unpack", (x,), {"num": size, "axis": axis}, name=name))


@public("split")
def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    x = as_tensor(value)
    if isinstance(num_or_size_splits, int):
        dim = int(host_arg(axis))
        dim = _axis(dim, len(x.shape), "split_dim")
        return list(execute("Split", (x,), {"split_dim": dim, "num_split": num_or_size_splits}, name=name))
    sizes = [int(s) for s in host_arg(num_or_size_splits, None)]
    dim = _axis(int(host_arg(axis)), len(x.shape), "split_dim")
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[dim] - (sum(sizes) + 1)
    if sum(sizes) != x.shape[dim]:
        raise InvalidArgumentError(
            f"Determined shape must either match input shape along split_dim exactly if fully specified, or be "
            f"less than the size of the input along split_dim if not fully specified.  Got: {sum(sizes)} "
            f"[Op:SplitV] name: {name}", op="SplitV")
    # a graph's size_splits: a Const made before the op's scope (TensorFlow's convert_to_tensor)
    given = () if context().eager else (as_tensor(num_or_size_splits),)
    return list(with_host_inputs("SplitV", (x,), given, {"size_splits": tuple(sizes), "split_dim": dim}, name))


@public("unique")
def unique(x, out_idx=dtypes.int32, name=None):
    y, idx = execute("Unique", (as_tensor(x),), {"out_idx": dtypes.as_dtype(out_idx).name}, name=name)
    return Unique(y, idx)


@public("unique_with_counts")
def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    y, idx, count = execute("UniqueWithCounts", (as_tensor(x),), {"out_idx": dtypes.as_dtype(out_idx).name},
                            name=name)
    return UniqueWithCounts(y, idx, count)


@gradient("Unpack")
def _unpack_grad(op, *grads):
    return (array_ops.stack(list(grads), axis=op.attrs["axis"]),)


@gradient("Split")
def _split_grad(op, *grads):
    return (array_ops.concat(list(grads), op.attrs["split_dim"]),)


@gradient("SplitV")
def _split_v_grad(op, *grads):
    return (array_ops.concat(list(grads), op.attrs["split_dim"]),)
