"""Symbolic gradients of a traced branch graph (TensorFlow's ``gradients_util._GradientsHelper``,
what a ``tf.cond``'s gradient differentiates its branches with).

The graph's nodes are replayed as tape records, from its placeholders ``xs``; the backward pass
is the tape's (:func:`backprop._backprop`), built in the default graph under ``gradients/``: each
upstream gradient enters as ``gradients/grad_ys_<i>``, a node's gradient is named
``gradients/<node>_grad/…`` and a sum ``gradients/AddN``, as TensorFlow names them.
"""

from __future__ import annotations

from .backprop import _backprop, _trainable, aggregate
from .ops import array_ops
from .runtime.context import context
from .runtime.eager.tape import Tape
from .runtime.graph.graph import get_default_graph


def _named_after(ctx, record):
    record.skip_input_indices = ()  # TensorFlow's symbolic gradients compute every input's
    return get_default_graph().name_scope(record.outputs[0]._op.name + "_grad")


def gradients(graph, ys, xs, grad_ys) -> list:
    """The gradient of ``ys`` (weighted by ``grad_ys``) for each placeholder of ``graph`` in
    ``xs`` (``None`` where it has none, or for an ``xs`` entry that is ``None``)."""
    tape = Tape(persistent=True, watch_accessed_variables=False)
    for x in xs:
        if x is not None:
            tape.watch(x)
    for op in graph._ops:
        if op._outputs and op.type != "Placeholder":
            tape.record(op.type, op._attrs, op._inputs, tuple(op._outputs), None)
    pairs = [(y, g) for y, g in zip(ys, grad_ys) if _trainable(y)]
    with get_default_graph().name_scope("gradients"):
        seeds = [array_ops.identity(g, name=f"grad_ys_{i}") for i, (_, g) in enumerate(pairs)]
        grads = _backprop(context(), tape, [y for y, _ in pairs], seeds, [x for x in xs if x is not None],
                          _named_after)
        return [aggregate(grads[id(x)]) if x is not None and grads.get(id(x)) else None for x in xs]
