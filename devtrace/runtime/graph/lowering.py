"""A function's control flow as TensorFlow places it: lowered and inlined.

Before the placer runs on a function graph, TensorFlow's ``LowerFunctionalOpsPass`` rewrites every
``If``/``StatelessIf``, ``Case``/``StatelessCase`` and ``While``/``StatelessWhile`` node into the
TF1 control-flow primitives (``lower_if_op.cc``, ``lower_case_op.cc``, ``lower_while_op.cc``:
``Switch``/``_SwitchN``, ``Merge``, ``Enter``, ``LoopCond``, ``Exit``, ``NextIteration``) around one
function call per branch (or per loop condition and body), and inlines each call
(``inline_function_utils.cc``): ``Func/<call>/input/_N`` identities for its arguments, the branch's
nodes named ``<call>/<node>``, ``Func/<call>/output/_N`` identities for its results, control
``NoOp``s, and a ``NoOp`` named as the call. New names get the graph's ``/_N`` counter; nodes are
visited in id order, so nested control flow is lowered after the body holding it is inlined.

:func:`lowered` builds that graph from devtrace's function graph (its ``If``/``Case``/``While``
nodes keep their branches as ``FuncGraph``s) and places it with the graph placer: the placement log
of a function with control flow, and the devices its branches' nodes run on.
"""

from __future__ import annotations

import heapq

from ..registry import REGISTRY
from . import placer
from .function_placement import arg_names, flat_outputs
from .graph import GENERATOR
from .operation import consumers_of

IF_OPS = frozenset(("If", "StatelessIf"))
CASE_OPS = frozenset(("Case", "StatelessCase"))
WHILE_OPS = frozenset(("While", "StatelessWhile"))
CALL_OPS = frozenset(("PartitionedCall", "StatefulPartitionedCall"))  # a tf.function called in another's trace
CONTROL_FLOW = IF_OPS | CASE_OPS | WHILE_OPS | CALL_OPS
# the lowering's own nodes: the placer sees them with every dtype (their kernels take any)
_STRUCTURAL = frozenset(("Switch", "_SwitchN", "Merge", "Enter", "Exit", "NextIteration", "LoopCond", "NoOp"))


class _Out:
    """An input edge as the placer reads it."""

    __slots__ = ("_op", "_index", "_dtype")

    def __init__(self, node, index):
        self._op, self._index, self._dtype = node, index, node.dtype


class _Node:
    __slots__ = ("_id", "name", "type", "shown", "_device", "_kernel_dtype", "_inputs", "_consumers",
                 "_colocation", "_kind", "_control_inputs", "inputs", "n_out", "dtype", "source", "assigned",
                 "call", "removed")


class _Graph:
    """The instantiated function graph being lowered: nodes in id order, TensorFlow's name counter."""

    def __init__(self):
        self.nodes: list = []
        self.counter = 0

    def new_name(self, prefix: str) -> str:
        name = f"{prefix}/_{self.counter}"
        self.counter += 1
        return name

    def add(self, name, shown, inputs=(), device="", kind=None, n_out=1, dtype=None, colocation=None,
            source=None, assigned=None, call=None, kernel_dtype=None) -> _Node:
        node = _Node()
        node.name, node.shown, node.type = name, shown, kind or shown
        node.inputs = list(inputs)
        node._device, node.n_out, node.dtype = device, n_out, dtype
        node._colocation, node.source, node.assigned, node.call = colocation, source, assigned, call
        node._kernel_dtype, node.removed, node._control_inputs = kernel_dtype, False, ()
        self.nodes.append(node)
        return node

    def rewire(self, old, index, new, new_index) -> None:
        """Consumers of ``old:index`` read ``new:new_index`` instead."""
        for node in self.nodes:
            if not node.removed:
                node.inputs = [(new, new_index) if s is old and k == index else (s, k) for s, k in node.inputs]


def _requested(node) -> str:
    """What a node asks for: its assigned device when it has one (``InputDevices``)."""
    return node.assigned.name if node.assigned is not None else node._device


# -- instantiation ---------------------------------------------------------------------------
def _body(g: _Graph, fgraph, args: dict, prefix: str, device: str) -> dict:
    """Add ``fgraph``'s nodes (placeholders: ``args`` ``{op id: (node, index)}``); returns
    ``{op id: node}``. ``prefix``: the call's name and ``/`` (inlined), ``device``: the caller's."""
    made = dict(args)
    outputs = {t._op._id for t in flat_outputs(fgraph)}
    # automatic control dependencies' NoOp, before the first output: the function's own node; a
    # branch with a stateful op gets one named in its scope
    control = fgraph.control_output
    pending = control is not None if fgraph.outer is None else any(
        op.type != "Placeholder" and op.type in REGISTRY and REGISTRY[op.type].stateful for op in fgraph._ops)
    scope = fgraph._name_stack + "/" if fgraph.outer is not None and fgraph._name_stack else ""
    names = {op.name for op in fgraph._ops}
    for op in constructed_order(fgraph._ops):
        if op.type == "Placeholder" or op is control:
            continue
        if op._id in outputs and pending:
            g.add(prefix + (control.name if control is not None else scope + "NoOp"), "NoOp",
                  device=(control._device if control is not None else "") or device, n_out=0)
            pending = False
        inputs = [_edge(made, t) for t in op._inputs]
        colocation = tuple(prefix + c if c in names else c for c in op._colocation) if op._colocation else None
        n_out = len(op._outputs)
        node = g.add(prefix + op.name, op.type, inputs, op._device or device, n_out=n_out,
                     dtype=op._outputs[0]._dtype if n_out else None, colocation=colocation, source=(fgraph, op),
                     kernel_dtype=op._kernel_dtype)
        node.call = op if op.type in CONTROL_FLOW else None
        made[op._id] = node
    return made


def constructed_order(ops: list) -> list:
    """The nodes in the order TensorFlow's GraphConstructor adds a function's nodes: the ready node
    (its data inputs added) made first, first — creation order, but a node made after a consumer it
    feeds (a while gradient's accumulator, fed to the forward loop) comes before that consumer."""
    if all(t._op._id < op._id for op in ops for t in op._inputs):
        return ops
    pending = [len(op._inputs) for op in ops]
    consumers: list = [[] for _ in ops]
    for op in ops:
        for t in op._inputs:
            consumers[t._op._id].append(op._id)
    ready = [op._id for op in ops if not pending[op._id]]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(ops[i])
        for c in consumers[i]:
            pending[c] -= 1
            if not pending[c]:
                heapq.heappush(ready, c)
    return order


def _edge(made: dict, t) -> tuple:
    """The lowered edge for tensor ``t``: an argument's identity, or a node's output."""
    src = made[t._op._id]
    return src if isinstance(src, tuple) else (src, t._index)


def _instantiate(graph, devices) -> tuple:
    """The function's graph as TensorFlow instantiates it: ``_Arg`` per argument and capture,
    the body, ``_Retval`` per output."""
    g = _Graph()
    args = {}
    for name, placeholder in arg_names(graph):
        node = g.add(name, "_Arg", kind="Placeholder", dtype=placeholder._dtype,
                     assigned=devices[placeholder._op._id], kernel_dtype=placeholder._op._kernel_dtype)
        args[placeholder._op._id] = (node, 0)
    made = _body(g, graph, args, "", "")
    for i in sorted({t._op._id for t in flat_outputs(graph)}):
        src = _edge(made, graph._ops[i]._outputs[0])[0]
        g.add(f"{graph._ops[i].name.lower().replace('/', '_')}_RetVal", "_Retval", [(src, 0)], kind="Identity",
              n_out=0, colocation=(src.name,))
    return g


# -- inlining ----------------------------------------------------------------------------------
def _inline(g: _Graph, call: _Node, control_input=True) -> None:
    """``InlineFunctionBody`` of a lowering's call node (multi-device, kept targetable); a call with
    no control input (a tf.function's) has no ``input_control_node``."""
    fgraph, slots, extra = call.call
    name, device = call.name, call._device
    if control_input:
        g.add(g.new_name(f"Func/{name}/input_control_node"), "NoOp", device=device, n_out=0)
    inputs = []
    for src, k in call.inputs:
        inputs.append(g.add(g.new_name(f"Func/{name}/input"), "Identity", [(src, k)], _requested(src),
                            dtype=src.dtype, colocation=(src.name,)))
    args = {op_id: (inputs[a], 0) for op_id, a in slots.items()}
    made = _body(g, fgraph, args, name + "/", device)
    results = []
    for t in flat_outputs(fgraph):
        results.append(_edge(made, t))
    # captures pass through a loop body, or leave changed (a while gradient's accumulators: ``carried``)
    carried = {p._op._id: t for p, t in fgraph.carried}
    by_arg = {a: op_id for op_id, a in slots.items()}
    results += [_edge(made, carried[by_arg[a]]) if by_arg.get(a) in carried else (inputs[a], 0) for a in extra]
    outputs = [g.add(g.new_name(f"Func/{name}/output"), "Identity", [r], dtype=r[0].dtype, colocation=(r[0].name,))
               for r in results]
    g.add(g.new_name(f"Func/{name}/output_control_node"), "NoOp", device=device, n_out=0)
    g.add(name, "NoOp", device=device, n_out=0)
    for k, out in enumerate(outputs):
        g.rewire(call, k, out, 0)
    call.removed = True


def _call(g: _Graph, name: str, device: str, inputs, fgraph, slots: dict, extra=(), n_out=0) -> _Node:
    return g.add(name, "PartitionedCall", inputs, device, kind="Call", n_out=n_out, call=(fgraph, slots, list(extra)))


def _slots(fgraph, positions, first: int, n_args=0) -> dict:
    """``{placeholder op id: call argument}``: the graph's arguments, then its captures."""
    slots = {t._op._id: k for k, t in enumerate(fgraph.inputs[:n_args])}
    slots.update({node._op._id: first + p for (_, node), p in zip(fgraph.outer_captures, positions)})
    return slots


# -- lowering ----------------------------------------------------------------------------------
def _lower_branches(g: _Graph, node: _Node, branches: list, labels: list, switch: str) -> None:
    """``lower_if_op.cc`` / ``lower_case_op.cc``: switches, one call per branch, merges."""
    op, name, device = node.call, node.name, node._device
    names = [g.new_name(f"{name}/{label}") for label in labels]
    pred = node.inputs[0]
    n = len(branches)
    selector = g.add(g.new_name(f"{name}/{'switch_pred' if switch == 'Switch' else 'branch_index'}"), switch,
                     [pred, pred], device, n_out=max(n, 2), dtype=pred[0].dtype)
    pivots = [g.add(g.new_name(f"{name}/{p}"), "Identity", [(selector, k)], device, dtype=pred[0].dtype)
              for k, p in ([(0, "pivot_f"), (1, "pivot_t")] if switch == "Switch"
                           else [(k, f"pivot_{k}") for k in range(n)])]
    switches = [g.add(g.new_name(f"{name}/{src.name}"), switch, [(src, k), pred], src._device, n_out=max(n, 2),
                      dtype=src.dtype) for src, k in node.inputs[1:]]
    order = [1, 0] if switch == "Switch" else list(range(n))  # then takes the true output
    calls = [_call(g, names[b], device, [(s, order[b]) for s in switches], graph, _slots(graph, pos, 0),
                   n_out=len(op._outputs)) for b, (graph, pos) in enumerate(branches)]
    merges = [g.add(g.new_name(f"{name}/{'output' if switch == 'Switch' else 'merge'}"), "Merge",
                    [(c, k) for c in calls], device, n_out=2, dtype=op._outputs[k]._dtype)
              for k in range(len(op._outputs))]
    g.add(g.new_name(f"{name}/branch_executed"), "Merge", [(p, 0) for p in pivots], device, n_out=2)
    g.add(name, "NoOp", device=device, n_out=0)
    for k, merge in enumerate(merges):
        g.rewire(node, k, merge, 0)
    node.removed = True


def _lower_while(g: _Graph, node: _Node) -> None:
    """``lower_while_op.cc``: Enter/Merge per loop input (resources: an Enter only), the condition
    call, LoopCond, Switch/Exit/NextIteration, the body call."""
    op, name, device = node.call, node.name, node._device
    cond_name, body_name = g.new_name(f"{name}/cond"), g.new_name(f"{name}/body")
    resource = [src.dtype is not None and src.dtype.name == "resource" for src, _ in node.inputs]
    enters = [g.add(g.new_name(f"{name}/enter"), "Enter", [(src, k)], src._device, dtype=src.dtype,
                    assigned=src.assigned) for src, k in node.inputs]
    if _ordered_after(op):  # automatic control dependencies: the loop waits for an earlier use of a resource
        g.add(g.new_name(f"{name}/LoopControlInputs"), "NoOp", device=device, n_out=0)
    merges = {i: g.add(g.new_name(f"{name}/merge"), "Merge", [(e, 0), (e, 0)], e._device, n_out=2, dtype=e.dtype,
                       assigned=e.assigned) for i, e in enumerate(enters) if not resource[i]}
    (cond, cond_pos), (body, body_pos) = op._attrs["cond"], op._attrs["body"]
    n = op._attrs["num_loop_vars"]
    loop_in = [(merges[i], 0) if i in merges else (enters[i], 0) for i in range(len(enters))]
    call = _call(g, cond_name, device, loop_in, cond, _slots(cond, cond_pos, n, n), n_out=1)
    loop_cond = g.add(g.new_name(f"{name}/LoopCond"), "LoopCond", [(call, 0)], device)
    switches = {i: g.add(g.new_name(f"{name}/{node.inputs[i][0].name}_switch"), "Switch",
                         [(m, 0), (loop_cond, 0)], m._device, n_out=2, dtype=m.dtype, assigned=m.assigned)
                for i, m in merges.items()}
    body_in = [(switches[i], 1) if i in switches else (enters[i], 0) for i in range(len(enters))]
    body_call = _call(g, body_name, device, body_in, body, _slots(body, body_pos, n, n),
                      extra=range(n, len(enters)), n_out=len(enters))
    first = next(iter(switches.values()))
    g.add(g.new_name(f"{name}/loop_body_control"), "Identity", [(first, 1)], device, dtype=first.dtype)
    exits = {i: g.add(g.new_name(f"{name}/exit"), "Exit", [(s, 0)], s._device, dtype=s.dtype, assigned=s.assigned)
             for i, s in switches.items()}
    g.add(g.new_name(f"{name}/LoopExecuted"), "NoOp", device=device, n_out=0)
    g.add(name, "NoOp", device=device, n_out=0)
    for i, m in merges.items():
        g.add(g.new_name(f"{name}/next_iteration"), "NextIteration", [(body_call, i)], m._device, dtype=m.dtype,
              assigned=m.assigned)
    for i in range(len(enters)):
        if i in exits:
            g.rewire(node, i, exits[i], 0)
        else:
            g.rewire(node, i, *node.inputs[i])
    node.removed = True


def _inner(op, k: int) -> list:
    """The placeholders standing for a control-flow node's input ``k`` in its branches."""
    attrs = op._attrs
    if op.type in WHILE_OPS:
        n = attrs["num_loop_vars"]
        pairs = [attrs["cond"], attrs["body"]]
        first = n
        loop = [g.inputs[k] for g, _ in pairs if k < n]
    elif op.type in CALL_OPS:
        n = attrs["n_args"]
        pairs = [attrs["f"]]
        first = n
        loop = [attrs["f"][0].inputs[k]] if k < n else []
    else:
        pairs = attrs["branches"] if op.type in CASE_OPS else [attrs["then_branch"], attrs["else_branch"]]
        first, loop = 1, []
    return loop + [node for g, pos in pairs for (_, node), p in zip(g.outer_captures, pos) if first + p == k]


def _writes(op, k: int) -> bool:
    """Whether a node writes the resource at its input ``k`` (TensorFlow's read-only resource inputs)."""
    if op.type == "ReadVariableOp":
        return False
    if op.type not in CONTROL_FLOW:
        return True
    for placeholder in _inner(op, k):
        graph = placeholder._op._graph
        for c in consumers_of(placeholder._op):
            consumer = graph._ops[c]
            if any(_writes(consumer, j) for j, t in enumerate(consumer._inputs) if t is placeholder):
                return True
    return False


def _ordered_after(op) -> bool:
    """TensorFlow's automatic control dependencies give ``op`` a control input: an earlier node
    wrote a resource it uses, or used a resource it writes."""
    graph = op._graph
    mine = {id(t): _writes(op, k) for k, t in enumerate(op._inputs) if t._dtype.name == "resource"}
    for other in graph._ops[:op._id]:
        for k, t in enumerate(other._inputs):
            if id(t) in mine and (mine[id(t)] or _writes(other, k)):
                return True
    return False


def _lower(g: _Graph) -> None:
    """``LowerFunctionalOpsPass::Run``: every node in id order, new ones included."""
    i = 0
    while i < len(g.nodes):
        node = g.nodes[i]
        i += 1
        if node.removed or node.call is None:
            continue
        if node.type == "Call":
            _inline(g, node)
        elif node.type in CALL_OPS:
            graph, positions = node.call._attrs["f"]
            n = node.call._attrs["n_args"]
            node.call = (graph, _slots(graph, positions, n, n), [])
            _inline(g, node, control_input=False)
        elif node.type in IF_OPS:
            _lower_branches(g, node, [node.call._attrs["then_branch"], node.call._attrs["else_branch"]],
                            ["then", "else"], "Switch")
        elif node.type in CASE_OPS:
            branches = node.call._attrs["branches"]
            _lower_branches(g, node, branches, [f"branch{k}" for k in range(len(branches))], "_SwitchN")
        else:
            _lower_while(g, node)


# -- placement ---------------------------------------------------------------------------------
class _Placeable:
    """The lowered graph as the placer reads a graph."""

    def __init__(self, nodes):
        self._ops = nodes
        self._by_name = {n.name: n for n in nodes}
        self._ref_consumers: list = []
        self._colocated = [n._id for n in nodes if n._colocation]
        self._colocation_targets = {c for n in nodes if n._colocation for c in n._colocation}


def lowered(graph, devices, ctx_devices) -> tuple:
    """``([(node, op type, requested, Device, reason)] in the order the placer logs them,
    {id(branch op): Device})`` for a function graph with control flow."""
    g = _instantiate(graph, devices)
    _lower(g)
    nodes = [n for n in g.nodes if not n.removed]
    for k, n in enumerate(nodes):
        n._id = k
        n._consumers = None
    for n in nodes:
        n.inputs = [(s, k) for s, k in n.inputs if not s.removed]
        n._inputs = tuple(_Out(s, k) for s, k in n.inputs)
        for s, _ in n.inputs:
            s._consumers = [n._id] if s._consumers is None else s._consumers + [n._id]
        n._kind = GENERATOR if not n.inputs and n.n_out == 1 else 0
        if n.type in _STRUCTURAL:
            n._kernel_dtype = None
    placed = placer.place(_Placeable(nodes), ctx_devices, allow_soft_placement=True,
                          assigned={n._id: n.assigned for n in nodes if n.assigned is not None},
                          tf1=False)
    lines = [(nodes[i].name, nodes[i].shown, nodes[i]._device, placed.devices[i], placed.reasons[i])
             for i in placed.order]
    where = {id(n.source[1]): placed.devices[n._id] for n in nodes if n.source is not None}
    return lines, where
