"""Indexing: ``Tensor.__getitem__`` as TensorFlow runs it (a ``StridedSlice`` whose begin, end
and strides are ``_EagerConst`` inputs, with its five masks), ``gather``, ``gather_nd``,
``slice``, ``where`` with one argument."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from .. import shapes
from ..declare import (as_tensor, graph_valued, host_arg, on_host, op, op_scope, packed, public, static_hint,
                       with_graph_host_args, with_host_inputs)

newaxis = None
_ANY_ON_CPU = {CPU: ALL_TYPES, GPU: DEVICE_SAFE}
MASKS = _MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


_index = shapes.slice_index


def index_of(attrs) -> tuple:
    """The Python index of a ``StridedSlice`` node's attrs (its gradient scatters through it)."""
    return _index(**attrs)


def _axes(idx, ndim):
    """``(axis, item)`` of an index's items that select an axis: those after an ellipsis count from
    the last axis (``x[..., 2]`` indexes the last)."""
    cut = idx.index(Ellipsis) if Ellipsis in idx else len(idx)
    head = [i for i in idx[:cut] if i is not None]
    tail = [i for i in idx[cut + 1:] if i is not None]
    return list(enumerate(head)) + [(ndim - len(tail) + k, item) for k, item in enumerate(tail)]


def _strided_slice(xp, x, begin=(), end=(), strides=(), **masks):
    if 0 in strides:  # the input dimension it falls on names it
        spec = shapes.dense_spec(begin, end, strides, masks, x.ndim)
        zero = [i for i, item in enumerate(spec[0] if isinstance(spec, tuple) else ()) if item[2] == 0]
        if zero:
            raise ValueError(f"strides[{zero[0]}] must be non-zero")
    idx = _index(begin, end, strides, **masks)
    if idx.count(Ellipsis) > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    if x.ndim == 0 and idx:
        raise ValueError("Attempting to slice scalar input.")
    dims = [i for i in idx if i is not None and i is not Ellipsis]
    if len(dims) > x.ndim:
        raise ValueError(f"Index out of range using input dim {x.ndim}; input has only {x.ndim} dims")
    for k, item in _axes(idx, x.ndim):
        if isinstance(item, int) and not -x.shape[k] <= item < x.shape[k]:
            raise ValueError(f"slice index {item} of dimension {k} out of bounds.")
    out = x[idx]
    return out.copy() if isinstance(out, xp.ndarray) else np.asarray(out, dtype=x.dtype)  # a string: bytes


def _strided_slice_grad(xp, dy, shape=(), begin=(), end=(), strides=(), **masks):
    """``StridedSliceGrad``: zeros of the sliced input's ``shape`` with ``dy`` where the slice read."""
    out = xp.zeros(tuple(int(d) for d in shape), dy.dtype)
    idx = _index(begin, end, strides, **masks)
    out[idx] = dy.reshape(out[idx].shape)
    return out


op("StridedSlice", _strided_slice, _ANY_ON_CPU, shape=shapes.strided_slice,
   host_args={"begin": "begin", "end": "end", "strides": "strides"})
op("StridedSliceGrad", _strided_slice_grad, _ANY_ON_CPU, shape=shapes.given_shape,
   host_args={"shape": "shape", "begin": "begin", "end": "end", "strides": "strides"})
def _gather(xp, params, indices, axis=0, batch_dims=0):
    """TensorFlow's CPU kernel: an index out of ``[0, params.shape[axis])`` is an error, named by its
    position in ``indices`` — unless the output is empty (TensorFlow then runs no kernel loop)."""
    size = params.shape[axis]
    if not _gather_size(params.shape, indices.shape, axis, batch_dims):
        return xp.empty(_gather_shape(params.shape, indices.shape, axis, batch_dims), params.dtype)
    flat = indices.reshape(-1)
    bad = xp.nonzero((flat < 0) | (flat >= size))[0]
    if bad.size:
        k = int(bad[0])
        where = f"[{','.join(str(int(n)) for n in np.unravel_index(k, indices.shape))}]" if indices.ndim else ""
        raise ValueError(f"indices{where} = {int(flat[k])} is not in [0, {size})")
    return _gather_rows(xp, params, indices, axis, batch_dims)


def _gather_gpu(xp, params, indices, axis=0, batch_dims=0):
    """TensorFlow's GPU kernel (``gather_functor_gpu.cu.h``): it checks no index; one out of
    ``[0, params.shape[axis])`` gathers zeros."""
    size = params.shape[axis]
    shape = _gather_shape(params.shape, indices.shape, axis, batch_dims)
    if size == 0 or not _gather_size(params.shape, indices.shape, axis, batch_dims):
        return xp.zeros(shape, params.dtype)
    inside = (indices >= 0) & (indices < size)
    out = _gather_rows(xp, params, xp.where(inside, indices, 0), axis, batch_dims)
    # the mask over the output: the indices' dims in the gathered axis' place
    mask = inside.reshape(indices.shape[:batch_dims] + (1,) * (axis - batch_dims) + indices.shape[batch_dims:]
                          + (1,) * (params.ndim - axis - 1))
    return xp.where(mask, out, xp.zeros((), params.dtype))


def _gather_shape(params_shape, indices_shape, axis, batch_dims):
    return params_shape[:axis] + indices_shape[batch_dims:] + params_shape[axis + 1:]


def _gather_size(params_shape, indices_shape, axis, batch_dims) -> int:
    return int(np.prod(_gather_shape(params_shape, indices_shape, axis, batch_dims), dtype=np.int64))


def _gather_rows(xp, params, indices, axis, batch_dims):
    if batch_dims:
        return _batched(xp, params, indices, batch_dims, lambda p, i: _take(xp, p, i, axis - batch_dims))
    return _take(xp, params, indices, axis)


def _take(xp, params, indices, axis):
    """``xp.take`` through flat indices: a scalar index into an object (string) array stays an array."""
    axis %= params.ndim
    out = xp.take(params, indices.reshape(-1), axis=axis)
    return out.reshape(params.shape[:axis] + indices.shape + params.shape[axis + 1:])


def _batched(xp, params, indices, batch_dims, fn):
    """``fn`` applied per position of the ``batch_dims`` leading dimensions params and indices share."""
    batch = params.shape[:batch_dims]
    p = params.reshape((-1,) + params.shape[batch_dims:])
    i = indices.reshape((-1,) + indices.shape[batch_dims:])
    out = xp.stack([fn(p[k], i[k]) for k in range(p.shape[0])])
    return out.reshape(batch + out.shape[1:])


def _gather_nd(xp, params, indices, batch_dims=0):
    if batch_dims:
        return _batched(xp, params, indices, batch_dims, lambda p, i: _gather_nd(xp, p, i))
    depth = indices.shape[-1]
    flat = on_host(xp, indices).reshape(-1, depth)
    bad = ((flat < 0) | (flat >= params.shape[:depth])).any(axis=1).nonzero()[0]
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"indices[{k}] = [{', '.join(map(str, flat[k]))}] does not index into param shape "
                         f"[{','.join(map(str, params.shape))}], node name: GatherNd")
    return params[tuple(xp.moveaxis(indices, -1, 0))]


def _gather_nd_gpu(xp, params, indices, batch_dims=0):
    """TensorFlow's GPU kernel (``gather_nd_op_gpu.cu.cc``): an index out of the params' shape
    gathers a slice of zeros."""
    if batch_dims:
        return _batched(xp, params, indices, batch_dims, lambda p, i: _gather_nd_gpu(xp, p, i))
    depth = indices.shape[-1]
    shape = indices.shape[:-1] + params.shape[depth:]
    if any(n == 0 for n in params.shape[:depth]) or 0 in shape:
        return xp.zeros(shape, params.dtype)
    bounds = xp.asarray(params.shape[:depth], dtype=indices.dtype)
    inside = ((indices >= 0) & (indices < bounds)).all(axis=-1)
    out = params[tuple(xp.moveaxis(xp.where(inside[..., None], indices, 0), -1, 0))]
    mask = inside.reshape(inside.shape + (1,) * (params.ndim - depth))
    return xp.where(mask, out, xp.zeros((), params.dtype))


def _slice(xp, x, begin=(), size=()):
    for k, (b, s) in enumerate(zip(begin, size)):
        dim = x.shape[k]
        if not 0 <= b <= dim:
            raise ValueError(f"Expected begin[{k}] in [0, {dim}], but got {b}")
        if s != -1 and not 0 <= s <= dim - b:
            raise ValueError(f"Expected size[{k}] in [0, {dim - b}], but got {s}")
    return x[tuple(slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))].copy()


op("GatherV2", _gather, _ANY_ON_CPU, host_args={"axis": "axis"}, mixed_dtypes=True, shape=shapes.gather,
   gpu_kernel=_gather_gpu)
op("GatherNd", _gather_nd, _ANY_ON_CPU, mixed_dtypes=True, shape=shapes.gather_nd, gpu_kernel=_gather_nd_gpu)
op("Slice", _slice, _ANY_ON_CPU, host_args={"begin": "begin", "size": "size"}, shape=shapes.slice_)
op("Where", lambda xp, c: xp.argwhere(c).astype(np.int64), {"bool"} | dtypes.NUMERIC, shape=shapes.where)


def _spec(key):
    """begin, end, strides and masks for ``key`` (TensorFlow's ``_slice_helper``)."""
    items = key if isinstance(key, (tuple, list)) else (key,)  # a list is the indices, as TensorFlow reads it
    begin, end, strides, masks = [], [], [], dict.fromkeys(_MASKS, 0)
    for k, item in enumerate(items):
        bit = 1 << k
        if isinstance(item, Tensor) and item.shape.ndims == 0 and item.dtype in (dtypes.int32, dtypes.int64):
            item = int(item.numpy())
        if item is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif item is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(item, slice):
            step = 1 if item.step is None else int(item.step)
            if item.start is None:
                masks["begin_mask"] |= bit
            if item.stop is None:
                masks["end_mask"] |= bit
            begin.append(0 if item.start is None else int(item.start))
            end.append(0 if item.stop is None else int(item.stop))
            strides.append(step)
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            masks["shrink_axis_mask"] |= bit
            begin.append(int(item)), end.append(int(item) + 1), strides.append(1)
        else:
            raise TypeError(_SLICE_TYPE_ERROR + f", got {item!r}")
    return begin, end, strides, masks


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/"
                     "tf.int64 tensors are valid indices")


def _symbolic(item) -> bool:
    """Whether an index item holds a tensor of a graph being built (``x[i]``, ``x[:, i:i + 2]``)."""
    if isinstance(item, slice):
        return any(_symbolic(v) for v in (item.start, item.stop, item.step))
    return isinstance(item, Tensor) and item._device is None


def _check_index(item):
    if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
        return
    if not isinstance(item, Tensor) or item.dtype not in (dtypes.int16, dtypes.int32, dtypes.int64) or \
            item.shape.rank == 1:
        raise TypeError(_SLICE_TYPE_ERROR + f", got {item!r}")


def _getitem_graph(tensor, items):
    """``x[i]``, ``x[:, i:i + 2]`` with tensors of the graph being built, as TensorFlow's
    ``_slice_helper`` builds it: ``i + 1`` (an ``AddV2``) for an index's end, ``Const`` zeros and ones
    for the masked parts of a slice with a tensor in it, then in the ``strided_slice`` scope each of
    begin, end and strides stacked (a ``Const``, or a ``Pack`` of its tensors and ``Const``s), the
    ``StridedSlice`` taking them as inputs (their values known when the graph runs; the static ones
    shape its output)."""
    begin, end, strides, masks = [], [], [], dict.fromkeys(_MASKS, 0)
    for k, item in enumerate(items):
        bit = 1 << k
        if item is Ellipsis or item is None:
            masks["ellipsis_mask" if item is Ellipsis else "new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(item, slice):
            kinds = [v.dtype for v in (item.start, item.stop, item.step) if isinstance(v, Tensor)]
            dt = dtypes.int64 if dtypes.int64 in kinds else dtypes.int32 if dtypes.int32 in kinds else \
                dtypes.int16 if kinds else None
            for values, part, default, mask in ((begin, item.start, 0, "begin_mask"), (end, item.stop, 0, "end_mask"),
                                                (strides, item.step, 1, None)):
                if part is not None:
                    _check_index(part)
                    values.append(part)
                    continue
                values.append(default if dt is None else constant(default, dt))
                if mask:
                    masks[mask] |= bit
        else:
            _check_index(item)
            begin.append(item), end.append(item + 1)
            strides.append(constant(1, item.dtype) if isinstance(item, Tensor) and item.dtype in
                           (dtypes.int16, dtypes.int64) else 1)
            masks["shrink_axis_mask"] |= bit
    with op_scope("strided_slice") as scope:
        stacks = [_stack(values) for values in (begin, end, strides)]
        if any(t.dtype == dtypes.int64 for t in stacks):
            stacks = [t if t.dtype == dtypes.int64 else execute("Cast", (t,), {"DstT": "int64"}) for t in stacks]
        attrs = {key: static_hint(t) for key, t in zip(("begin", "end", "strides"), stacks)}
        return with_host_inputs("StridedSlice", (tensor,), tuple(stacks), dict(attrs, **masks), scope)


def _stack(values):
    """TensorFlow's ``stack`` of an index's begin, end or strides: a ``Const`` named ``stack`` when no
    entry is a tensor, else their ``Pack`` (the other entries ``Const``s named by position)."""
    if not any(isinstance(v, Tensor) for v in values):
        return constant(np.asarray(values, np.int32), dtypes.int32, name="stack")
    return packed(values, "stack")


def getitem(tensor, key):
    """``tensor[key]`` as a ``StridedSlice`` (a boolean mask: see ``manip_ops.boolean_mask``)."""
    items = key if isinstance(key, tuple) else (key,)
    if not context().eager and any(_symbolic(item) for item in items):
        return _getitem_graph(tensor, items)
    begin, end, strides, masks = _spec(key)
    attrs = {key: tuple(int(v) for v in host_arg(value, slow_list=False))  # packed tensors: TensorFlow's fast path
             for key, value in (("begin", begin), ("end", end), ("strides", strides))}
    if context().eager:  # TensorFlow's name scope: "strided_slice/" in an eager error
        return execute("StridedSlice", (tensor,), dict(attrs, **masks), name="strided_slice/")
    with op_scope("strided_slice") as scope:  # a graph: begin, end and strides stacked as Consts (stack, stack_1 …)
        stacks = tuple(constant(np.asarray(attrs[k], np.int32), dtypes.int32, name="stack")
                       for k in ("begin", "end", "strides"))
        return with_host_inputs("StridedSlice", (tensor,), stacks, dict(attrs, **masks), scope)


def _iterate(tensor):
    """Iteration over the first axis, one ``StridedSlice`` per element, as TensorFlow does."""
    if len(tensor.shape) == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    for i in range(tensor.shape[0]):
        yield getitem(tensor, i)


Tensor.__getitem__ = getitem
Tensor.__iter__ = _iterate


@public("strided_slice")
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    x = as_tensor(input_)
    if not context().eager and any(_graph_valued(v) for v in (begin, end, strides)):
        return _strided_slice_graph(x, begin, end, strides, name, begin_mask=begin_mask, end_mask=end_mask,
                                    ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask,
                                    shrink_axis_mask=shrink_axis_mask)
    strides = [1] * len(begin) if strides is None else strides
    attrs = {"begin": tuple(int(v) for v in host_arg(begin)), "end": tuple(int(v) for v in host_arg(end)),
             "strides": tuple(int(v) for v in host_arg(strides)), "begin_mask": begin_mask, "end_mask": end_mask,
             "ellipsis_mask": ellipsis_mask, "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}
    return execute("StridedSlice", (x,), attrs, name=name)


def _graph_valued(value) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_graph_valued(v) for v in value)
    return isinstance(value, Tensor) and value._device is None


def _strided_slice_graph(x, begin, end, strides, name, **masks):
    """``tf.strided_slice`` with begin, end or strides computed in the graph: they are the node's
    inputs (``ones_like(begin)`` the strides when none are given, as TensorFlow's), their static
    values shape its output."""
    with op_scope("StridedSlice", name) as scope:
        args = []
        for value, arg in ((begin, "begin"), (end, "end")):
            args.append(value if isinstance(value, Tensor) else packed(value, arg) if _graph_valued(value)
                        else constant(np.asarray(value, np.int32), dtypes.int32, name=arg))
        if strides is None:
            strides = execute("OnesLike", (args[0],), name="ones_like")
        args.append(strides if isinstance(strides, Tensor) else packed(strides, "strides") if _graph_valued(strides)
                    else constant(np.asarray(strides, np.int32), dtypes.int32, name="strides"))
        attrs = {key: static_hint(t) for key, t in zip(("begin", "end", "strides"), args)}
        return with_host_inputs("StridedSlice", (x,), tuple(args), dict(attrs, **masks), scope)


@public("slice")
def slice_(input_, begin, size, name=None):
    x = as_tensor(input_)
    if graph_valued(begin, size):
        return with_graph_host_args("Slice", (x,), {"begin": begin, "size": size}, {}, name)
    return execute("Slice", (x,), {"begin": tuple(int(v) for v in host_arg(begin)),
                                   "size": tuple(int(v) for v in host_arg(size))}, name=name)


@public("gather")
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    p = as_tensor(params)
    if isinstance(indices, Tensor) or context().eager:
        i = indices if isinstance(indices, Tensor) else as_tensor(indices, slow_list=True)
        return _gather(p, i, axis, batch_dims, name)
    with op_scope("GatherV2", name) as scope:  # a graph converts the indices in the op's scope: GatherV2/indices
        return _gather(p, as_tensor(indices, name="indices"), axis, batch_dims, scope)


def _gather(p, i, axis, batch_dims, name):
    axis = int(host_arg(batch_dims if axis is None else axis, None))  # inferred: an int32 (its own scalar-cache entry)
    batch_dims = batch_dims + len(i.shape) if batch_dims < 0 else batch_dims
    attrs = {"axis": axis % max(len(p.shape), 1), "batch_dims": batch_dims} if batch_dims else {"axis": axis}
    return execute("GatherV2", (p, i), attrs, name=name, dtype=p.dtype)


@public("gather_nd")
def gather_nd(params, indices, batch_dims=0, name=None):
    p = as_tensor(params)
    attrs = {"batch_dims": int(batch_dims)} if batch_dims else None
    return execute("GatherNd", (p, as_tensor(indices, slow_list=True)), attrs, name=name, dtype=p.dtype)


def where_indices(condition):
    """``tf.where(c)``: the int64 coordinates of the true elements."""
    return execute("Where", (condition,))
