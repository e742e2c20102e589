"""Gradients of the reductions ``Sum`` and ``Mean``, after TensorFlow's ``_SumGrad``/``_MeanGrad``:
the gradient reshaped to the kept dims and tiled back over the reduced ones — eagerly with
devtrace's host values, in a graph with the nodes TensorFlow builds (``Reshape/shape``, the
multiples' ``Const``, ``_SafeShapeDiv``'s ``Maximum``/``floordiv``)."""

from __future__ import annotations

import weakref

import numpy as np

from ...runtime.context import context
from ...runtime.graph.graph import get_default_graph
from ...runtime.values import constant
from ..array import array_ops, indexing_ops
from . import math_ops, reduction_ops
from ..declare import gradient, with_host_inputs
from .math_grad import _static


@gradient("Sum")
def _sum_grad(op, grad):
    """Reducing every dim: reshape to ones and ``Tile`` back, as TensorFlow does (its eager
    ``[1] * rank`` constant is cached per rank; in a graph the multiples are a ``Const``); otherwise,
    in a graph, reshape to the kept dims and tile; eagerly, broadcast the kept-dims gradient."""
    (x,) = op.inputs
    shape = tuple(x.shape)
    axis = op.attrs.get("axis")
    axes = range(len(shape)) if axis is None else ([axis] if isinstance(axis, int) else axis)
    reduced = {a % max(len(shape), 1) for a in axes}
    graph = not context().eager and None not in shape
    if len(reduced) == len(shape) and None in shape and not context().eager:  # the input's Shape at run time
        grad = array_ops.reshape(grad, [1] * len(shape))
        return (with_host_inputs("Tile", (grad,), (array_ops.shape(x),), {"multiples": shape}),)
    if len(reduced) == len(shape) and None not in shape:
        if graph:
            grad = array_ops.reshape(grad, [1] * len(shape))
            multiples = constant(np.array(shape, np.int32))
            return (with_host_inputs("Tile", (grad,), (multiples,), {"multiples": shape}),)
        grad = array_ops.reshape(grad, _ones_of_rank(len(shape)))
        return (array_ops.tile(grad, constant(np.array(shape, np.int32))),)
    kept = [1 if i in reduced else d for i, d in enumerate(shape)]
    if graph and kept != list(shape):
        _safe_shape_div(shape, kept, tuple(sorted(reduced)))
    grad = array_ops.reshape(grad, _static(kept)) if not op.attrs.get("keepdims") else grad
    if kept == list(shape):
        return (grad,)
    if graph:  # TensorFlow's static path: tile by the input's shape over the kept one
        return (array_ops.tile(grad, _tile_scaling(shape, kept)),)
    ones = array_ops.ones_like(x) if None in shape else array_ops.ones(list(shape), x.dtype)
    return (math_ops.multiply(grad, ones),)


_REDUCED_SHAPES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> {(shape, axes)}


def _safe_shape_div(shape, kept, axes) -> None:
    """The nodes TensorFlow's ``_SumGrad`` builds the first time a graph reduces ``shape`` over
    ``axes`` (``_SafeShapeDiv``: ``shape // maximum(kept, 1)``, evaluated in Python, its nodes left
    in the graph), once per graph and reduction, as its ``_reduced_shape_cache``."""
    seen = _REDUCED_SHAPES.setdefault(get_default_graph(), set())
    if (shape, axes) not in seen:
        seen.add((shape, axes))
        list(shape) // math_ops.maximum(kept, 1)


def _tile_scaling(shape, kept) -> list:
    return [d // max(k, 1) for d, k in zip(shape, kept)]


_ONES_RANK: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # context -> {rank: [1] * rank}


def _ones_of_rank(rank):
    cache = _ONES_RANK.setdefault(context(), {})
    if rank not in cache:
        cache[rank] = constant(np.ones(rank, np.int32))
    return cache[rank]


@gradient("Mean")
def _mean_grad(op, grad):
    (x,) = op.inputs
    (sum_grad,) = _sum_grad(op, grad)
    if None in tuple(x.shape):  # a function's unknown batch: the count from the input's Shape at run time
        return (sum_grad / array_ops.cast(_reduced_count(op), sum_grad.dtype),)
    count = max(int(np.prod(x.shape)) // max(int(np.prod(op.outputs[0].shape)), 1), 1)
    return (sum_grad / array_ops.constant(count, sum_grad.dtype),)  # TensorFlow's truediv


def _reduced_count(op):
    """TensorFlow's ``_MeanGrad`` for a shape not fully known: the product of the input's ``Shape``
    at the reduced axes (the forward node's axes input, made non-negative by the rank: a ``Size``
    Const), as it builds it."""
    x = op.inputs[0]
    input_shape = array_ops.shape(x)
    rank = array_ops.size(input_shape)
    node = getattr(op.outputs[0], "_op", None)
    if node is not None and node._n_host > 0:
        axes = array_ops.cast(node._inputs[-1], rank.dtype)
    else:
        axis = op.attrs.get("axis")
        axes = constant(np.arange(len(x.shape)) if axis is None else np.array(axis), rank.dtype)
    axes = (axes + rank) % rank
    return reduction_ops.reduce_prod(indexing_ops.gather(input_shape, axes))
