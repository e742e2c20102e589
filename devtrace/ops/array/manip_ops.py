"""Rearranging ops: ``Pad`` / ``PadV2`` / ``MirrorPad`` (``tf.pad``), ``Roll``, ``ReverseSequence``,
``LowerBound`` / ``UpperBound`` (``tf.searchsorted``), and ``tf.boolean_mask`` and the broadcast
shape helpers, which TensorFlow composes from other ops."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.dtypes import NUMERIC
from ...runtime.eager.executor import execute
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ...runtime.tensor import Tensor, TensorShape
from ...runtime.values import constant, host_constant
from . import array_ops, indexing_ops
from ..math import reduction_ops
from .. import shapes
from ..declare import (API, as_tensor, gradient, graph_shape, graph_valued, host_arg, not_differentiable, on_host, op,
                       op_scope, public, with_graph_host_args, with_host_inputs)

_ANY_ON_CPU = {CPU: ALL_TYPES, GPU: DEVICE_SAFE}


def _pad_shape(name, shapes, attrs, dtype):
    shape, pads = shapes[0], attrs["paddings"]
    if shape is None:
        return dtype, None
    if pads is None or np.asarray(pads, object).ndim != 2:  # paddings known when the graph runs
        return dtype, (None,) * len(shape)
    return dtype, tuple(None if d is None else d + int(a) + int(b) for d, (a, b) in zip(shape, pads))


def _check_paddings(x, paddings):
    if paddings.shape != (x.ndim, 2):
        raise ValueError(f"The first dimension of paddings must be the rank of inputs{list(paddings.shape)}, "
                         f"{list(x.shape)}")


def _pad(xp, x, paddings=(), constant_values=0):
    pads = _paddings(paddings)
    _check_paddings(x, pads)
    return xp.pad(x, [tuple(int(v) for v in p) for p in pads], constant_values=constant_values)


def _paddings(paddings):
    """The paddings as a ``[rank, 2]`` array (a graph's dynamic input arrives flattened)."""
    pads = np.asarray(paddings)
    return pads.reshape(-1, 2) if pads.ndim == 1 and pads.size % 2 == 0 and pads.size else pads


def _mirror_pad(xp, x, paddings=(), mode="REFLECT"):
    pads = _paddings(paddings)
    _check_paddings(x, pads)
    return xp.pad(x, [tuple(int(v) for v in p) for p in pads], mode=mode.lower())


def _roll(xp, x, shift=0, axis=0):
    return xp.roll(x, tuple(np.atleast_1d(shift).tolist()), tuple(np.atleast_1d(axis).tolist()))


def _reverse_sequence(xp, x, seq_lengths, seq_axis=1, batch_axis=0):
    out = x.copy()
    for b, n in enumerate(on_host(xp, seq_lengths).tolist()):
        src = [slice(None)] * x.ndim
        src[batch_axis], src[seq_axis] = b, slice(0, int(n))
        out[tuple(src)] = xp.flip(x[tuple(src)], axis=seq_axis - (batch_axis < seq_axis))
    return out


def _bound(side):
    def kernel(xp, sorted_inputs, values, out_type="int32"):
        rows = [np.searchsorted(s, v, side=side) for s, v in zip(on_host(xp, sorted_inputs), on_host(xp, values))]
        return xp.asarray(np.array(rows, dtype=dtypes.as_dtype(out_type).np))
    return kernel


op("Pad", _pad, _ANY_ON_CPU, shape=_pad_shape, host_args={"paddings": "paddings"})
op("PadV2", _pad, _ANY_ON_CPU, shape=_pad_shape,
   host_args={"paddings": "paddings", "constant_values": "constant_values@T"})
op("MirrorPad", _mirror_pad, _ANY_ON_CPU, shape=_pad_shape, host_args={"paddings": "paddings"})
op("Roll", _roll, _ANY_ON_CPU, host_args={"shift": "shift", "axis": "axis"}, shape=shapes.same)
op("ReverseSequence", _reverse_sequence, _ANY_ON_CPU, mixed_dtypes=True, shape=shapes.same)
op("LowerBound", _bound("left"), NUMERIC, mixed_dtypes=True, shape=shapes.bound)
op("UpperBound", _bound("right"), NUMERIC, mixed_dtypes=True, shape=shapes.bound)
not_differentiable("LowerBound", "UpperBound")


@public("pad")
def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    x = as_tensor(tensor)
    mode = mode.upper()
    if graph_valued(paddings) and mode == "CONSTANT" and not isinstance(constant_values, Tensor) and \
            constant_values == 0:  # paddings known when the graph runs: the node's input
        return with_graph_host_args("Pad", (x,), {"paddings": paddings}, {}, name)
    pads = host_arg(paddings)
    if mode == "CONSTANT":
        if isinstance(constant_values, Tensor) or constant_values != 0:
            value = host_arg(constant_values, x.dtype)[()]
            return execute("PadV2", (x,), {"paddings": pads, "constant_values": value}, name=name)
        return execute("Pad", (x,), {"paddings": pads}, name=name)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                         f"Received `mode` = {mode}")
    return execute("MirrorPad", (x,), {"paddings": pads, "mode": mode}, name=name)


@public("roll")
def roll(input, shift, axis, name=None):  # noqa: A002 (TensorFlow's name)
    x = as_tensor(input)
    return execute("Roll", (x,), {"shift": host_arg(shift), "axis": host_arg(axis)}, name=name)


@public("reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    x, lengths = as_tensor(input), as_tensor(seq_lengths)
    attrs = {"seq_axis": 1 if seq_axis is None else int(seq_axis), "batch_axis": 0 if batch_axis is None else int(batch_axis)}
    return execute("ReverseSequence", (x, lengths), attrs, name=name)


@public("searchsorted")
def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    s, v = as_tensor(sorted_sequence), as_tensor(values)
    kind = {"left": "LowerBound", "right": "UpperBound"}.get(side)
    if kind is None:
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = {side}.")
    s_size, v_size = array_ops.shape(s)[-1], array_ops.shape(v)[-1]
    rows = array_ops.reshape(s, array_ops.stack([as_tensor(-1), s_size]))
    vals = array_ops.reshape(v, array_ops.stack([as_tensor(-1), v_size]))
    out = execute(kind, (rows, vals), {"out_type": dtypes.as_dtype(out_type).name}, dtype=s.dtype)
    return array_ops.reshape(out, array_ops.shape(v))


@public("boolean_mask")
def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """TensorFlow's composition: fold the masked dims into one, then gather where the mask holds
    (in a graph, inside the ``boolean_mask`` name scope)."""
    if context().eager:
        return _boolean_mask(tensor, mask, axis)
    with op_scope("boolean_mask", name):
        return _boolean_mask(tensor, mask, axis)


def _boolean_mask(tensor, mask, axis):
    tensor, mask = as_tensor(tensor, name="tensor"), as_tensor(mask, name="mask")
    n = len(mask.shape)
    if n == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis)
    dims = tuple(tensor.shape)[axis:axis + n]
    if len(dims) != n or any(a is not None and b is not None and a != b for a, b in zip(dims, tuple(mask.shape))):
        raise ValueError(f"Shapes {TensorShape(dims)} and {mask.shape} are incompatible")
    axis_t = host_constant(axis, dtypes.int32) if context().eager else axis
    tensor = _folded(tensor, axis, n)
    mask = array_ops.reshape(mask, [-1])
    indices = array_ops.squeeze(indexing_ops.where_indices(mask), axis=[1])
    return indexing_ops.gather(tensor, indices, axis=axis_t)


def _folded(tensor, axis: int, n: int):
    """The tensor with the masked dims folded into one, the shape computed by ops as TensorFlow does
    (eagerly ``Shape`` ops; in a graph its static ``Shape`` Consts sliced, ``Prod``, ``concat``)."""
    shape = tuple(tensor.shape)
    if context().eager:
        leading = reduction_ops.reduce_prod(array_ops.shape(tensor)[axis:axis + n], [0])
        before, after = array_ops.shape(tensor)[:axis], array_ops.shape(tensor)[axis + n:]
        return array_ops.reshape(tensor, array_ops.concat([before, array_ops.stack([leading]), after], 0))
    def shape_of():  # a static shape's Const, else a Shape node (each call its own, as TensorFlow's)
        known = graph_shape(tensor)
        return known if known is not None else array_ops.shape(tensor)

    leading = reduction_ops.reduce_prod(shape_of()[axis:axis + n], [0])
    before, after = shape_of()[:axis], shape_of()[axis + n:]
    with op_scope("concat") as scope:  # the list [leading] packed in the concat's scope: values_1
        folded = execute("ConcatV2", (before, execute("Pack", (leading,), {"axis": 0}, name="values_1"), after),
                         {"axis": 0}, name=scope)
    size = None if None in shape[axis:axis + n] else int(np.prod(shape[axis:axis + n]))
    static = tuple(-1 if d is None else d for d in shape[:axis] + (size,) + shape[axis + n:])
    return with_host_inputs("Reshape", (tensor,), (folded,), {"shape": static})


def _getitem(tensor, key):
    """``tensor[mask]`` with a boolean mask is ``tf.boolean_mask`` (TensorFlow's ``_slice_helper``)."""
    if isinstance(key, bool) or isinstance(key, (Tensor, np.ndarray)) and key.dtype == dtypes.bool_:
        return boolean_mask(tensor, key)
    return indexing_ops.getitem(tensor, key)


Tensor.__getitem__ = _getitem


@public("broadcast_static_shape")
def broadcast_static_shape(shape_x, shape_y):
    return TensorShape(np.broadcast_shapes(tuple(shape_x), tuple(shape_y)))


@public("broadcast_dynamic_shape")
def broadcast_dynamic_shape(shape_x, shape_y):
    x, y = as_tensor(shape_x), as_tensor(shape_y)
    return execute("BroadcastArgs", (x, y))


op("BroadcastArgs", lambda xp, a, b: xp.asarray(np.broadcast_shapes(tuple(a.tolist()), tuple(b.tolist())),
                                                dtype=a.dtype), {"int32", "int64"})  # a GPU kernel too, in host memory
not_differentiable("BroadcastArgs")


@gradient("Pad")
def _pad_grad(op, grad):
    pads = np.asarray(op.attrs["paddings"])
    begin = [int(a) for a in pads[:, 0]]
    return (indexing_ops.slice_(grad, begin, list(op.inputs[0].shape)),)


gradient("PadV2")(_pad_grad)


@gradient("Roll")
def _roll_grad(op, grad):
    shift = -np.asarray(op.attrs["shift"])
    return (roll(grad, constant(shift.astype(np.int32)), constant(np.asarray(op.attrs["axis"], np.int32))),)


@public("sequence_mask")
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool_, name=None):
    """TensorFlow's composition: ``range(maxlen) < expand_dims(lengths, -1)``."""
    from ..math.math_ops import less, maximum

    lengths = as_tensor(lengths)
    if maxlen is None:
        top = reduction_ops.reduce_max(lengths)
        maxlen = maximum(constant(0, top.dtype), top)
    else:
        maxlen = as_tensor(maxlen)
    if maxlen.shape.ndims not in (None, 0):
        raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {maxlen} with "
                         f"shape '{maxlen.shape}' instead")
    row = array_ops.range(constant(0, maxlen.dtype), maxlen, constant(1, maxlen.dtype))
    result = less(row, array_ops.cast(array_ops.expand_dims(lengths, -1), maxlen.dtype))
    return result if dtypes.as_dtype(dtype) is dtypes.bool_ else array_ops.cast(result, dtype, name=name)


@public("meshgrid")
def meshgrid(*args, **kwargs):
    """TensorFlow's composition: each input reshaped along its own axis, times ``ones`` of the grid."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"'{list(kwargs)[0]}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    ndim = len(args)
    if not ndim:
        return []
    ones_shape = (1,) * ndim
    output = [array_ops.reshape(array_ops.stack(x), ones_shape[:i] + (-1,) + ones_shape[i + 1:])
              for i, x in enumerate(args)]
    sizes = [array_ops.size(x) for x in args]
    if indexing == "xy" and ndim > 1:
        output[0] = array_ops.reshape(output[0], (1, -1) + (1,) * (ndim - 2))
        output[1] = array_ops.reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grid = array_ops.ones(array_ops.stack(sizes), as_tensor(args[0]).dtype)
    return [x * grid for x in output]


def _invert_permutation(xp, x):
    n, seen = x.shape[0], set()
    for d in on_host(xp, x).tolist():
        if not 0 <= d < n:
            raise ValueError(f"{d} is not between 0 and {n}")
        if d in seen:
            raise ValueError(f"{d} is duplicated in the input.")
        seen.add(d)
    out = xp.empty_like(x)
    out[x] = xp.arange(n, dtype=x.dtype)
    return out


op("InvertPermutation", _invert_permutation, {"int32", "int64"}, shape=shapes.same)


@public("math.invert_permutation", "compat.v1.invert_permutation")
def invert_permutation(x, name=None):
    return execute("InvertPermutation", (as_tensor(x, slow_list=True),), name=name)


def _unravel_index(xp, indices, dims):
    size = int(np.prod(on_host(xp, dims)))
    flat = on_host(xp, indices)
    if ((flat < 0) | (flat >= size)).any():
        raise ValueError("index is out of bound as with dims")
    return xp.asarray(np.stack(np.unravel_index(flat, tuple(on_host(xp, dims)))).astype(flat.dtype))


op("UnravelIndex", _unravel_index, {"int32", "int64"}, devices=(CPU,))


@public("unravel_index")
def unravel_index(indices, dims, name=None):
    return execute("UnravelIndex", (as_tensor(indices, slow_list=True), as_tensor(dims, slow_list=True)), name=name)


def _repeat_graph(data, count, axis, rank):
    """One count in a graph (TensorFlow's ``repeat_with_axis``): the axis tiled after an inserted one,
    reshaped to the input's ``Shape`` with that axis multiplied (static where the graph knows it)."""
    data_shape = array_ops.shape(data)
    expanded = array_ops.expand_dims(data, axis + 1)
    tiled = array_ops.tile(expanded, [count if k == axis + 1 else 1 for k in range(rank + 1)])
    size = API["multiply"](count, data_shape[axis])
    return array_ops.reshape(tiled, array_ops.concat([data_shape[:axis], array_ops.stack([size]),
                                                      data_shape[axis + 1:]], 0))


@public("repeat")
def repeat(input, repeats, axis=None, name=None):  # noqa: A002 (TensorFlow's name)
    """TensorFlow's ``repeat_with_axis`` (the flattened input when ``axis`` is None): one count tiles
    the axis; per-element counts tile it by the largest and keep a ``sequence_mask`` of it."""
    data = as_tensor(input)
    if axis is None:
        data, axis = array_ops.reshape(data, [-1]), 0
    counts = as_tensor(repeats)
    if not counts.dtype.is_integer:
        counts = array_ops.cast(counts, dtypes.int32)
    if counts.shape.ndims > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {counts.shape.ndims}")
    if data.shape.ndims == 0:
        data = array_ops.reshape(data, [1])
    rank = data.shape.ndims
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    axis %= rank
    if not context().eager and counts.shape.num_elements() == 1:  # a graph: TensorFlow's shape ops
        return _repeat_graph(data, array_ops.reshape(counts, []), axis, rank)
    dims = [int(d) for d in data.shape]
    multiples = [1] * (rank + 1)
    expanded = array_ops.expand_dims(data, axis + 1)
    if counts.shape.num_elements() == 1:
        multiples[axis + 1] = int(array_ops.reshape(counts, []).numpy())
        tiled = array_ops.tile(expanded, multiples)
        return array_ops.reshape(tiled, dims[:axis] + [multiples[axis + 1] * dims[axis]] + dims[axis + 1:])
    counts = array_ops.broadcast_to(counts, [dims[axis]])
    if axis:
        counts = array_ops.broadcast_to(counts, dims[:axis + 1])
    longest = int(reduction_ops.reduce_max(counts).numpy()) if counts.shape.num_elements() else 0
    mask = sequence_mask(counts, max(longest, 0))
    multiples[axis + 1] = max(longest, 0)
    masked = boolean_mask(array_ops.tile(expanded, multiples), mask)
    if not axis:
        return masked
    return array_ops.reshape(masked, dims[:axis] + [-1] + dims[axis + 1:])
