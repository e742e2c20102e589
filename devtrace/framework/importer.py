"""``tf.import_graph_def``: a ``GraphDef`` (``Graph.as_graph_def()``) rebuilt in the default graph
under a name scope (``import/`` by default), with ``input_map`` replacing the named tensors' uses
and ``return_elements`` (``"d:0"`` a tensor, ``"c"`` an operation) returned, as TensorFlow does."""

from __future__ import annotations

from ..runtime import dtypes
from ..runtime.graph.graph import get_default_graph
from ..runtime.graph.tensor import SymbolicTensor


def _tensor_name(name: str) -> str:
    return name if ":" in name else f"{name}:0"


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Import ``graph_def``'s nodes into the default graph; the ``return_elements`` asked for, else None."""
    graph = get_default_graph()
    nodes = list(getattr(graph_def, "node", graph_def))
    known = {n.name for n in nodes}
    mapped = {_tensor_name(k): v for k, v in (input_map or {}).items()}
    missing = [k for k in mapped if k.split(":")[0].lstrip("^") not in known]
    if missing:
        raise ValueError(f"Attempted to map inputs that were not found in graph_def: [{', '.join(missing)}]")
    for value in mapped.values():
        if not isinstance(value, SymbolicTensor):
            raise TypeError(f"input_map must be a dictionary mapping strings to Tensor objects, got {value!r}")
    with graph.name_scope(name or "import") as scope:
        prefix = scope[:-1]
    made: dict = {}
    for node in nodes:
        inputs, controls = [], []
        for ref in node.input:
            if ref.startswith("^"):
                controls.append(made[ref[1:]])
                continue
            key = _tensor_name(ref)
            if key in mapped:
                inputs.append(mapped[key])
            else:
                op_name, index = key.rsplit(":", 1)
                inputs.append(made[op_name]._outputs[int(index)])
        attrs = dict(node.attr)
        if node._host_inputs:
            attrs["_host_inputs"] = node._host_inputs
        dtype = dtypes.as_dtype(node._kernel_dtype) if node._kernel_dtype else None
        shape = None  # what the nodes without a shape function know of their output
        if node.op == "Const":
            shape = tuple(attrs["value"].shape)
        elif node.op in ("Placeholder", "PlaceholderWithDefault") and attrs.get("shape") is not None:
            shape = attrs["shape"]
        with graph.control_dependencies(controls):
            op = graph._create_op(node.op, inputs, attrs, f"{prefix}/{node.name}/", dtype, shape)
        if node.device:
            op._device = node.device
        made[node.name] = op
    if return_elements is None:
        return None
    out = []
    for element in return_elements:
        op_name, _, index = element.partition(":")
        op = made.get(op_name)
        if op is None or (index and int(index) >= len(op._outputs)):
            kind = "tensor" if index else "operation"
            raise ValueError(f"Requested return {kind} '{element}' not found in graph def")
        out.append(op._outputs[int(index)] if index else op)
    return out
