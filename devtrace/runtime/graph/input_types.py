"""TensorFlow's check of a new node's input dtypes (``op_def_library._apply_op_helper``): inputs
its OpDef types by one attr (``x@T``, ``y@T`` in ``ops/arg_names.py``) must share a dtype. Eagerly
the kernel lookup says so (``cannot compute AddV2 as input #1 …``); while a graph is built, this
is TensorFlow's ``TypeError``."""

from __future__ import annotations

from .tensor import SymbolicTensor

_PAIRS: dict = {}  # op type -> ((index, arg, index, arg), ...): the inputs one attr types, each against the first


def _pairs(opdef) -> tuple:
    pairs = _PAIRS.get(opdef.name)
    if pairs is None:
        specs = opdef.arg_names[0] if opdef.arg_names else ()
        if any("*" in s for s in specs):  # a list input: positions do not map to args
            specs = ()
        first, found = {}, []
        for i, spec in enumerate(specs):
            if "@" in spec:
                arg, attr = spec.split("@")
                if attr in first:
                    found.append((*first[attr], i, arg))
                else:
                    first[attr] = (i, arg)
        pairs = _PAIRS[opdef.name] = (tuple(found), len(specs))
    return pairs


def check(opdef, inputs):
    """``opdef`` (``None``: not registered); TensorFlow's ``TypeError`` when two of its inputs typed
    by one attr differ."""
    if opdef is None or not opdef.arg_names:
        return opdef
    pairs, n_args = _PAIRS.get(opdef.name) or _pairs(opdef)
    if pairs and len(inputs) >= n_args:
        for i, arg, j, other in pairs:
            a, b = inputs[i], inputs[j]
            expected = a._dtype if type(a) is SymbolicTensor else a.dtype  # or an eager tensor, a handle …
            dtype = b._dtype if type(b) is SymbolicTensor else b.dtype
            if dtype is not expected:
                raise TypeError(f"Input '{other}' of '{opdef.name}' Op has type {dtype.name} that does not match type "
                                f"{expected.name} of argument '{arg}'.")
    return opdef
