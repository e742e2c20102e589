"""Symbolic gradients of a traced branch graph (TensorFlow's ``gradients_util._GradientsHelper``,
what a ``tf.cond``'s gradient differentiates its branches with).

The graph's nodes are replayed as tape records, from its placeholders ``xs``; the backward pass
is the tape's (:func:`backprop._backprop`), built in the default graph under ``gradients/``: each
upstream gradient enters as ``gradients/grad_ys_<i>``, a node's gradient is named
``gradients/<node>_grad/…`` and a sum ``gradients/AddN``, as TensorFlow names them.
"""

from __future__ import annotations

from .backprop import _backprop, _trainable, aggregate
from ..ops.array import array_ops
from ..runtime import dtypes
from ..runtime.context import context
from ..runtime.eager.tape import Tape
from ..runtime.graph.func_graph import FuncGraph
from ..runtime.graph.graph import get_default_graph
from ..runtime.graph.host_consts import kernel_inputs
from ..runtime.graph.tensor import SymbolicTensor


class GradientGraph(FuncGraph):
    """The graph a control-flow node's gradient branch (or loop body) is built in: a tensor of the
    forward branch ``forward`` it uses stands for what ``_forward_value`` makes of it — read
    through the forward ``node`` — in the name scope of the op that reads it, as TensorFlow's
    capture runs inside the op's own scope (``…/mul_grad/Mul/OptionalGetValue``)."""

    def __init__(self, name, outer, forward, node):
        super().__init__(name, outer=outer)
        self.forward, self.node = forward, node
        self._device_stack = list(outer._device_stack)
        self._recompute_device()
        self._name_stack = outer._name_stack
        self._values: dict = {}  # id(forward tensor) -> what stands for it here
        self._op_scope = None  # the name of the op whose inputs are being captured

    def build(self, op_type, inputs, attrs, name, dtype, resource):
        if resource is not None or not any(isinstance(t, SymbolicTensor) and t._op._graph is self.forward
                                           for t in inputs):
            return super().build(op_type, inputs, attrs, name, dtype, resource)
        saved = self._op_scope
        self._op_scope = name[:-1] if name and name.endswith("/") else self.unique_name(name or op_type, False)
        try:
            return super().build(op_type, inputs, attrs, name, dtype, resource)
        finally:
            self._op_scope = saved

    def capture_symbolic(self, tensor) -> SymbolicTensor:
        if tensor._op._graph is not self.forward:
            return super().capture_symbolic(tensor)
        value = self._values.get(id(tensor))
        if value is None:
            value = self._values[id(tensor)] = self._forward_value(tensor)
        return value

    def op_scope(self) -> str | None:
        """The name scope of the op being built (else the graph's)."""
        scope = self._op_scope or self._name_stack
        return scope + "/" if scope else None

    def constant_like(self, tensor):
        """A forward ``Const`` made again here (TensorFlow copies constants instead of reading them)."""
        with self.name_scope(self.op_scope()):
            return self._create_const(tensor._op._attrs["value"], tensor._dtype)

    def _forward_value(self, tensor):
        raise NotImplementedError


def _named_after(ctx, record):
    record.skip_input_indices = ()  # TensorFlow's symbolic gradients compute every input's
    return get_default_graph().name_scope(record.outputs[0]._op.name + "_grad")


def gradients(graph, ys, xs, grad_ys, stop=()) -> list:
    """The gradient of ``ys`` (weighted by ``grad_ys``) for each placeholder of ``graph`` in
    ``xs`` (``None`` where it has none, or for an ``xs`` entry that is ``None``); the ops making a
    tensor of ``stop`` are left out (``tf.gradients``' ``stop_gradients``: they are constants)."""
    tape = Tape(persistent=True, watch_accessed_variables=False)
    for x in xs:
        if x is not None:
            tape.watch(x)
    stopped = {id(t) for t in stop}
    for op in graph._ops:
        if any(id(out) in stopped for out in op._outputs):
            continue
        if op._outputs and op.type != "Placeholder":
            tape.record(op.type, op._attrs, kernel_inputs(op), tuple(op._outputs), None)
    # (a loop's variable handle too: its gradient is the sum of the reads')
    pairs = [(y, g) for y, g in zip(ys, grad_ys) if _trainable(y) or y.dtype is dtypes.resource]
    with get_default_graph().name_scope("gradients"):
        seeds = [array_ops.identity(g, name=f"grad_ys_{i}") for i, (_, g) in enumerate(pairs)]
        grads = _backprop(context(), tape, [y for y, _ in pairs], seeds, [x for x in xs if x is not None],
                          _named_after)
        return [aggregate(grads[id(x)]) if x is not None and grads.get(id(x)) else None for x in xs]
