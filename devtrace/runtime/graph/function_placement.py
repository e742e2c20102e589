"""A function body's placement as TensorFlow's placer logs it (``<node>: (<Op>): <device>``).

TensorFlow instantiates a traced function as a graph of its own before placing it: an ``_Arg``
node per input (the arguments, then the captured tensors and variable handles, named as the
function's input arguments: lower case, ``/`` → ``_``), the body's nodes in the order tracing
created them — the ``NoOp`` of its automatic control dependencies (``FuncGraph.add_control_output``)
just before the outputs that wait for it —, and a ``_Retval`` per output (``identity_RetVal``). The placer
visits them in that order but keeps nodes without inputs (constants) for a second pass, so
those come last.
"""

from __future__ import annotations

from ...trace import events as ev
from ..tensor import Tensor
from .operation import consumers_of
from .tensor import SymbolicTensor

# what TensorFlow calls an op's inputs, where a captured tensor's argument is named after it
_INPUT_NAMES = {"MatMul": ("a", "b"), "BatchMatMulV2": ("x", "y")}
# control-flow nodes: a first input of their own, then the list ``input`` (``cond_input_1``)
_LIST_INPUTS = {"If": "cond", "StatelessIf": "cond", "Case": "branch_index", "StatelessCase": "branch_index",
                "While": None, "StatelessWhile": None}


def _arg_name(name: str) -> str:
    return name.lower().replace("/", "_")


def _capture_name(graph, placeholder, value=None) -> str:
    """A captured tensor's argument: its first consumer's name and the input it feeds
    (``mul_y``, ``assignaddvariableop_resource``); for an enclosing function's tensor (a tf.data
    function's inside another's) the consumer's name and the tensor's (``add_args_0``)."""
    named = getattr(graph, "capture_names", {}).get(id(placeholder._op))
    if named is not None:
        return _arg_name(named)
    consumers = consumers_of(placeholder._op)
    if not consumers:
        return _arg_name(placeholder._op.name)
    consumer = graph._ops[consumers[0]]
    if consumer.type in ("PartitionedCall", "StatefulPartitionedCall"):  # captured for a tf.function it calls
        return "unknown"
    if isinstance(value, SymbolicTensor):
        return _arg_name(f"{consumer.name}/{value._op.name}")
    index = next(k for k, t in enumerate(consumer._inputs) if t is placeholder)
    if consumer.type in ("ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp") \
            and index == 0:
        input_name = "resource"
    elif consumer.type in _LIST_INPUTS:
        first = _LIST_INPUTS[consumer.type]
        input_name = first if first and index == 0 else f"input_{index - (1 if first else 0)}"
    else:
        names = _INPUT_NAMES.get(consumer.type) or (("x", "y") if len(consumer._inputs) == 2 else ("input",))
        input_name = names[index] if index < len(names) else f"input_{index}"
    return _arg_name(f"{consumer.name}/{input_name}")


def arg_names(graph) -> list:
    """``[(_Arg name, placeholder)]``: the function's arguments, then its captures."""
    args = [(t.name.split(":")[0], t) for t in graph.inputs]
    args += [(_capture_name(graph, node, value), node) for value, node in graph.captures.values()]
    named = [(_arg_name(name), t) for name, t in args]
    unknown = [k for k, (name, _) in enumerate(named) if name == "unknown"]  # captures for calls
    for n, k in enumerate(unknown[1:]):  # TensorFlow's: unknown, unknown_0, unknown_1 …
        named[k] = (f"unknown_{n}", named[k][1])
    return named


def flat_outputs(graph) -> list:
    """A function's output tensors (a branch's: ``flat_outputs``)."""
    return _flat(graph.outputs) if getattr(graph, "outer", None) is None else list(graph.flat_outputs)


def nodes(graph, devices, reasons, sinks: bool = False) -> list:
    """``[(node name, op type, device, reason)]`` in the order TensorFlow's placer logs them
    (``sinks``: tf.data's ``FakeSink<k>`` Identity per output before the ``_Retval``s)."""
    first = [(name, "_Arg", devices[t._op._id], reasons[t._op._id]) for name, t in arg_names(graph)]
    outputs = {t._op._id for t in _flat(graph.outputs)}
    control = graph.control_output  # placed once what it waits for ran, before the outputs waiting for it
    pending = control
    second = []
    for op in graph._ops:
        i = op._id
        if op.type == "Placeholder" or op is control:
            continue
        if not op._inputs and len(op._outputs) == 1:
            second.append((op.name, op.type, devices[i], reasons[i]))
            continue
        if i in outputs and pending is not None:
            first.append((pending.name, pending.type, devices[pending._id], reasons[pending._id]))
            pending = None
        first.append((op.name, op.type, devices[i], reasons[i]))
    if sinks:
        first += [(f"FakeSink{k}", "Identity", devices[i], ev.COLOCATED) for k, i in enumerate(sorted(outputs))]
    first += [(f"{_arg_name(graph._ops[i].name)}_RetVal", "_Retval", devices[i], ev.COLOCATED)
              for i in sorted(outputs)]
    return first + second


def _flat(structure) -> list:
    if isinstance(structure, Tensor):
        return [structure]
    if isinstance(structure, dict):
        return [t for k in sorted(structure) for t in _flat(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [t for item in structure for t in _flat(item)]
    return []
