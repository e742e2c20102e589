"""``tf.cond`` and ``tf.while_loop`` inside a ``tf.function``: TensorFlow's cond_v2 and while_v2.

The predicate is symbolic there, so the branches (or the loop's condition and body) are traced
into function graphs of their own, and one node — ``StatelessIf`` / ``StatelessWhile``, or ``If``
/ ``While`` when a branch holds a stateful op — runs them: its inputs are the predicate (or the
loop variables) and every tensor of the enclosing function the branches use. At run time
(``function_run``) Python picks the branch, or repeats the body while the condition holds.
"""

from __future__ import annotations

import itertools

from ...util.nest import flatten, pack_sequence_as
from ...runtime.dtypes import as_dtype
from ...runtime.graph.func_graph import FuncGraph
from ...runtime.graph.graph import get_default_graph
from ...runtime.registry import REGISTRY
from ...runtime.tensor import Tensor
from ...runtime.values import convert_to_tensor
from ..declare import op

_UIDS = itertools.count(1)


def _shapes(name, shapes, attrs, dtype):
    return [(d, s) for d, s in attrs["output_specs"]], None


def _never(xp, *arrays, **attrs):  # function_run runs these nodes itself
    raise NotImplementedError("control-flow nodes run in function_run")


# (Stateful)PartitionedCall: a tf.function called in another's trace (polymorphic_function/call_op.py), its
# graph run as a branch is
for _name in ("If", "StatelessIf", "Case", "StatelessCase", "While", "StatelessWhile", "PartitionedCall",
              "StatefulPartitionedCall"):
    op(_name, _never, shape=_shapes, multi=True, mixed_dtypes=True,
       stateful=not _name.startswith(("Stateless", "Partitioned")))
# the TF1 primitives TensorFlow lowers those nodes into before placing a function (the placement
# log of runtime/graph/lowering.py): devtrace runs the functional nodes, so they never execute
for _name in ("Switch", "_SwitchN", "Merge", "Enter", "Exit", "NextIteration", "LoopCond"):
    op(_name, _never, multi=True, mixed_dtypes=True)


def in_function_graph() -> bool:
    """Inside a tf.function's tracing: a symbolic predicate builds a node."""
    return isinstance(get_default_graph(), FuncGraph)


def _trace(outer: FuncGraph, fn, name: str, scope: str, args=()) -> tuple[FuncGraph, object]:
    """Trace ``fn(*placeholders)`` into a branch graph; returns it and ``fn``'s output structure.
    Its outputs are set by ``_set_outputs`` (all of them, or all but ``static`` positions). Its
    nodes are named in the statement's name ``scope`` (``cond/mul``), as TensorFlow's are."""
    graph = FuncGraph(f"{name}_{next(_UIDS)}", outer=outer)
    graph._device_stack = list(outer._device_stack)  # device scopes around the statement hold inside it
    graph._recompute_device()
    graph._name_stack = scope[:-1]
    with graph.as_default():
        graph.inputs = [graph.placeholder(t.dtype, t._shape, n) for t, n in zip(args, _arg_names(len(args)))]
        result = fn(*graph.inputs)
    return graph, result


def _arg_names(n: int) -> list:
    """A loop's condition and body arguments as TensorFlow names them (its wrappers' two, then
    ``Placeholder``, ``Placeholder_1`` …: what a while gradient's accumulators are named after)."""
    return (["loop_counter", "maximum_iterations_arg"] + ["Placeholder"] * n)[:n]


def _set_outputs(graph: FuncGraph, values, static=frozenset()) -> None:
    """A branch's outputs: each returned value that is not ``static`` leaves through an Identity."""
    from ..array.array_ops import identity

    with graph.as_default():
        graph.flat_outputs = [identity(v if isinstance(v, Tensor) else convert_to_tensor(v))
                              for k, v in enumerate(values) if k not in static]


def _stateful(graph: FuncGraph) -> bool:
    return any(REGISTRY[o.type].stateful for o in graph._ops if o.type in REGISTRY)


def _node_inputs(*graphs) -> tuple[list, list]:
    """The enclosing tensors the branches use, each once, and each branch's positions in them."""
    tensors: list = []
    positions = []
    for g in graphs:
        mine = []
        for outer, _ in g.outer_captures:
            index = next((k for k, t in enumerate(tensors) if t is outer), None)
            if index is None:
                index = len(tensors)
                tensors.append(outer)
            mine.append(index)
        positions.append(mine)
    return tensors, positions


def _specs(graph: FuncGraph) -> list:
    return [(t._dtype, t._shape) for t in graph.flat_outputs]


def _symbolic(outer: FuncGraph, value):
    """A node input in the enclosing function: its own tensor, or a captured eager one."""
    if not isinstance(value, Tensor):
        value = convert_to_tensor(value)
    if value._device is None:  # a tensor of this graph, or of one around it (captured)
        return value if value._op._graph is outer else outer.capture_symbolic(value)
    return outer.capture(value)


def _branches(outer: FuncGraph, fns: list, labels: list, scope: str) -> tuple:
    """Trace each branch function; ``(graphs, results, static positions)``."""
    traced = [_trace(outer, fn, label, scope) for fn, label in zip(fns, labels)]
    graphs, results = [g for g, _ in traced], [r for _, r in traced]
    flats = [flatten(r, expand_composites=True) for r in results]  # an extension type: its tensors
    mismatch = TypeError("true_fn and false_fn arguments to tf.cond must have the same number, type, and overall "
                         "structure of return values.")
    if len({len(f) for f in flats}) != 1:
        raise mismatch
    # the same Python object from every branch (None …) is no output of the node; a Python number
    # or string becomes a tensor, as TensorFlow converts every branch output
    static = {k for k, vals in enumerate(zip(*flats)) if all(v is vals[0] for v in vals)
              and not isinstance(vals[0], (Tensor, bool, int, float, str))}
    for graph, flat in zip(graphs, flats):
        _set_outputs(graph, flat, static)
    if len({tuple(d for d, _ in _specs(g)) for g in graphs}) != 1:
        raise mismatch
    return graphs, results, static


def node_kind(kind: str, graphs: list) -> str:
    """``If``/``Case`` when a branch holds a stateful op, else ``StatelessIf``/``StatelessCase``."""
    return kind if any(_stateful(g) for g in graphs) else "Stateless" + kind


def branch_node(kind: str, outer: FuncGraph, selector, graphs: list, name, attr_names: list):
    """An ``If``/``Case`` node (``Stateless…`` unless a branch holds a stateful op) running the
    traced ``graphs`` (their ``flat_outputs`` set) on ``selector``; ``name`` ``None``: the op's."""
    tensors, positions = _node_inputs(*graphs)
    all_specs = [_specs(g) for g in graphs]
    specs = [(d, s if all(x[k][1] == s for x in all_specs) else None) for k, (d, s) in enumerate(all_specs[0])]
    kind = node_kind(kind, graphs)
    branches = list(zip(graphs, positions))
    attrs = dict(zip(attr_names, branches)) if attr_names else {"branches": branches}
    attrs["output_specs"] = specs
    attrs["num_original_outputs"] = len(specs)  # a gradient adds outputs after them
    return outer._create_op(kind, (selector, *tensors), attrs, name, selector._dtype)


def _select(kind: str, outer: FuncGraph, selector, fns: list, labels: list, name: str, attr_names: list):
    """An ``If`` or ``Case`` node over traced branches (TensorFlow's cond_v2): its outputs leave
    through ``<scope>/Identity`` nodes."""
    from ..array.array_ops import identity

    with outer.name_scope(name) as scope:
        graphs, results, static = _branches(outer, fns, labels, scope)
        node = branch_node(kind, outer, selector, graphs, scope, attr_names)
        # a tape tracing the function sees the node: its gradient (devtrace/backprop/cond_grad.py) differentiates
        # the branches, for the tensors they capture and the variables they read (through their handles)
        variables = list({id(v): v for g in graphs for v in g.variables}.values())
        grad_attrs = {"variables": variables, "handles": [outer.capture(v) for v in variables]}
        FuncGraph._record(node.type, grad_attrs, (*node._inputs, *[v._value for v in variables]),
                          tuple(node._outputs))
        outputs = iter([identity(t) for t in node._outputs])
    flat = flatten(results[0], expand_composites=True)
    return pack_sequence_as(results[0], [v if k in static else next(outputs) for k, v in enumerate(flat)],
                            expand_composites=True)


def cond(pred, true_fn, false_fn, name=None):
    outer = get_default_graph()
    pred = _symbolic(outer, pred)
    return _select("If", outer, pred, [true_fn, false_fn], ["cond_true", "cond_false"], name or "cond",
                   ["then_branch", "else_branch"])


def indexed_case(branch_index, branch_fns, name=None):
    """``tf.switch_case``'s ``Case`` node (an index out of range runs the last branch)."""
    outer = get_default_graph()
    index = _symbolic(outer, branch_index)
    return _select("Case", outer, index, list(branch_fns), [f"branch{k}" for k in range(len(branch_fns))],
                   name or "indexed_case", [])


def while_loop(cond_fn, body, loop_vars, maximum_iterations=None, name=None):
    """TensorFlow's while_v2: the loop counter and ``maximum_iterations`` are loop variables of
    their own (``while/loop_counter``, ``while/maximum_iterations``), the condition also checks
    the counter when a maximum is given, the body adds one to it."""
    from ..math.math_ops import logical_and

    outer = get_default_graph()
    templates = flatten(loop_vars, expand_composites=True)  # a TensorArray goes through as its list tensor
    user = [_symbolic(outer, _component(v)) for v in templates]

    def rebuild(xs):
        return [t._rebuild(x) if hasattr(t, "_rebuild") else x for t, x in zip(templates, xs)]

    def cond_flat(counter, limit, *xs):
        pred = cond_fn(*_unflatten(loop_vars, rebuild(xs)))
        return pred if maximum_iterations is None else logical_and(counter < limit, pred)

    def body_flat(counter, limit, *xs):
        graph = get_default_graph()
        for outer_tensor, _ in cond_graph.outer_captures:  # the condition's captures come first
            graph.capture_symbolic(outer_tensor)
        out = body(*_unflatten(loop_vars, rebuild(xs)))
        outs = [_component(v) for v in flatten(out, expand_composites=True)]
        return [counter + 1, limit, *outs]

    with outer.name_scope(name or "while") as scope:
        limit = convert_to_tensor(-1 if maximum_iterations is None else maximum_iterations, dtype="int32",
                                  name="maximum_iterations")
        counter = convert_to_tensor(0, dtype="int32", name="loop_counter")
        flat = [_symbolic(outer, counter), _symbolic(outer, limit)] + user
        cond_graph, cond_result = _trace(outer, cond_flat, "while_cond", scope, flat)
        _set_outputs(cond_graph, [cond_result])
        body_graph, body_result = _trace(outer, body_flat, "while_body", scope, flat)
        _set_outputs(body_graph, body_result)
        got = [t._dtype for t in body_graph.flat_outputs]
        if got != [t.dtype for t in flat]:
            raise TypeError(f"The body of tf.while_loop must return loop variables of the same dtypes as it was "
                            f"given: expected {[t.dtype.name for t in user]}, "
                            f"got {[as_dtype(d).name for d in got[2:]]}")
        node = loop_node(outer, flat, cond_graph, body_graph, scope)
        variables = list({id(v): v for v in cond_graph.variables + body_graph.variables}.values())
        # a tape tracing the function sees the node: its gradient (devtrace/backprop/while_grad.py) differentiates the
        # body, for the loop variables, the tensors it captures and the variables it reads (through their handles)
        grad_attrs = {"variables": variables, "handles": [outer.capture(v) for v in variables]}
        FuncGraph._record(node.type, grad_attrs, (*node._inputs, *[v._value for v in variables]),
                          tuple(node._outputs))
    results = rebuild(list(node._outputs)[2:len(flat)])
    return pack_sequence_as(loop_vars, results, expand_composites=True)


def loop_node(outer: FuncGraph, flat: list, cond_graph: FuncGraph, body_graph: FuncGraph, name):
    """A ``While`` node (``StatelessWhile`` unless the loop holds a stateful op) over the traced
    ``cond_graph`` and ``body_graph`` (outputs set) with loop variables ``flat``; its inputs are
    those, then the tensors the two capture; it has an output per input, as TensorFlow's."""
    tensors, (cond_pos, body_pos) = _node_inputs(cond_graph, body_graph)
    specs = [(t.dtype, _loop_shape(t._shape, b._shape)) for t, b in zip(flat, body_graph.flat_outputs)]
    specs += [(t.dtype, t._shape) for t in tensors]
    kind = "While" if _stateful(cond_graph) or _stateful(body_graph) else "StatelessWhile"
    attrs = {"cond": (cond_graph, cond_pos), "body": (body_graph, body_pos), "num_loop_vars": len(flat),
             "output_specs": specs, "num_original_outputs": len(specs)}
    return outer._create_op(kind, (*flat, *tensors), attrs, name, flat[0]._dtype)


def _loop_shape(entering, after):
    """A loop variable's static shape: the one it enters with, while the body's is compatible
    (TensorFlow's shape invariant); unknown when the body changes it."""
    if after is None or entering is None:
        return entering
    if len(after) == len(entering) and all(b is None or a == b for a, b in zip(entering, after)):
        return entering
    return None


def _component(value):
    return value._loop_component() if hasattr(value, "_loop_component") else value


def _single(loop_vars) -> bool:
    return not isinstance(loop_vars, (list, tuple))


def _unflatten(loop_vars, xs):
    value = pack_sequence_as(loop_vars, list(xs), expand_composites=True)
    return [value] if _single(loop_vars) else list(value)
