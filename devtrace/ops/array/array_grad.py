"""Gradients of the elementwise, shape and indexing ops a model's forward pass uses, beyond the
core set in :mod:`.math_grad` (TensorFlow's math_grad / array_grad / nn_grad are the reference)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager import uncomputed
from ...runtime.eager.executor import execute
from ...runtime.values import constant
from . import array_ops, indexing_ops
from ..math import math_ops
from ..nn import nn_ops
from . import scatter_ops
from ..math.complex_ops import conj
from ..declare import gradient, graph_shape, not_differentiable, on_host, op, with_host_inputs
from ..sparse.indexed_slices import IndexedSlices
from ..math.math_grad import _reshape_grad, reduce_to


def _unary(op_type):
    """``fn(x, y, grad)`` → the input's gradient; for a complex op ``x`` and ``y`` are conjugated
    (TensorFlow's ``grad * conj(f'(x))``)."""
    def register(fn):
        gradient(op_type)(lambda op, grad: (fn(conj(op.inputs[0]), conj(op.outputs[0]), grad),))
        return fn
    return register


_unary("Log1p")(lambda x, y, g: math_ops.multiply(g, math_ops.reciprocal(math_ops.add(x, 1.0))))
_unary("Expm1")(lambda x, y, g: math_ops.multiply(g, math_ops.exp(x)))
_unary("Rsqrt")(lambda x, y, g: math_ops.multiply(g, math_ops.multiply(-0.5, y * y * y)))
_unary("Reciprocal")(lambda x, y, g: math_ops.multiply(g, math_ops.negative(y * y)))
_unary("Sin")(lambda x, y, g: g * math_ops.cos(x))  # TensorFlow's `grad * cos(x)`: a node named mul
_unary("Cos")(lambda x, y, g: math_ops.multiply(g, math_ops.negative(math_ops.sin(x))))
_unary("Softplus")(lambda x, y, g: math_ops.multiply(g, nn_ops.sigmoid(x)))
_unary("Relu6")(lambda x, y, g: math_ops.multiply(g, array_ops.cast((x > 0.0) & (x < 6.0), g.dtype)))
_unary("Elu")(lambda x, y, g: array_ops.where(x > 0.0, g, math_ops.multiply(g, math_ops.add(y, 1.0))))


@gradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op.inputs
    d = math_ops.multiply(math_ops.multiply(grad, 2.0), math_ops.subtract(x, y))
    return reduce_to(d, x.shape), reduce_to(math_ops.negative(d), y.shape)


def _select_extreme(pick):
    def grad_fn(op, grad):
        x, y = op.inputs
        chosen = pick(x, y)
        zeros = array_ops.zeros_like(grad)
        return (reduce_to(array_ops.where(chosen, grad, zeros), x.shape),
                reduce_to(array_ops.where(chosen, zeros, grad), y.shape))
    return grad_fn


gradient("Maximum")(_select_extreme(lambda x, y: math_ops.greater_equal(x, y)))
gradient("Minimum")(_select_extreme(lambda x, y: math_ops.less_equal(x, y)))


@gradient("SelectV2")
def _select_grad(op, grad):
    cond, x, y = op.inputs
    zeros = array_ops.zeros_like(grad)
    return None, reduce_to(array_ops.where(cond, grad, zeros), x.shape), reduce_to(array_ops.where(cond, zeros, grad),
                                                                                   y.shape)


gradient("ExpandDims")(_reshape_grad)  # TensorFlow's _ReshapeToInput: reshaped to the input's shape
gradient("Squeeze")(_reshape_grad)


@gradient("Pack")
def _pack_grad(op, grad):
    from .split_ops import unstack

    return tuple(unstack(grad, num=len(op.inputs), axis=op.attrs.get("axis", 0)))


def _concat_offset(xp, dim, *shapes, N=0):  # noqa: N803 (TensorFlow's attr)
    """Where each input starts in the concatenation (``ConcatOffset``): zeros but along ``dim``."""
    d, start, out = int(dim), 0, []
    for shape in shapes:
        offset = np.zeros_like(on_host(xp, shape))
        offset[d] = start
        start += int(shape[d])
        out.append(xp.asarray(offset))
    return tuple(out)


op("ConcatOffset", _concat_offset, {"int32", "int64"}, multi=True, number_attr="N", mixed_dtypes=True,
   shape=lambda name, shapes, attrs, dtype: ([(dtypes.int32, s) for s in shapes[1:]], None))
not_differentiable("ConcatOffset")


@gradient("ConcatV2")
def _concat_grad(op, grad):
    """Eagerly a ``SplitV`` of the gradient; in a graph (shapes known, up to 16 inputs) TensorFlow's
    ``ConcatOffset`` of the inputs' shapes and one ``Slice`` per input."""
    from .split_ops import split

    axis = op.attrs.get("axis", 0)
    node = getattr(op.outputs[0], "_op", None)  # a graph's forward node
    if node is None or not node._n_host or len(op.inputs) > 16 or any(
            t.shape.rank is None or None in tuple(t.shape) for t in op.inputs):
        return tuple(split(grad, [int(t.shape[axis]) for t in op.inputs], axis=axis))
    rank = constant(np.int32(len(op.inputs[0].shape)), dtypes.int32, name="Rank")
    dim = node._inputs[-1] % rank  # the forward node's axis, made non-negative
    sizes = [graph_shape(t) for t in op.inputs]
    offsets = execute("ConcatOffset", (dim, *sizes), {"N": len(sizes)})
    starts = np.cumsum([0] + [int(t.shape[axis]) for t in op.inputs])
    return tuple(with_host_inputs("Slice", (grad,), (offset, size), {
        "begin": tuple(int(starts[k]) if d == axis % len(t.shape) else 0 for d in range(len(t.shape))),
        "size": tuple(t.shape)}) for k, (t, offset, size) in enumerate(zip(op.inputs, offsets, sizes)))


@gradient("Tile")
def _tile_grad(op, grad):
    shape = list(op.inputs[0].shape)
    multiples = list(op.attrs["multiples"])
    split_shape = [d for pair in zip(multiples, shape) for d in pair]
    summed = math_ops.reduce_sum(array_ops.reshape(grad, split_shape), list(range(0, len(split_shape), 2)))
    return (summed,)


def _gather_grad_graph(params, indices, axis, grad):
    """Inside a function: the gradient scattered (summed) into the gathered rows, by ops."""
    shape = list(params.shape)
    idx = array_ops.reshape(indices, [-1, 1])
    rest = shape[:axis] + shape[axis + 1:]
    moved = array_ops.reshape(grad, shape[:axis] + [-1] + shape[axis + 1:])
    perm = [axis] + [d for d in range(len(shape)) if d != axis]
    if axis:
        moved = array_ops.transpose(moved, perm)
    out = scatter_ops.scatter_nd(idx, moved, [shape[axis]] + rest)
    return array_ops.transpose(out, [perm.index(d) for d in range(len(shape))]) if axis else out


def _gather_slices_graph(params, indices, grad):
    """Inside a function, an axis-0 gather's gradient as TensorFlow's: ``IndexedSlices`` of the upstream
    gradient reshaped to ``[size(indices)] + shape(params)[1:]`` (``Shape`` colocated with the params),
    at the flattened indices."""
    with params._op._graph.colocate_with(params._op):  # a known shape: TensorFlow's shape() makes it a Const
        params_shape = constant(np.array(params.shape, np.int32), dtypes.int32, name="Shape") \
            if params.shape.is_fully_defined() else array_ops.shape(params)
    indices_size = array_ops.expand_dims(array_ops.size(indices), 0)
    values_shape = array_ops.concat([indices_size, params_shape[1:]], 0)
    values = array_ops.reshape(grad, values_shape)
    return IndexedSlices(values, array_ops.reshape(indices, indices_size), params_shape)


def _strided_slice_grad_graph(op, grad):
    """Inside a function: TensorFlow's ``StridedSliceGrad`` of the input's shape (its ``Const`` when
    the shape is static, else its ``Shape`` node, known when the graph runs) and the slice's begin,
    end and strides (the forward node's own inputs when one is computed in the graph)."""
    x = op.inputs[0]
    attrs = {k: op.attrs.get(k, 0) for k in indexing_ops.MASKS}
    spec = {k: op.attrs.get(k) for k in ("begin", "end", "strides")}
    known = graph_shape(x)
    shape = known if known is not None else array_ops.shape(x)
    attrs["shape"] = tuple(x.shape) if x.shape.rank is not None else None
    if any(v is None or None in v for v in spec.values()):  # begin, end or strides computed in the graph
        return with_host_inputs("StridedSliceGrad", (grad,), (shape, *op.outputs[0]._op._inputs[1:4]),
                                dict(attrs, **spec),
                                dtype=grad.dtype)
    if known is None:
        return with_host_inputs("StridedSliceGrad", (grad,), (shape,), dict(attrs, **spec), dtype=grad.dtype)
    return execute("StridedSliceGrad", (grad,), dict(attrs, **spec), dtype=grad.dtype)


@gradient("GatherV2")
def _gather_grad(op, grad):
    params, indices = op.inputs
    axis = op.attrs.get("axis", 0)
    if not context().eager:
        if axis == 0 and not op.attrs.get("batch_dims") and params.shape.rank is not None:
            return _gather_slices_graph(params, indices, grad), None
        return _gather_grad_graph(params, indices, axis % max(len(params.shape), 1), grad), None
    if axis == 0 and not op.attrs.get("batch_dims"):  # TensorFlow's: the slices, as IndexedSlices
        size = int(np.prod(indices.shape))
        values = array_ops.reshape(grad, [size] + list(params.shape)[1:])
        return IndexedSlices(values, array_ops.reshape(indices, [size]), array_ops.shape(params)), None
    if not uncomputed.computed(grad):  # --compute none: the constant the host would make
        return uncomputed.constant(params.shape, grad.dtype), None
    host, batch_dims = np.zeros(params.shape, grad.numpy().dtype), op.attrs.get("batch_dims", 0)
    idx, upstream = indices.numpy(), grad.numpy()
    for batch in np.ndindex(tuple(params.shape)[:batch_dims]):  # one gather per batch entry
        _scatter_add(host[batch], idx[batch].reshape(-1), upstream[batch], axis % len(params.shape) - batch_dims)
    return constant(host), None


def _scatter_add(host, idx, upstream, axis):
    """Add the slices of ``upstream`` gathered along ``axis`` back to where they were read from."""
    moved = np.moveaxis(upstream, axis, 0).reshape((len(idx),) + tuple(np.delete(host.shape, axis)))
    np.add.at(np.moveaxis(host, axis, 0), idx, moved)


@gradient("StridedSlice")
def _strided_slice_grad(op, grad):
    x = op.inputs[0]
    if not context().eager:
        return (_strided_slice_grad_graph(op, grad),)
    if not uncomputed.computed(grad):  # --compute none: the constant the host would make
        return (uncomputed.constant(x.shape, grad.dtype),)
    host = np.zeros(x.shape, grad.numpy().dtype)
    key = indexing_ops.index_of(op.attrs)
    host[key] = np.reshape(grad.numpy(), host[key].shape)
    return (constant(host),)


@gradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    softmax = math_ops.exp(op.outputs[0])
    return (math_ops.subtract(grad, math_ops.multiply(math_ops.reduce_sum(grad, -1, keepdims=True), softmax)),)


@gradient("LinSpace")
def _linspace_grad(op, grad):
    """TensorFlow's ``linspace`` is a composite (``start + i * (stop - start) / (num - 1)`` between the
    ends themselves), differentiable in both ends; devtrace's one op takes their gradients from the
    weights ``i / (num - 1)`` of ``stop`` (0 at ``start``, 1 at ``stop``; one point: ``start`` alone)."""
    num = int(op.attrs["num"])
    weights = np.linspace(0.0, 1.0, num) if num > 1 else np.zeros(num)
    grad_stop = math_ops.reduce_sum(math_ops.multiply(grad, constant(weights.astype(grad.dtype.as_numpy_dtype))))
    return math_ops.subtract(math_ops.reduce_sum(grad), grad_stop), grad_stop


gradient("Fill")(lambda op, grad: (math_ops.reduce_sum(grad),))  # the value's: every element's
not_differentiable("Shape", "Equal", "NotEqual", "ArgMax", "ArgMin", "OneHot", "ZerosLike", "OnesLike",
                   "Range", "LogicalAnd", "LogicalOr", "LogicalNot", "IsNan", "IsFinite", "Floor", "Ceil",
                   "Round", "FloorDiv", "Where")
