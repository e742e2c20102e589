"""``tf.io.write_graph``: a graph's ``GraphDef`` written to ``logdir/name``, in protobuf's text
format (``as_text=True``) or its wire format, as TensorFlow writes it (nodes' name, op, inputs,
requested device and attrs; ``versions { producer }``). The attrs are those devtrace's
``Graph.as_graph_def()`` records (a ``Const``'s ``dtype`` and ``value``, type attrs, numbers,
strings, booleans) and, from a ``Graph``, the ``T`` of ops whose OpDef types args by it; other
attrs of TensorFlow's (``Cast``'s ``SrcT``, a ``MatMul``'s ``transpose_a``) are not written."""

from __future__ import annotations

import os
import struct

import numpy as np

from ...generated.arg_names import ARG_NAMES
from ...runtime import dtypes
from ..declare import public
from . import wire
from .tensor_proto import _SCALAR_FIELD, TensorProto

GRAPH_DEF_VERSION = 2474  # TensorFlow 2.21's (tf.version.GRAPH_DEF_VERSION)


def _attr_value(value):
    """An attr as ``(text lines, AttrValue bytes)``; ``None`` for a kind devtrace does not write."""
    if isinstance(value, np.ndarray):
        proto = TensorProto.from_array(value)
        lines = str(proto).splitlines()
        return ["tensor {", *(f"  {line}" for line in lines), "}"], wire.delimited(8, _tensor_bytes(proto))
    if isinstance(value, bool):
        return [f"b: {str(value).lower()}"], wire.tag(5, wire.VARINT) + wire.varint(int(value))
    if isinstance(value, int):
        return [f"i: {value}"], wire.tag(3, wire.VARINT) + wire.varint(value)
    if isinstance(value, float):
        return [f"f: {wire.text_float(value)}"], wire.tag(4, wire.FIXED32) + struct.pack("<f", value)
    dtype = None
    if isinstance(value, dtypes.DType):
        dtype = value
    elif isinstance(value, str):
        try:
            dtype = dtypes.as_dtype(value)
        except (TypeError, ValueError, KeyError):
            return [f"s: {wire.text_bytes(value.encode())}"], wire.delimited(2, value.encode())
    if dtype is None:
        return None
    return [f"type: {dtype.enum_name}"], wire.tag(6, wire.VARINT) + wire.varint(dtype.as_datatype_enum)


# a scalar's value field (TensorProto's ``<type>_val``, packed) and how it is packed
_SCALAR = {"float_val": (5, "<f4"), "double_val": (6, "<f8"), "int_val": (7, None), "int64_val": (10, None),
           "bool_val": (11, None), "half_val": (13, None), "uint32_val": (16, None), "uint64_val": (17, None)}


def _tensor_bytes(proto) -> bytes:
    """A ``TensorProto`` as ``tf.make_tensor_proto`` writes it: a scalar in its ``<type>_val`` field."""
    array = proto.to_array()
    field = _SCALAR_FIELD.get(proto.dtype_name)
    if array.ndim or proto.dtype_name == "string" or field not in _SCALAR:
        return proto.SerializeToString()
    number, packing = _SCALAR[field]
    if packing:
        payload = np.asarray(array, packing).tobytes()
    elif field == "half_val":
        payload = wire.varint(int(np.asarray(array, np.float16).view(np.uint16)))
    else:
        payload = wire.varint(int(array))
    return wire.tag(1, wire.VARINT) + wire.varint(proto.dtype) + wire.delimited(2, b"") + \
        wire.delimited(number, payload)


def _node(node):
    text = [f"name: {wire.text_bytes(node.name.encode())}", f"op: {wire.text_bytes(node.op.encode())}"]
    text += [f"input: {wire.text_bytes(i.encode())}" for i in node.input]
    data = wire.delimited(1, node.name.encode()) + wire.delimited(2, node.op.encode())
    data += b"".join(wire.delimited(3, i.encode()) for i in node.input)
    if node.device:
        text.append(f"device: {wire.text_bytes(node.device.encode())}")
        data += wire.delimited(4, node.device.encode())
    for key in sorted(node.attr):
        written = _attr_value(node.attr[key])
        if written is None:
            continue
        lines, value = written
        text += ["attr {", f"  key: {wire.text_bytes(key.encode())}", "  value {",
                 *(f"    {line}" for line in lines), "  }", "}"]
        data += wire.delimited(5, wire.delimited(1, key.encode()) + wire.delimited(2, value))
    return text, data


def graph_def_formats(graph_def) -> tuple[str, bytes]:
    """A ``GraphDef``'s text format and bytes."""
    text, data = [], b""
    for node in graph_def.node:
        lines, node_bytes = _node(node)
        text += ["node {", *(f"  {line}" for line in lines), "}"]
        data += wire.delimited(1, node_bytes)
    text += ["versions {", f"  producer: {GRAPH_DEF_VERSION}", "}"]
    data += wire.delimited(4, wire.tag(1, wire.VARINT) + wire.varint(GRAPH_DEF_VERSION))
    return "".join(line + "\n" for line in text), data


def _with_types(graph):
    """A ``Graph``'s ``GraphDef`` with the ``T`` attr of each op whose OpDef types args by ``T``."""
    graph_def = graph.as_graph_def()
    for node, operation in zip(graph_def.node, graph.get_operations()):
        kernel_type = operation.node_def.attr.get("T")
        spec = ARG_NAMES.get(node.op)
        if kernel_type is not None and "T" not in node.attr and spec and \
                any(arg.endswith("@T") for arg in spec[0] + spec[1]):
            node.attr["T"] = kernel_type
    return graph_def


@public("io.write_graph")
def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    graph_def = _with_types(graph_or_graph_def) if hasattr(graph_or_graph_def, "get_operations") else \
        graph_or_graph_def
    text, data = graph_def_formats(graph_def)
    logdir = os.fspath(logdir)
    if logdir and not os.path.isdir(logdir):
        os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        with open(path, "w") as f:
            f.write(text)
    else:
        with open(path, "wb") as f:
            f.write(data)
    return path
