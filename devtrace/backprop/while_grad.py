"""The gradient of ``tf.while_loop`` inside a ``tf.function`` (TensorFlow's while_v2 gradient).

One more ``While`` node, ``<while>_grad``, whose loop variables are a counter
(``gradient_tape/while/grad_counter``), the forward loop's ``maximum_iterations`` and trip count
(its counter's output), and the gradients of the loop variables and captures that have one; its
body is the symbolic gradient of the forward body (:mod:`graph_gradients`), its condition
``counter < trip count``. A forward intermediate the gradient body uses is accumulated: the
forward node gets one more loop variable, an ``EmptyTensorList`` made next to it
(``<tensor>_0/accumulator``), its body a ``TensorListPushBack`` of the value each iteration, and
the gradient body pops one each iteration (``TensorListPopBack``, in the scope of the op reading
it). Captures of the forward body (loop invariants) are read from the node's outputs for them,
constants made again.
"""

from __future__ import annotations

import numpy as np

from .backprop import _trainable
from .cond_grad import input_grads
from .graph_gradients import GradientGraph, gradients
from ..ops.array import array_ops
from ..ops.control_flow import control_flow_v2
from ..ops.declare import gradient, with_host_inputs
from ..runtime import dtypes
from ..runtime.eager.executor import execute
from ..runtime.graph.func_graph import FuncGraph
from ..runtime.graph.graph import get_default_graph
from ..runtime.graph.operation import add_consumer
from ..runtime.graph.tensor import SymbolicTensor


class _GradBody(GradientGraph):
    """The gradient's loop body: forward intermediates are popped from accumulators."""

    def _forward_value(self, tensor):
        while tensor._op.type == "Identity":  # identities are not accumulated: their inputs are
            tensor = tensor._op._inputs[0]
        if id(tensor) not in self._values:
            self._values[id(tensor)] = self._read(tensor)
        return self._values[id(tensor)]

    def _read(self, tensor):
        body, positions = self.node._attrs["body"]
        n = self.node._attrs["num_loop_vars"]
        place = next((k for (_, p), k in zip(body.outer_captures, positions) if p is tensor), None)
        if place is not None:  # a loop invariant: the node's output for it
            return FuncGraph.capture_symbolic(self, self.node._outputs[n + place])
        if tensor._op.type == "Const":
            return self.constant_like(tensor)
        index = _accumulator(self.node, tensor)  # (adds the node's output first)
        handle = FuncGraph.capture_symbolic(self, self.node._outputs[index])
        with self.as_default(), self.name_scope(self.op_scope()):  # (the default: maybe a branch inside)
            with self.name_scope(self.unique_name("TensorListPopBack", False) + "/"):
                element_shape = array_ops.constant(np.int32(-1), dtypes.int32, name="element_shape")
            rest, value = execute("TensorListPopBack", (handle, element_shape),
                                  {"element_dtype": tensor.dtype.name, "element_shape": tensor._shape},
                                  dtype=dtypes.variant)
        self.carried.append((handle, rest))
        return value


def _element_shape(outer, shape, name):
    """TensorFlow's ``_build_element_shape``: a scalar's ``[]`` is converted first (``Const``),
    any other shape inside the op's scope (``<name>/element_shape``; ``-1``: unknown)."""
    if shape == ():
        return array_ops.constant(np.zeros(0, np.int32), dtypes.int32)
    value = -1 if shape is None else [-1 if d is None else d for d in shape]
    with outer.name_scope(outer.unique_name(name, False) + "/"):
        return array_ops.constant(np.asarray(value, np.int32), dtypes.int32, name="element_shape")


def _accumulator(node, tensor) -> int:
    """The node's output accumulating ``tensor`` (a new loop variable, made on first use)."""
    done = node._attrs["body"][0].__dict__.setdefault("accumulated", {})  # id(tensor) -> node output
    if id(tensor) in done:
        return done[id(tensor)]
    outer = node._graph
    name = tensor.name.replace(":", "_") + "/accumulator"
    with outer.as_default():
        element_shape = _element_shape(outer, tensor._shape, name)
        empty = execute("EmptyTensorList", (element_shape, node._inputs[1]), {"element_dtype": tensor.dtype.name},
                        name=name, dtype=dtypes.variant)
    index = len(node._inputs)
    node._inputs = tuple(node._inputs) + (empty,)
    add_consumer(empty._op, node._id)
    node._outputs = tuple(node._outputs) + (SymbolicTensor(node, index, dtypes.variant, ()),)
    node._attrs["output_specs"] = list(node._attrs["output_specs"]) + [(dtypes.variant, ())]
    place = index - node._attrs["num_loop_vars"]
    for key in ("cond", "body"):
        graph, positions = node._attrs[key]
        held = graph.capture_symbolic(empty)
        node._attrs[key] = (graph, list(positions) + [place])
        if key == "body":
            with graph.as_default():
                pushed = execute("TensorListPushBack", (held, tensor), {"element_dtype": tensor.dtype.name},
                                 dtype=dtypes.variant)
            graph.carried.append((held, pushed))
    done[id(tensor)] = index
    return index


def _body_ends(node, count: int) -> tuple[list, list]:
    """The forward body's inputs and outputs for the node's first ``count`` inputs (the loop
    variables, then the captures, which it passes on)."""
    n = node._attrs["num_loop_vars"]
    body, positions = node._attrs["body"]
    by_place = {k: p for (_, p), k in zip(body.outer_captures, positions)}
    captures = [by_place[k] for k in range(count - n)]
    return list(body.inputs) + captures, list(body.flat_outputs) + captures


def _initial(upstream, body_out, outer_input, output, variables):
    """TensorFlow's ``_preprocess_grad``: no gradient through what is not trainable; a variable's
    starts at zeros of the shape its handle (the node's ``output`` for it) reports."""
    if outer_input.dtype is not dtypes.resource:
        return upstream if _trainable(body_out) else None
    variable = variables.get(id(outer_input))
    if variable is None or not (variable.dtype.is_floating or variable.dtype.is_complex):
        return None
    dtype, static = variable.dtype, tuple(variable.shape)
    shape = execute("VariableShape", (output,), {"out_type": "int32", "variable_shape": static}, dtype=dtypes.int32)
    graph = get_default_graph()
    with graph.name_scope("zeros") as scope:
        zero = array_ops.constant(np.zeros((), dtype.as_numpy_dtype), dtype)
        return with_host_inputs("Fill", (zero,), (shape,), {"dims": static, "dtype": dtype.name}, scope, dtype)


def _grad_graphs(node, ys, xs, loop_vars):
    """The gradient's condition and body graphs over ``loop_vars``."""
    outer = get_default_graph()
    body = node._attrs["body"][0]
    grad_body = _GradBody(f"{body.name}_grad", outer, body, node)
    with grad_body.as_default():
        grad_body.inputs = [grad_body.placeholder(t.dtype, t._shape, "Placeholder") for t in loop_vars]
        counter, maximum, total, *seeds = grad_body.inputs
        grads = gradients(body, ys, xs, seeds)
        grads = [array_ops.zeros_like(x) if g is None else g for g, x in zip(grads, xs)]
        grad_body.flat_outputs = [array_ops.identity(t) for t in [counter + 1, maximum, total, *grads]]
    grad_cond = GradientGraph(f"{node._attrs['cond'][0].name}_grad", outer, None, node)
    with grad_cond.as_default():
        grad_cond.inputs = [grad_cond.placeholder(t.dtype, t._shape, "Placeholder") for t in loop_vars]
        grad_cond.flat_outputs = [array_ops.identity(grad_cond.inputs[0] < grad_cond.inputs[2])]
    return grad_cond, grad_body


def _while_grad(op, *upstream):
    node = op.outputs[0]._op
    count = node._attrs["num_original_outputs"]
    inputs = node._inputs[:count]
    handles = op.attrs.get("handles", [])  # a tape's record (not a loop inside a differentiated branch)
    variables = dict(zip((id(h) for h in handles), op.attrs.get("variables", [])))
    body_in, body_out = _body_ends(node, count)
    initial = [_initial(g, y, t, out, variables) for g, y, t, out in zip(upstream[:count], body_out, inputs,
                                                                            node._outputs)]
    kept = [k for k, g in enumerate(initial) if g is not None]
    if not kept:
        return [None] * len(op.inputs)
    counter = array_ops.constant(np.int32(0), dtypes.int32, name="grad_counter")
    loop_vars = [counter, node._inputs[1], node._outputs[0], *[initial[k] for k in kept]]
    grad_cond, grad_body = _grad_graphs(node, [body_out[k] for k in kept], [body_in[k] for k in kept], loop_vars)
    grad_node = control_flow_v2.loop_node(get_default_graph(), loop_vars, grad_cond, grad_body, node.name + "_grad")
    outputs = [array_ops.identity(t) for t in grad_node._outputs]
    by_input = dict(zip(kept, outputs[3:]))
    grads = input_grads(inputs, by_input, handles)
    return grads + [None] * (len(op.inputs) - len(grads))  # a replayed node's accumulators: none


gradient("StatelessWhile")(_while_grad)
gradient("While")(_while_grad)
