"""The reduction of a broadcasting binary op's gradients to its inputs' shapes, after TensorFlow's
``SmartBroadcastGradientArgs``/``_ReduceGradientArg``: eagerly from the static shapes; in a graph
from each input's ``array_ops.shape`` (a ``Const`` when fully known, else a ``Shape`` node), its
reduction axes inferred statically when the known dims decide them, else computed when the graph
runs by a ``BroadcastGradientArgs`` node (TensorFlow's op: ``s0``, ``s1`` → ``r0``, ``r1``)."""

from __future__ import annotations

from ...runtime.context import context
from ...runtime.dtypes import int32, int64
from ...runtime.eager.executor import execute
from . import array_ops
from ..math import math_ops
from ..declare import graph_shape, on_host, op, with_host_inputs


def _broadcast_gradient_args(xp, s0, s1):
    """TensorFlow's BCast: no reduction for identical shapes; else, the shapes right-aligned (padded
    with ones), an axis is reduced for the input whose dim is 1 (for both when both are 1)."""
    a, b = on_host(xp, s0).tolist(), on_host(xp, s1).tolist()
    r0, r1 = [], []
    if a != b:
        rank = max(len(a), len(b))
        pa, pb = [1] * (rank - len(a)) + a, [1] * (rank - len(b)) + b
        for axis, (da, db) in enumerate(zip(pa, pb)):
            if da != db and da != 1 and db != 1:
                raise ValueError(f"Incompatible shapes: [{','.join(map(str, a))}] vs. [{','.join(map(str, b))}]")
            if da == 1:
                r0.append(axis)
            if db == 1:
                r1.append(axis)
    return xp.asarray(r0, s0.dtype), xp.asarray(r1, s1.dtype)


def _outputs_shape(name, shapes, attrs, dtype):
    return [(dtype, (None,)), (dtype, (None,))], None


op("BroadcastGradientArgs", _broadcast_gradient_args, {int32.name, int64.name}, shape=_outputs_shape,
   multi=True)


def broadcast_gradient_args(s0, s1, name=None):
    """``gen_array_ops.broadcast_gradient_args``: the axes to reduce each input's gradient over."""
    return execute("BroadcastGradientArgs", (s0, s1), name=name)


def _shape(x, name):
    """``array_ops.shape(x)`` in a gradient: a ``Const`` when fully known, else a ``Shape`` node."""
    shape = graph_shape(x, name)
    return array_ops.shape(x) if shape is None else shape


def _infer_axes(sx, sy):
    """TensorFlow's ``_InferGradientReductionAxes``: each input's broadcast axes from the static
    shapes, ``None`` when an unknown dim (or rank) leaves it to the graph's run."""
    if sx is None or sy is None:
        return None
    rank = max(len(sx), len(sy))
    px, py = (1,) * (rank - len(sx)) + sx, (1,) * (rank - len(sy)) + sy
    x_axes, y_axes = [], []
    for axis, (dx, dy) in enumerate(zip(px, py)):
        if dx == 1 and dy != 1:
            x_axes.append(axis)
        elif dy == 1 and dx != 1:
            y_axes.append(axis)
        elif dx is None or dy is None:
            return None
    return x_axes, y_axes


def _dims(t):
    return None if t.shape.rank is None else tuple(t.shape)


def reduce_args(op, gx, gy, reduce_to):
    """TensorFlow's ``_ReduceGradientArgs`` (``reduce_to(grad, shape)``: the eager, static one)."""
    x, y = op.inputs
    if gx is None and gy is None:
        return gx, gy
    if context().eager:
        return (None if gx is None else reduce_to(gx, x.shape)), (None if gy is None else reduce_to(gy, y.shape))
    x_shape, y_shape = _shape(x, "Shape"), _shape(y, "Shape_1")
    sx, sy = _dims(x), _dims(y)
    axes = _infer_axes(sx, sy)
    if axes is None:
        x_axes, y_axes = broadcast_gradient_args(x_shape, y_shape)
        return _reduced(gx, x_shape, x_axes, sx), _reduced(gy, y_shape, y_axes, sy)
    x_axes, y_axes = axes
    gx = gx if not (x_axes or len(sx) < len(sy)) else _reduced(gx, x_shape, x_axes, sx)
    gy = gy if not (y_axes or len(sy) < len(sx)) else _reduced(gy, y_shape, y_axes, sy)
    return gx, gy


def _reduced(grad, shape, axes, static):
    """``_ReduceGradientArg``: ``Sum`` with ``keepdims`` over ``axes`` (a list: its
    ``Sum/reduction_indices`` Const; a tensor: known when the graph runs), reshaped to ``shape``."""
    if grad is None:
        return grad
    if isinstance(axes, list):
        grad = math_ops.reduce_sum(grad, axes, keepdims=True)
    else:
        grad = with_host_inputs("Sum", (grad,), (axes,), {"axis": (None,), "keepdims": True})
    hint = None if static is None else tuple(-1 if d is None else d for d in static)
    return with_host_inputs("Reshape", (grad,), (shape,), {"shape": hint})

