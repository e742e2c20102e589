"""The protocol buffers devtrace declares, once: TensorFlow's messages (``tensorflow.Example`` …,
``tensorflow.Summary`` …) with TensorFlow's package, names and field numbers, so their bytes and
text format are TensorFlow's. From this table come both the real protobuf classes (a
``FileDescriptorProto`` built here, :mod:`.messages`) and the pure-Python ones used without the
``protobuf`` package; and ``decode_proto``/``encode_proto``/``decode_json_example`` read and write
the wire format by it (TensorFlow's own kernels read the wire format, not Python messages).

Every message is proto3, as TensorFlow's ``.proto`` files are. Not declared (their fields are kept
as unknown fields): ``Summary.Value.tensor`` and ``SummaryMetadata.data_class``."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from . import wire


@dataclass(frozen=True)
class Field:
    name: str
    number: int
    type: str  # bytes string float double int32 int64 uint32 uint64 bool message map
    repeated: bool = False
    message: str = ""  # a message field's type (a map's value type), by full name
    oneof: str = ""

    @property
    def packed(self) -> bool:
        """proto3 packs repeated scalar numbers."""
        return self.repeated and self.type in _NUMERIC

    @property
    def json_name(self) -> str:
        head, *rest = self.name.split("_")
        return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _f(name, number, type_, repeated=False, message="", oneof=""):
    return Field(name, number, type_, repeated, message, oneof)


MESSAGES: dict[str, tuple[Field, ...]] = {
    "tensorflow.BytesList": (_f("value", 1, "bytes", True),),
    "tensorflow.FloatList": (_f("value", 1, "float", True),),
    "tensorflow.Int64List": (_f("value", 1, "int64", True),),
    "tensorflow.Feature": (_f("bytes_list", 1, "message", message="tensorflow.BytesList", oneof="kind"),
                           _f("float_list", 2, "message", message="tensorflow.FloatList", oneof="kind"),
                           _f("int64_list", 3, "message", message="tensorflow.Int64List", oneof="kind")),
    "tensorflow.Features": (_f("feature", 1, "map", message="tensorflow.Feature"),),
    "tensorflow.FeatureList": (_f("feature", 1, "message", True, "tensorflow.Feature"),),
    "tensorflow.FeatureLists": (_f("feature_list", 1, "map", message="tensorflow.FeatureList"),),
    "tensorflow.Example": (_f("features", 1, "message", message="tensorflow.Features"),),
    "tensorflow.SequenceExample": (_f("context", 1, "message", message="tensorflow.Features"),
                                   _f("feature_lists", 2, "message", message="tensorflow.FeatureLists")),
    "tensorflow.HistogramProto": (_f("min", 1, "double"), _f("max", 2, "double"), _f("num", 3, "double"),
                                  _f("sum", 4, "double"), _f("sum_squares", 5, "double"),
                                  _f("bucket_limit", 6, "double", True), _f("bucket", 7, "double", True)),
    "tensorflow.SummaryMetadata": (_f("plugin_data", 1, "message", message="tensorflow.SummaryMetadata.PluginData"),
                                   _f("display_name", 2, "string"), _f("summary_description", 3, "string")),
    "tensorflow.SummaryMetadata.PluginData": (_f("plugin_name", 1, "string"), _f("content", 2, "bytes")),
    "tensorflow.Summary": (_f("value", 1, "message", True, "tensorflow.Summary.Value"),),
    "tensorflow.Summary.Image": (_f("height", 1, "int32"), _f("width", 2, "int32"), _f("colorspace", 3, "int32"),
                                 _f("encoded_image_string", 4, "bytes")),
    "tensorflow.Summary.Audio": (_f("sample_rate", 1, "float"), _f("num_channels", 2, "int64"),
                                 _f("length_frames", 3, "int64"), _f("encoded_audio_string", 4, "bytes"),
                                 _f("content_type", 5, "string")),
    "tensorflow.Summary.Value": (_f("node_name", 7, "string"), _f("tag", 1, "string"),
                                 _f("metadata", 9, "message", message="tensorflow.SummaryMetadata"),
                                 _f("simple_value", 2, "float", oneof="value"),
                                 _f("obsolete_old_style_histogram", 3, "bytes", oneof="value"),
                                 _f("image", 4, "message", message="tensorflow.Summary.Image", oneof="value"),
                                 _f("histo", 5, "message", message="tensorflow.HistogramProto", oneof="value"),
                                 _f("audio", 6, "message", message="tensorflow.Summary.Audio", oneof="value")),
}

_NUMERIC = {"float", "double", "int32", "int64", "uint32", "uint64", "bool"}
_DEFAULTS = {"bytes": b"", "string": "", "float": 0.0, "double": 0.0, "bool": False}


def default(field: Field):
    return _DEFAULTS.get(field.type, 0)


def fields_of(name: str) -> tuple[Field, ...]:
    return MESSAGES[name]


def by_name(name: str) -> dict[str, Field]:
    return {f.name: f for f in MESSAGES[name]}


def entry_name(field: Field) -> str:
    """A map field's entry message, as protoc names it: ``feature_list`` → ``FeatureListEntry``."""
    return "".join(part.capitalize() for part in field.name.split("_")) + "Entry"


# the wire format of one value ------------------------------------------------------------------

def _scalar_wire(field_type: str) -> int:
    return {"float": wire.FIXED32, "double": wire.FIXED64}.get(field_type, wire.VARINT)


def encode_scalar(field_type: str, value) -> bytes:
    if field_type == "float":
        return struct.pack("<f", value)
    if field_type == "double":
        return struct.pack("<d", value)
    return wire.varint(int(value))


def encode_value(field: Field, value) -> bytes:
    """One value of ``field`` with its tag; a message given as its serialized bytes."""
    if field.type in ("bytes", "string", "message", "map"):
        return wire.delimited(field.number, value.encode() if isinstance(value, str) else bytes(value))
    return wire.tag(field.number, _scalar_wire(field.type)) + encode_scalar(field.type, value)


def encode_values(field: Field, values, packed: bool = True) -> bytes:
    """All of a field's values: one packed field for repeated numbers (unless ``packed`` is off)."""
    if not len(values):
        return b""
    if packed and field.packed:
        return wire.delimited(field.number, b"".join(encode_scalar(field.type, v) for v in values))
    return b"".join(encode_value(field, v) for v in values)


def decode_scalar(field_type: str, kind: int, value):
    """A number as read off the wire (``kind`` its wire type) → the field's Python value."""
    if field_type == "float":
        return struct.unpack("<f", value)[0]
    if field_type == "double":
        return struct.unpack("<d", value)[0]
    if field_type == "bool":
        return bool(value)
    if field_type == "int32":
        return wire.signed64(value) if value >= 1 << 63 else (value - (1 << 32) if value >= 1 << 31 else value)
    if field_type == "int64":
        return wire.signed64(value)
    if field_type == "uint32":
        return value & 0xFFFFFFFF
    return value


def _unpack(field_type: str, payload: bytes) -> list:
    size = {"float": 4, "double": 8}.get(field_type)
    if size:
        return [decode_scalar(field_type, 0, payload[i:i + size]) for i in range(0, len(payload), size)]
    out, at = [], 0
    while at < len(payload):
        value, at = wire.read_varint(payload, at)
        out.append(decode_scalar(field_type, wire.VARINT, value))
    return out


def decode(name: str, data: bytes) -> tuple[dict[str, list], bytes]:
    """Every declared field's values in wire order (a message's or map entry's as its bytes, a
    string's as bytes), and the bytes of the fields not declared (kept, as protobuf keeps them)."""
    numbers = {f.number: f for f in MESSAGES[name]}
    out: dict[str, list] = {}
    unknown = bytearray()
    for number, kind, value in wire.fields(data):
        field = numbers.get(number)
        if field is None:
            unknown += _reencode(number, kind, value)
            continue
        values = out.setdefault(field.name, [])
        if field.type in ("bytes", "string", "message", "map"):
            if kind != wire.DELIMITED:
                raise wire.DecodeError("Error parsing message")
            values.append(value)
        elif kind == wire.DELIMITED:
            values.extend(_unpack(field.type, value))
        else:
            values.append(decode_scalar(field.type, kind, value))
        if field.oneof:  # setting one member of a oneof clears the others
            for other in MESSAGES[name]:
                if other.oneof == field.oneof and other is not field:
                    out.pop(other.name, None)
    return out, bytes(unknown)


def _reencode(number: int, kind: int, value) -> bytes:
    if kind == wire.VARINT:
        return wire.tag(number, kind) + wire.varint(value)
    if kind == wire.DELIMITED:
        return wire.delimited(number, value)
    return wire.tag(number, kind) + value


def map_entry(data: bytes) -> tuple[str, bytes]:
    key, value = "", b""
    for number, _, v in wire.fields(data):
        if number == 1:
            key = v.decode()
        elif number == 2:
            value = v
    return key, value
