"""``Graph.as_graph_element``: what a fetch, a feed key or a name given to a graph stands for — a
node or one of its outputs — with TensorFlow's error texts when it stands for nothing there."""

from __future__ import annotations

from .operation import Operation
from .tensor import SymbolicTensor


def as_graph_element(graph, obj, allow_tensor: bool, allow_operation: bool):
    """TensorFlow's ``Graph.as_graph_element`` on ``graph``."""
    types = "Tensor or Operation" if allow_tensor and allow_operation else \
        "Tensor" if allow_tensor else "Operation"
    convert = getattr(obj, "_as_graph_element", None)
    if convert is not None:
        obj = convert()
    if isinstance(obj, bytes):
        obj = obj.decode()
    if isinstance(obj, str):
        return _element_by_name(graph, obj, allow_tensor, allow_operation, types)
    if isinstance(obj, SymbolicTensor) and allow_tensor:
        if obj._op._graph is not graph:
            raise ValueError(f"Tensor {obj} is not an element of this graph.")
        return obj
    if isinstance(obj, Operation) and allow_operation:
        if obj._graph is not graph:
            raise ValueError(f"Operation {obj} is not an element of this graph.")
        return obj
    raise TypeError(f"Can not convert a {type(obj).__name__} into a {types}.")


def _element_by_name(graph, name, allow_tensor, allow_operation, types):
    by_name = graph._by_name
    if ":" in name and allow_tensor:
        op_name, _, index = name.rpartition(":")
        if not index.isdigit():
            raise ValueError(f"The name {name!r} looks a like a Tensor name, but is not a valid one. Tensor "
                             f"names must be of the form \"<op_name>:<output_index>\".")
        op = by_name.get(op_name)
        if op is None:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, "
                           f"{op_name!r}, does not exist in the graph.")
        if int(index) >= len(op._outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, "
                           f"{op_name!r}, exists but only has {len(op._outputs)} outputs.")
        return op._outputs[int(index)]
    if ":" in name:
        raise ValueError(f"Name {name!r} appears to refer to a Tensor, not a {types}.")
    if allow_operation:
        if name not in by_name:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
        return by_name[name]
    what = "refers to an Operation" if name in by_name else "looks like an (invalid) Operation name"
    raise ValueError(f"The name {name!r} {what}, not a {types}. Tensor names must be of the form "
                     f"\"<op_name>:<output_index>\".")
