"""TensorFlow's check of a new node's input dtypes (``op_def_library._apply_op_helper``): inputs
its OpDef types by one attr (``x@T``, ``y@T`` in ``ops/arg_names.py``) must share a dtype. Eagerly
the kernel lookup says so (``cannot compute AddV2 as input #1 …``); while a graph is built, this
is TensorFlow's ``TypeError``."""

from __future__ import annotations

_GROUPS: dict = {}  # op type -> ((index, arg name, type attr), ...) of its single typed inputs


def _typed(opdef) -> tuple:
    groups = _GROUPS.get(opdef.name)
    if groups is None:
        specs = opdef.arg_names[0] if opdef.arg_names else ()
        if any("*" in s for s in specs):  # a list input: positions do not map to args
            specs = ()
        groups = _GROUPS[opdef.name] = tuple((i, *s.split("@")) for i, s in enumerate(specs) if "@" in s)
    return groups


def check(opdef, inputs):
    """``opdef`` (``None``: not registered); TensorFlow's ``TypeError`` when two of its inputs typed
    by one attr differ."""
    if opdef is None or not opdef.arg_names:
        return opdef
    groups = _typed(opdef)
    if len(groups) < 2 or len(inputs) < len(opdef.arg_names[0]):
        return opdef
    first = {}
    for index, arg, attr in groups:
        dtype = inputs[index].dtype
        seen = first.setdefault(attr, (arg, dtype))
        if seen[1] is not dtype:
            raise TypeError(f"Input '{arg}' of '{opdef.name}' Op has type {dtype.name} that does not match type "
                            f"{seen[1].name} of argument '{seen[0]}'.")
    return opdef
