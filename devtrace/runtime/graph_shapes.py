"""Static output dtype and shape of a graph node, as TensorFlow's shape functions infer them.

A shape is a tuple whose dims are ints or ``None`` (unknown); ``None`` instead of a tuple is
an unknown rank. Only the ops of :mod:`devtrace.runtime.ops` have shape functions; any other
op (a custom one) gets an unknown shape and the dtype its kernel was chosen for.
"""

from __future__ import annotations

from . import dtypes

_BOOL_OUT = frozenset(("Less", "LessEqual", "Greater", "GreaterEqual"))
_BROADCAST = frozenset(("AddV2", "Sub", "Mul", "RealDiv")) | _BOOL_OUT
_SAME = frozenset(("Identity", "Neg", "Square", "Cast", "AsString", "AddN", "Assign", "Placeholder"))


def _incompatible(name, a, b, shapes):
    text = ", ".join("<unknown>" if s is None else "[" + ",".join("?" if d is None else str(d) for d in s) + "]"
                     for s in shapes)
    return ValueError(f"Dimensions must be equal, but are {a} and {b} for '{{{{node {name}}}}}' with input "
                      f"shapes: {text}.")


def _broadcast(name, shapes):
    a, b = shapes
    if a is None or b is None:
        return None
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            raise _incompatible(name, x, y, shapes)
    return tuple(reversed(out))


def _matmul(name, shapes, attrs):
    a, b = shapes
    if a is None or b is None:
        return None
    rows = a[-1] if attrs.get("transpose_a") else a[-2]
    cols = b[-2] if attrs.get("transpose_b") else b[-1]
    return (rows, cols)


def _reshape(shape, attrs):
    dims = list(attrs.get("shape", ()))
    if -1 in dims and shape is not None and None not in shape:
        known = 1
        for d in dims:
            if d != -1:
                known *= d
        total = 1
        for d in shape:
            total *= d
        dims[dims.index(-1)] = total // known if known else 0
    return tuple(None if d == -1 else d for d in dims)


def _sum(shape, attrs):
    if shape is None:
        return None
    axis = attrs.get("axis")
    keep = attrs.get("keepdims")
    if axis is None:
        return tuple(1 for _ in shape) if keep else ()
    axes = {a % len(shape) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
    return tuple((1 if i in axes else d) for i, d in enumerate(shape) if keep or i not in axes)


def _range(attrs):
    start, limit, delta = attrs.get("start", 0), attrs.get("limit", 0), attrs.get("delta", 1)
    return (max(0, -(-(limit - start) // delta)),)


def infer(op_type: str, name: str, inputs, attrs, dtype):
    """``(dtype, shape)`` of the node's output; ``dtype`` is the dtype its kernel is chosen for."""
    attrs = attrs or {}
    shapes = [t._shape for t in inputs]
    if op_type in _BROADCAST:
        return (dtypes.bool_ if op_type in _BOOL_OUT else dtype), _broadcast(name, shapes)
    if op_type in _SAME:
        out = dtypes.as_dtype(attrs["DstT"]) if op_type == "Cast" else \
            dtypes.string if op_type == "AsString" else dtype
        return out, (shapes[0] if shapes else attrs.get("shape"))
    if op_type == "MatMul":
        return dtype, _matmul(name, shapes, attrs)
    if op_type == "Reshape":
        return dtype, _reshape(shapes[0], attrs)
    if op_type == "Sum":
        return dtype, _sum(shapes[0], attrs)
    if op_type == "Fill":
        return dtypes.as_dtype(attrs.get("dtype", dtype)), tuple(attrs.get("dims", ()))
    if op_type == "RandomUniform":
        return dtypes.as_dtype(attrs.get("dtype", dtype)), tuple(attrs.get("shape", ()))
    if op_type == "Range":
        return dtypes.as_dtype(attrs.get("dtype", dtype)), _range(attrs)
    return dtype, (attrs.get("shape") if op_type == "VariableV2" else None)
