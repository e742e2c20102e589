"""tfdbg2's ``DebugEvent`` protocol buffer (``tensorflow/core/protobuf/debug_event.proto``), the
messages the dump writes, encoded with the summary's hand-written wire format (``ops/io/wire``,
``ops/summary/event_pb``): field numbers and order as TensorFlow serialises them."""

from __future__ import annotations

import struct

from ..ops.io import wire

FILE_VERSION = "debug.Event:1"


def _str(field: int, value: str | None) -> bytes:
    return wire.delimited(field, value.encode()) if value else b""


def _int(field: int, value: int) -> bytes:
    return wire.tag(field, wire.VARINT) + wire.varint(int(value)) if value else b""


def _packed(field: int, values) -> bytes:
    return wire.delimited(field, b"".join(wire.varint(int(v)) for v in values)) if len(values) else b""


def event(wall_time: float, field: int, payload: bytes) -> bytes:
    """A ``DebugEvent``: its wall time and one member of its ``what`` oneof."""
    return wire.tag(1, wire.FIXED64) + struct.pack("<d", wall_time) + wire.delimited(field, payload)


# the DebugEvent fields of each message
DEBUG_METADATA, SOURCE_FILE, STACK_FRAME, GRAPH_OP_CREATION, DEBUGGED_GRAPH, EXECUTION, GRAPH_EXECUTION_TRACE = \
    3, 4, 6, 7, 8, 9, 10
DEBUGGED_DEVICE = 12


def debug_metadata(version: str, run_id: str) -> bytes:
    return _str(1, version) + _str(2, FILE_VERSION) + _str(3, run_id)


def source_file(path: str, host: str, lines: list[str]) -> bytes:
    return _str(1, path) + _str(2, host) + b"".join(wire.delimited(3, line.encode()) for line in lines)


def stack_frame(frame_id: str, file_index: int, line: int, func: str) -> bytes:
    file_line_col = _int(1, file_index) + _int(2, line) + _str(4, func)
    return _str(1, frame_id) + wire.delimited(2, file_line_col)


def code_location(host: str, frame_ids: list[str]) -> bytes:
    return _str(1, host) + b"".join(wire.delimited(2, f.encode()) for f in frame_ids)


def graph_op_creation(op_type, op_name, graph_name, graph_id, inputs, num_outputs, location, output_ids) -> bytes:
    return (_str(1, op_type) + _str(2, op_name) + _str(3, graph_name) + _str(4, graph_id)
            + b"".join(wire.delimited(6, i.encode()) for i in inputs) + _int(7, num_outputs)
            + wire.delimited(8, location) + _packed(9, output_ids))


def debugged_graph(graph_id: str, name: str | None, outer_id: str | None) -> bytes:
    return _str(1, graph_id) + _str(2, name) + _str(6, outer_id)


def debugged_device(name: str, device_id: int) -> bytes:
    return _str(1, name) + _int(2, device_id)


def execution(op_type, num_outputs, graph_id, input_ids, output_ids, mode, tensors, location, device_ids) -> bytes:
    """``tensors``: serialised ``TensorProto``s (``b""``: the empty one TensorFlow keeps in place of an
    output it does not summarise)."""
    return (_str(1, op_type) + _int(2, num_outputs) + _str(3, graph_id) + _packed(4, input_ids)
            + _packed(5, output_ids) + _int(6, mode) + b"".join(wire.delimited(7, t) for t in tensors)
            + wire.delimited(8, location) + _packed(9, device_ids))


def graph_execution_trace(context_id, op_name, slot, mode, tensor: bytes | None, device) -> bytes:
    return (_str(1, context_id) + _str(2, op_name) + _int(3, slot) + _int(4, mode)
            + (wire.delimited(5, tensor) if tensor is not None else b"") + _str(6, device))
