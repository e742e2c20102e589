"""A ``tf.function`` called while another is traced: one call node in the caller's graph, as
TensorFlow 2.21 builds it — ``PartitionedCall`` (``StatefulPartitionedCall`` when the callee holds a
stateful op or reads a variable) whose function is the callee traced into a graph of its own (its
arguments' placeholders, then the caller's tensors it captures). Before placing the caller TensorFlow
inlines the call (``Func/PartitionedCall/input/_0``, ``PartitionedCall/<node>``, ``Func/PartitionedCall/
output/_1`` …: ``runtime/graph/lowering.py``); devtrace runs the callee's graph as a cond branch is run
(``runtime/graph/function_run.py``).

A call traced under a recording ``GradientTape`` is still inlined: devtrace has no gradient of a call
node yet (TensorFlow's is a second call, of the callee's backward function).
"""

from __future__ import annotations

import itertools

from ..ops.control_flow import control_flow_v2 as cf
from ..runtime.graph.func_graph import FuncGraph
from ..runtime.tensor import Tensor
from ..util.nest import flatten, pack_sequence_as

_UIDS = itertools.count(1)


def supported(ctx, outer, args, kwargs) -> bool:
    """A call node for this call: traced in a function graph, no tape recording, no composite
    (ragged, sparse, extension type) argument."""
    if not isinstance(outer, FuncGraph) or ctx.tapes:
        return False
    return all(isinstance(v, Tensor) or not hasattr(v, "_type_spec") for v in flatten((args, kwargs)))


def call(function, outer: FuncGraph, args, kwargs, traced_function, key):
    """The call node of ``function`` on ``args``/``kwargs`` in ``outer``; its outputs in the structure
    the callee returns (its Python values as they are). ``key``: the call's signature — a second call
    of one signature in ``outer`` (under the same device scope) reuses the trace, as TensorFlow's cache."""
    flat = flatten((list(args), kwargs))
    tensors = [cf._symbolic(outer, v) for v in flat if isinstance(v, Tensor)]
    traces = outer.__dict__.setdefault("_call_traces", {})
    key = (id(function), key, tuple(outer._device_stack))
    if key not in traces:
        traces[key] = (function, _trace(function, outer, args, kwargs, flat, tensors, traced_function))
    graph, result, results, static = traces[key][1]
    captured, (positions,) = cf._node_inputs(graph)
    kind = "StatefulPartitionedCall" if cf._stateful(graph) or graph.variables else "PartitionedCall"
    attrs = {"f": (graph, positions), "n_args": len(tensors), "output_specs": cf._specs(graph)}
    first = (tensors + captured)[0] if tensors or captured else None
    node = outer._create_op(kind, tuple(tensors + captured), attrs, None, first._dtype if first is not None else None)
    outputs = iter(node._outputs)
    return pack_sequence_as(result, [v if k in static else next(outputs) for k, v in enumerate(results)])


def _trace(function, outer, args, kwargs, flat, tensors, traced_function) -> tuple:
    """The callee traced into a graph of its own: ``(graph, result, its flat values, static positions)``."""
    graph = FuncGraph(f"__inference_{function._name}_{next(_UIDS)}", outer=outer)
    graph._device_stack = list(outer._device_stack)
    graph._recompute_device()
    with graph.as_default():
        names = _names(function, args, kwargs)
        graph.inputs = [graph.placeholder(t.dtype, t._shape, n) for t, n in zip(tensors, names)]
        placeholders = iter(graph.inputs)
        inner_args, inner_kwargs = pack_sequence_as((list(args), kwargs), [next(placeholders) if isinstance(v, Tensor)
                                                                           else v for v in flat])
        result = traced_function(*inner_args, **inner_kwargs)
    results = flatten(result)
    static = {k for k, v in enumerate(results) if v is None or not isinstance(v, (Tensor, bool, int, float, str))}
    cf._set_outputs(graph, results, static)
    return graph, result, results, static


def _names(function, args, kwargs) -> list:
    """The callee's argument placeholders' names: its parameters' (``x``), a keyword's own."""
    names = function._parameter_names(len(args))
    out = [n for a, n in zip(args, names) for v in flatten(a) if isinstance(v, Tensor)]
    return out + [k for k in kwargs for v in flatten(kwargs[k]) if isinstance(v, Tensor)]
