"""``tf.io.decode_proto``/``encode_proto`` and ``tf.io.decode_json_example``: the ops
``DecodeProtoV2``, ``EncodeProto`` and ``DecodeJSONExample``, CPU-only as in TensorFlow. As
TensorFlow's kernels they read and write the wire format (and JSON) by the messages' descriptions
(:mod:`.proto_schema`: the message types TensorFlow's own pool has that devtrace declares), so
they need no protobuf package."""

from __future__ import annotations

import base64
import json
import math

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..declare import op, public
from . import proto_schema as schema
from . import wire

# the dtypes a field of each type decodes to / encodes from (TensorFlow's decode_proto's table)
_DTYPES = {"float": ("float32", "float64"), "double": ("float64",), "int32": ("int32", "int64"),
           "int64": ("int64",), "uint32": ("uint32", "uint64"), "uint64": ("uint64",), "bool": ("bool",),
           "string": ("string",), "bytes": ("string",), "message": ("string",), "map": ("string",)}


def _fields(message_type, field_names):
    if message_type not in schema.MESSAGES:
        raise InvalidArgumentError(f"No descriptor found for message type {message_type}")
    declared = schema.by_name(message_type)
    out = []
    for name in field_names:
        if name not in declared:
            raise InvalidArgumentError(f"Unknown field: {name} in message type {message_type}")
        out.append(declared[name])
    return out


def _type_name(field):
    return "message" if field.type == "map" else field.type


def _decode_proto(xp, data, message_type="", field_names=(), output_types=(), descriptor_source="local://",
                  message_format="binary", sanitize=False):
    fields = _fields(message_type, field_names)
    for field, dtype in zip(fields, output_types):
        if dtype not in _DTYPES[field.type]:
            raise InvalidArgumentError(f"Unexpected output type for {message_type}.{field.name}: "
                                       f"{_type_name(field)} to {dtypes.as_dtype(dtype).enum_name}")
    records = np.asarray(data, dtype=object)
    decoded = []
    for record in records.reshape(-1).tolist():
        try:
            values, _ = schema.decode(message_type, record)
        except wire.DecodeError:
            raise InvalidArgumentError("CountFields: Failed to consume entire buffer") from None
        decoded.append([values.get(f.name, [])[-1:] if not f.repeated and f.type != "map" else values.get(f.name, [])
                        for f in fields])
    sizes = np.array([[len(v) for v in row] for row in decoded], np.int32).reshape(records.shape + (len(fields),))
    outputs = []
    for i, (field, dtype) in enumerate(zip(fields, output_types)):
        width = max((len(row[i]) for row in decoded), default=0)
        if dtype == "string":
            out = np.full((len(decoded), width), b"", dtype=object)
        else:
            out = np.zeros((len(decoded), width), dtypes.as_dtype(dtype).np)
        for b, row in enumerate(decoded):
            for j, value in enumerate(row[i]):
                out[b, j] = value.encode() if isinstance(value, str) else value
        outputs.append(out.reshape(records.shape + (width,)))
    return (sizes, *outputs)


def _decode_shapes(name, shapes, attrs, dtype):
    batch = shapes[0]
    rank = None if batch is None else tuple(batch)
    sizes = None if rank is None else rank + (len(attrs["field_names"]),)
    values = None if rank is None else rank + (None,)
    return [(dtypes.int32, sizes)] + [(dtypes.as_dtype(t), values) for t in attrs["output_types"]], None


op("DecodeProtoV2", _decode_proto, {CPU: {"string"}}, devices=(CPU,), multi=True, shape=_decode_shapes)


def _encode_proto(xp, sizes, *values, field_names=(), message_type="", descriptor_source="local://"):
    fields = _fields(message_type, field_names)
    sizes = np.asarray(sizes)
    if sizes.ndim < 1 or sizes.shape[-1] != len(fields):
        raise InvalidArgumentError(f"Sizes must have {len(fields)} columns, one per field")
    for field, value in zip(fields, values):
        value = np.asarray(value)
        if value.ndim < 2:
            raise InvalidArgumentError(f"Invalid shape for field {field.name}.  Saw shape {list(value.shape)} but it "
                                       f"should be at least a matrix.")
        name = "string" if value.dtype == object else dtypes.as_dtype(value.dtype).name
        if name not in _DTYPES[field.type]:
            raise InvalidArgumentError(f"Incompatible type for field {field.name}.  Saw dtype: "
                                       f"{dtypes.as_dtype(name).enum_name[3:].lower()} but field type is: "
                                       f"{_type_name(field)}")
    batch = sizes.shape[:-1]
    flat_sizes = sizes.reshape(-1, len(fields))
    flat_values = [np.asarray(v).reshape(-1, np.asarray(v).shape[-1]) for v in values]
    order = sorted(range(len(fields)), key=lambda i: fields[i].number)  # fields are written by number
    out = []
    for m in range(flat_sizes.shape[0]):
        parts = []
        for i in order:
            size = int(flat_sizes[m, i])
            if size > flat_values[i].shape[1]:
                raise InvalidArgumentError(f"Size to write must not be larger than value tensor; but saw: {size} > "
                                           f"{flat_values[i].shape[1]} at message {m} field {i}")
            chosen = flat_values[i][m, :size].tolist()
            parts.append(schema.encode_values(fields[i], chosen) if fields[i].repeated else
                         b"".join(schema.encode_value(fields[i], v) for v in chosen))
        out.append(b"".join(parts))
    return np.array(out, dtype=object).reshape(batch)


def _encode_shapes(name, shapes, attrs, dtype):
    sizes = shapes[0]
    return dtypes.string, None if sizes is None else tuple(sizes)[:-1]


op("EncodeProto", _encode_proto, None, devices=(CPU,), mixed_dtypes=True, shape=_encode_shapes)


def _json_value(field, value):
    """A JSON value of ``field`` → its wire value (proto3's JSON mapping)."""
    if field.type == "bytes":
        return base64.b64decode(value)
    if field.type == "string":
        return value.encode()
    if field.type in ("float", "double"):
        special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
        return special[value] if value in special else float(value)
    if field.type == "bool":
        return bool(value)
    return int(value)


def json_to_binary(message_type: str, obj: dict) -> bytes:
    """A JSON object as a message's bytes, as protobuf's JSON-to-binary stream writes them:
    fields in the JSON's order, repeated numbers unpacked."""
    if not isinstance(obj, dict):
        raise InvalidArgumentError(f"Error while parsing JSON: invalid JSON in type.googleapis.com/{message_type}: "
                                   f"expected an object, got {json.dumps(obj)[:20]}")
    declared = {f.json_name: f for f in schema.MESSAGES[message_type]}
    declared.update({f.name: f for f in schema.MESSAGES[message_type]})
    out = []
    for key, value in obj.items():
        field = declared.get(key)
        if field is None:
            raise InvalidArgumentError(f"Error while parsing JSON: invalid JSON in type.googleapis.com/"
                                       f"{message_type}: no such field: '{key}'")
        if value is None:
            continue
        if field.type == "map":
            for k, v in value.items():
                out.append(wire.delimited(field.number, wire.delimited(1, k.encode()) + wire.delimited(
                    2, json_to_binary(field.message, v))))
        elif field.type == "message":
            subs = value if field.repeated else [value]
            out += [wire.delimited(field.number, json_to_binary(field.message, v)) for v in subs]
        else:
            items = value if field.repeated else [value]
            out += [schema.encode_value(field, _json_value(field, v)) for v in items]
    return b"".join(out)


def _decode_json_example(xp, json_examples):
    texts = np.asarray(json_examples, dtype=object)
    out = []
    for text in texts.reshape(-1).tolist():
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidArgumentError(f"Error while parsing JSON: {e.msg}") from None
        out.append(json_to_binary("tensorflow.Example", obj))
    return np.array(out, dtype=object).reshape(texts.shape)


op("DecodeJSONExample", _decode_json_example, {CPU: {"string"}}, devices=(CPU,),
   shape=lambda name, shapes, attrs, dtype: (dtypes.string, shapes[0]))


def _strings(x):
    return x if isinstance(x, Tensor) else constant(x, dtypes.string)


@public("io.decode_json_example", "compat.v1.decode_json_example")
def decode_json_example(json_examples, name=None):
    return execute("DecodeJSONExample", (_strings(json_examples),), None, name=name, dtype=dtypes.string)


@public("io.decode_proto")
def decode_proto(bytes, message_type, field_names, output_types, descriptor_source="local://",  # noqa: A002
                 message_format="binary", sanitize=False, name=None):
    attrs = {"message_type": message_type, "field_names": tuple(field_names),
             "output_types": tuple(dtypes.as_dtype(t).name for t in output_types),
             "descriptor_source": descriptor_source, "message_format": message_format, "sanitize": bool(sanitize)}
    sizes, *values = execute("DecodeProtoV2", (_strings(bytes),), attrs, name=name, dtype=dtypes.string)
    return sizes, values


@public("io.encode_proto")
def encode_proto(sizes, values, field_names, message_type, descriptor_source="local://", name=None):
    sizes = sizes if isinstance(sizes, Tensor) else constant(sizes, dtypes.int32)
    values = [v if isinstance(v, Tensor) else constant(v) for v in values]
    attrs = {"field_names": tuple(field_names), "message_type": message_type,
             "descriptor_source": descriptor_source}
    return execute("EncodeProto", (sizes, *values), attrs, name=name, dtype=dtypes.int32)
