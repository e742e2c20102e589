"""The few protocol buffers of a TensorBoard event file, encoded by hand (no protobuf
dependency): ``Event`` (wall time, step, file version, summary, source metadata), ``Summary``
and its ``Value`` (tag, tensor, metadata, simple value), ``SummaryMetadata``/``PluginData`` and
``TensorProto``, with TensorFlow's field numbers and in field order, as TensorFlow serialises
them (``tests/tf221_subsystems/summary.json`` holds TensorFlow's bytes)."""

from __future__ import annotations

import struct

import numpy as np

from ...runtime import dtypes
from ..io import wire

FILE_VERSION = b"brain.Event:2"
WRITER = b"tensorflow.core.util.events_writer"


def _double(field: int, value: float) -> bytes:
    return wire.tag(field, wire.FIXED64) + struct.pack("<d", value)


def _int(field: int, value: int) -> bytes:
    return wire.tag(field, wire.VARINT) + wire.varint(int(value))


def event(wall_time: float, step: int | None = None, summary: bytes | None = None, file_version: bool = False) -> bytes:
    out = _double(1, wall_time)
    if step:
        out += _int(2, step)
    if file_version:
        out += wire.delimited(3, FILE_VERSION)
    if summary is not None:
        out += wire.delimited(5, summary)
    if file_version:
        out += wire.delimited(10, wire.delimited(1, WRITER))
    return out


def tensor_proto(array: np.ndarray, dtype) -> bytes:
    """A ``TensorProto``: strings as ``string_val``, every other dtype as ``tensor_content``."""
    array = np.asarray(array)
    shape = b"".join(wire.delimited(2, _int(1, d) if d else b"") for d in array.shape)
    out = _int(1, dtype.as_datatype_enum) + wire.delimited(2, shape)
    if dtype == dtypes.string:
        return out + b"".join(wire.delimited(8, v if isinstance(v, bytes) else str(v).encode())
                              for v in array.reshape(-1).tolist())
    content = np.ascontiguousarray(array.astype(np.dtype(dtype.np).newbyteorder("<"))).tobytes()
    return out + (wire.delimited(4, content) if content else b"")


def metadata(plugin_name: str = "", content: bytes = b"", description: str = "", display_name: str = "") -> bytes:
    """A serialised ``SummaryMetadata``."""
    plugin = (wire.delimited(1, plugin_name.encode()) if plugin_name else b"") + \
        (wire.delimited(2, content) if content else b"")
    out = wire.delimited(1, plugin) if plugin else b""
    if display_name:
        out += wire.delimited(2, display_name.encode())
    if description:
        out += wire.delimited(3, description.encode())
    return out


def summary_value(tag: bytes, tensor: bytes, metadata_bytes: bytes) -> bytes:
    """A ``Summary`` of one ``Value``: tag, tensor, metadata."""
    value = wire.delimited(1, tag) + wire.delimited(8, tensor)
    if metadata_bytes:
        value += wire.delimited(9, metadata_bytes)
    return wire.delimited(1, value)
