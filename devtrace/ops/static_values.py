"""What a graph knows of a tensor's value before it runs, as TensorFlow's shape inference knows it:
``constant_value`` (TensorFlow's ``EvaluateConstantTensor``: a ``Const``, the ``Shape`` of a static
shape, a static dimension sliced out of a ``Shape``, and small integer ops over those, run on the
host) and ``constant_value_as_shape`` (``tensor_util.constant_value_as_shape`` / the shape
refiner's ``ConstantPartialShape``: a shape tensor's known entries, ``None`` where one is known only
when the graph runs). Shape functions read them through the hints the op wrappers give a node
(``declare.static_hint``), so ``tf.reshape(x, [-1, tf.shape(x)[1] * tf.shape(x)[2]])`` keeps
TensorFlow's ``(None, 24)``."""

from __future__ import annotations

import numpy as np

from ..runtime.graph.host_consts import kernel_inputs, runtime_attrs
from ..runtime.registry import REGISTRY
from .shapes import slice_index

# integer ops TensorFlow's constant evaluation runs on values it knows (their kernels are cheap)
_FOLDED = frozenset(("AddV2", "Add", "Sub", "Mul", "FloorDiv", "FloorMod", "Maximum", "Minimum", "Neg", "Cast",
                     "Pack", "ConcatV2", "StridedSlice", "Slice", "Identity", "Prod", "Sum", "Range", "Reshape",
                     "ExpandDims", "Squeeze", "GatherV2", "Fill", "Size", "Rank", "Abs"))
_MAX_ELEMENTS = 1024
_SLICE_ATTRS = ("begin", "end", "strides", "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                "shrink_axis_mask")
_DEPTH = 32


def _dims(t):
    return t._shape


def constant_value(t, depth=0, slices=False):
    """The tensor's value as a NumPy array when the graph knows it before running; else ``None``.
    TensorFlow's shape inference folds a slice of a partly known ``Shape`` only to one dimension;
    ``slices``: any slice whose dimensions are known (a value an op takes as an attribute, which
    does not change when the graph runs)."""
    node = t._op
    kind = node.type
    if kind == "Const":
        return node._attrs["value"]
    if depth > _DEPTH or t._dtype.np is None or t._dtype.np.kind not in "iub" and kind != "Cast":
        return None
    if kind in ("Shape", "ShapeN", "Size", "Rank"):
        source = node._inputs[t._index if kind == "ShapeN" else 0]
        dims = _dims(source)
        if dims is None:
            return None
        if kind == "Rank":
            return np.asarray(len(dims), t._dtype.np)
        if None in dims:
            return None
        return np.asarray(int(np.prod(dims)) if kind == "Size" else dims, t._dtype.np)
    if kind == "StridedSlice" and node._inputs[0]._op.type in ("Shape", "ShapeN") and (slices or t._shape == ()):
        # one dimension of a partly known shape (TensorFlow's TryInferFromShapes): known if that one is
        partial = _sliced_shape(node, depth)
        if partial is None or None in partial:
            return None
        return np.asarray(partial, t._dtype.np).reshape(t._shape) if t._shape is not None else None
    if kind not in _FOLDED or len(node._outputs) != 1:
        return None
    if t._shape is not None and None not in t._shape and int(np.prod(t._shape)) > _MAX_ELEMENTS:
        return None
    values = {}
    for i in node._inputs:
        value = constant_value(i, depth + 1, slices)
        if value is None:
            return None
        values[id(i)] = value
    opdef = REGISTRY.get(kind)
    if opdef is None:
        return None
    attrs = runtime_attrs(node, lambda i: values[id(i)]) if node._n_host else dict(node._attrs or {})
    try:
        with np.errstate(all="ignore"):
            out = np.asarray(opdef.fn(np, *[values[id(i)] for i in kernel_inputs(node)], **attrs))
    except Exception:  # noqa: BLE001 (the kernel refuses these values: the graph will say so when it runs)
        return None
    return out if out.size <= _MAX_ELEMENTS else None


def _sliced_shape(node, depth):
    """A ``StridedSlice`` of a ``Shape``: the sliced entries of the partial shape (``None`` where a
    dimension is unknown); ``None`` when the slice or the shape's rank is not known."""
    source = node._inputs[0]
    dims = constant_value_as_shape(source, depth + 1)
    attrs = node._attrs
    if dims is None or any(attrs.get(k) is None or None in attrs[k] for k in ("begin", "end", "strides")):
        return None
    try:
        out = np.array(list(dims) + [0], dtype=object)[:-1][slice_index(**{k: attrs.get(k, 0) for k in _SLICE_ATTRS})]
    except (IndexError, ValueError, TypeError):
        return None
    return (out,) if not isinstance(out, np.ndarray) else tuple(out.tolist())


def constant_value_as_shape(t, depth=0):
    """A shape tensor's static entries (``None`` where unknown, a ``-1`` too); ``None`` when not even
    its length is known."""
    node = t._op
    kind = node.type
    if depth > _DEPTH:
        return None
    if kind in ("Shape", "ShapeN"):
        dims = _dims(node._inputs[t._index if kind == "ShapeN" else 0])
        return None if dims is None else tuple(dims)
    if kind == "Pack" and node._attrs.get("axis", 0) == 0 and all(i._shape == () for i in node._inputs):
        entries = []
        for i in node._inputs:
            value = constant_value(i, depth + 1)
            entries.append(None if value is None or int(value) < 0 else int(value))
        return tuple(entries)
    if kind == "ConcatV2":
        parts = kernel_inputs(node)
        out = ()
        for part in parts:
            dims = constant_value_as_shape(part, depth + 1)
            if dims is None:
                return None
            out += dims
        return out
    if kind == "StridedSlice" and node._inputs[0]._op.type in ("Shape", "ShapeN", "Pack", "ConcatV2", "Const"):
        sliced = _sliced_shape(node, depth)
        if sliced is not None and t._shape is not None and len(t._shape) == 1:
            return sliced
    if kind == "Cast":
        return constant_value_as_shape(node._inputs[0], depth + 1)
    value = constant_value(t, depth)
    if value is not None and value.ndim == 1:
        return tuple(None if int(v) < 0 else int(v) for v in value)
    if t._shape is None or len(t._shape) != 1 or t._shape[0] is None:
        return None
    return (None,) * t._shape[0]
