"""The gradient of ``tf.cond`` / ``tf.switch_case`` inside a ``tf.function`` (TensorFlow's cond_v2
gradient).

One more ``If`` (``Case``) node on the same predicate, named as the op (``gradient_tape/cond/
StatelessIf``), whose branches are the symbolic gradients of the forward branches
(:mod:`graph_gradients`): one output per forward input that has a gradient in some branch (zeros
in the others), each through an ``Identity``. A forward intermediate a gradient branch uses is
read through the forward node: its branch wraps it in ``OptionalFromValue`` and outputs it (the
other branches output ``OptionalNone`` there), the gradient branch takes the node's output and
unwraps it with ``OptionalGetValue``, named in the scope of the op that reads it. (A ``While``
node's gradient is in ``while_grad.py``.)
"""

from __future__ import annotations

from .graph_gradients import GradientGraph, gradients
from ..ops.array import array_ops
from ..ops.control_flow import control_flow_v2
from ..ops.declare import gradient
from ..ops.sparse.indexed_slices import IndexedSlices
from ..runtime import dtypes
from ..runtime.eager.executor import execute
from ..runtime.graph.func_graph import FuncGraph
from ..runtime.graph.graph import get_default_graph
from ..runtime.graph.tensor import SymbolicTensor
from ..runtime.values import convert_to_tensor


class _GradBranch(GradientGraph):
    """A gradient branch: the tensors of its forward branch it uses are read through the node."""

    def _forward_value(self, tensor):
        forward = self.forward
        if tensor._op.type == "Placeholder":  # an input of the node: the gradient's input too
            return self._deferred(next(o for o, p in forward.outer_captures if p is tensor))
        outputs = forward.flat_outputs
        index = next((k for k, t in enumerate(outputs) if t is tensor), None)
        if index is None and tensor._op.type == "Const":
            return self.constant_like(tensor)
        if index is None:
            index = _wrapped(forward, tensor)
        handle = self._deferred(_node_output(self.node, index))
        if outputs[index] is tensor:
            return handle
        with self.as_default(), self.name_scope(self.op_scope()):  # (the default: maybe a branch inside)
            return execute("OptionalGetValue", (handle,),
                           {"output_types": [tensor.dtype.name], "output_shapes": [tensor._shape]}, dtype=tensor.dtype)


    def _deferred(self, tensor):
        """A placeholder for a tensor of the forward node's graph; when that is not the graph this
        gradient's node is made in (a loop body's gradient), the tensor is read there as the node is
        made (``resolve``), as TensorFlow resolves a gradient branch's captures."""
        if tensor._op._graph is self.outer:
            return FuncGraph.capture_symbolic(self, tensor)
        return self.capture_placeholder(tensor)


def _resolve(outer, node, graphs, kind: str):
    """The gradient node's predicate and the tensors its branches capture, read into ``outer`` in
    the name scope of the node about to be made (``…/StatelessIf/TensorListPopBack``)."""
    if not isinstance(outer, FuncGraph):
        return node._inputs[0]
    with outer.name_scope(outer.unique_name(control_flow_v2.node_kind(kind, graphs), False) + "/"):
        selector = outer.capture_symbolic(node._inputs[0])
        for graph in graphs:
            graph.outer_captures = [(t if t._op._graph is outer else outer.capture_symbolic(t), p)
                                    for t, p in graph.outer_captures]
    return selector


def _wrapped(forward, tensor) -> int:
    """The branch's output holding ``tensor`` in an optional (made, and output, on first use)."""
    optionals = forward.__dict__.setdefault("optionals", {})
    if id(tensor) not in optionals:
        with forward.as_default():
            optional = execute("OptionalFromValue", (tensor,), {"Toutput_types": [tensor.dtype.name]},
                               dtype=tensor.dtype)
        forward.flat_outputs.append(optional)
        optionals[id(tensor)] = len(forward.flat_outputs) - 1
    return optionals[id(tensor)]


def _node_output(node, index):
    """The forward node's output ``index``, added (a ``variant``) when the node had fewer."""
    while len(node._outputs) <= index:
        node._outputs = tuple(node._outputs) + (SymbolicTensor(node, len(node._outputs), dtypes.variant, ()),)
        node._attrs["output_specs"] = list(node._attrs["output_specs"]) + [(dtypes.variant, ())]
    return node._outputs[index]


def _pad(pairs, node) -> None:
    """Every branch outputs as many values as the node has: ``OptionalNone`` where it has none."""
    longest = max(len(g.flat_outputs) for g, _ in pairs)
    _node_output(node, longest - 1)
    for graph, _ in pairs:
        with graph.as_default():
            while len(graph.flat_outputs) < longest:
                graph.flat_outputs.append(execute("OptionalNone", (), {}, dtype=dtypes.variant))


def _zeros(outer_input, variable):
    """A branch's gradient for an input it does not differentiate (TensorFlow's default gradient)."""
    shape, dtype = (variable.shape, variable.dtype) if variable is not None else (outer_input.shape, outer_input.dtype)
    if shape.rank is None or None in tuple(shape):
        return array_ops.zeros_like(outer_input)
    return array_ops.zeros(list(shape), dtype, name=None if variable is not None else "zeros_like")


def _branch_gradients(node, pairs, upstream, n_outputs) -> tuple[list, list]:
    """Each branch's gradient graph and its gradient for every node input (``None``: none)."""
    outer = get_default_graph()
    n_inputs = len(node._inputs) - 1
    graphs, results = [], []
    for graph, positions in pairs:
        grad_graph = _GradBranch(f"{graph.name}_grad", outer, graph, node)
        xs = [None] * n_inputs
        for (_, placeholder), p in zip(graph.outer_captures, positions):
            xs[p] = placeholder
        with grad_graph.as_default():
            grads = gradients(graph, graph.flat_outputs[:n_outputs], xs, upstream)
        graphs.append(grad_graph)
        results.append([convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in grads])
    return graphs, results


def _cond_grad(op, *upstream):
    node = op.outputs[0]._op
    if node.type.endswith("If"):
        pairs = [node._attrs["then_branch"], node._attrs["else_branch"]]
    else:
        pairs = list(node._attrs["branches"])
    inputs = node._inputs[1:]
    # a tape's record: a variable's gradient goes to its value (the input after the node's); a
    # branch graph's node (differentiated by graph_gradients): to its handle, an input of the node
    handles = op.attrs.get("handles", [])
    variables = {id(h): v for h, v in zip(handles, op.attrs.get("variables", []))}
    count = node._attrs["num_original_outputs"]
    graphs, results = _branch_gradients(node, pairs, upstream[:count], count)
    kept = [k for k in range(len(inputs)) if any(r[k] is not None for r in results)]
    for graph, grads in zip(graphs, results):
        with graph.as_default():
            outs = {k: array_ops.identity(grads[k]) for k in kept if grads[k] is not None}
            outs.update({k: _zeros(inputs[k], variables.get(id(inputs[k]))) for k in kept if grads[k] is None})
            graph.flat_outputs = [outs[k] for k in kept]
    _pad(pairs, node)
    kind = "If" if node.type.endswith("If") else "Case"
    names = ["then_branch", "else_branch"] if kind == "If" else []
    outer = get_default_graph()
    selector = _resolve(outer, node, graphs, kind)
    grad_node = control_flow_v2.branch_node(kind, outer, selector, graphs, None, names)
    by_input = dict(zip(kept, [array_ops.identity(t) for t in grad_node._outputs]))
    return [None, *input_grads(inputs, by_input, handles)]


def input_grads(inputs, by_input: dict, handles: list) -> list:
    """The gradient of each node input (``by_input``: those that have one), then of each variable
    read through ``handles`` (their inputs' slots left empty)."""
    tensor_grads = [None if handles and t.dtype is dtypes.resource else by_input.get(k) for k, t in enumerate(inputs)]
    return tensor_grads + [by_input.get(next(k for k, t in enumerate(inputs) if t is h)) for h in handles]


for _kind in ("StatelessIf", "If", "StatelessCase", "Case"):
    gradient(_kind)(_cond_grad)
