"""TensorFlow's message classes (``tf.train.Example`` …, ``tf.compat.v1.Summary``) from the one
table of :mod:`.proto_schema`: real protobuf classes when ``google.protobuf`` is importable (built
from a ``FileDescriptorProto`` made here, in a pool of devtrace's own, so ``text_format``,
``json_format`` and ``DESCRIPTOR`` work as with TensorFlow's), else pure-Python classes with
protobuf's message API over the same wire format (``DEVTRACE_NO_PROTOBUF=1`` forces these)."""

from __future__ import annotations

import os

import numpy as np

from . import proto_schema as schema
from . import wire
from .proto_schema import Field

# ---------------------------------------------------------------------------------------------------
# without protobuf


class _Map(dict):
    """A message-valued map: reading a missing key adds an empty value, as protobuf's maps do."""

    def __init__(self, value_cls):
        super().__init__()
        self._value_cls = value_cls

    def __missing__(self, key):
        self[key] = self._value_cls()
        return self[key]


class PureMessage:
    """A message of :data:`proto_schema.MESSAGES` with protobuf's Python API (the part TensorFlow's
    users call) and its wire and text formats."""

    _NAME = ""
    _FIELDS: dict[str, Field] = {}
    _CLASSES: dict = {}  # the pure classes, by full name

    def __init__(self, **kwargs):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_unknown", b"")
        for key, value in kwargs.items():
            field = self._field(key, ValueError)
            if value is None:
                continue
            if field.type == "map":
                target = getattr(self, key)
                for k, v in dict(value).items():
                    target[k] = _copy(v)
            elif field.repeated:
                getattr(self, key).extend(_copy(v) if field.type == "message" else _convert(field, v) for v in value)
            elif field.type == "message":
                self._set(field, _copy(value))
            else:
                self._set(field, _convert(field, value))

    @classmethod
    def _field(cls, name, error=AttributeError):
        field = cls._FIELDS.get(name)
        if field is None:
            raise error(f'Protocol message {cls.__name__} has no "{name}" field.')
        return field

    def _set(self, field, value):
        if field.oneof:
            for other in self._FIELDS.values():
                if other.oneof == field.oneof:
                    self._values.pop(other.name, None)
        self._values[field.name] = value

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        field = self._field(name)
        values = self._values
        if name in values:
            return values[name]
        if field.type == "map":
            values[name] = _Map(self._CLASSES[field.message])
        elif field.repeated:
            values[name] = []
        elif field.type == "message":
            self._set(field, self._CLASSES[field.message]())
        else:
            return schema.default(field)
        return values[name]

    def __setattr__(self, name, value):
        field = self._field(name)
        if field.repeated or field.type in ("message", "map"):
            raise AttributeError(f'Assignment not allowed to field "{name}" in protocol message object.')
        self._set(field, _convert(field, value))

    def HasField(self, name):  # noqa: N802 (protobuf's names)
        field = self._field(name, ValueError)
        if field.repeated:
            raise ValueError(f'Protocol message has no singular "{name}" field.')
        return name in self._values

    def WhichOneof(self, oneof_group):  # noqa: N802
        members = [f.name for f in self._FIELDS.values() if f.oneof == oneof_group]
        if not members:
            raise ValueError(f'Protocol message has no oneof "{oneof_group}" field.')
        return next((m for m in members if m in self._values), None)

    def ClearField(self, name):  # noqa: N802
        self._field(name, ValueError)
        self._values.pop(name, None)

    def Clear(self):  # noqa: N802
        self._values.clear()
        object.__setattr__(self, "_unknown", b"")

    def ListFields(self):  # noqa: N802
        out = []
        for field in sorted(self._FIELDS.values(), key=lambda f: f.number):
            if field.name in self._values and _present(field, self._values[field.name]):
                out.append((field, self._values[field.name]))
        return out

    def SerializeToString(self, deterministic=False):  # noqa: N802
        out = []
        for field, value in self.ListFields():
            if field.type == "map":
                keys = sorted(value) if deterministic else list(value)
                out += [wire.delimited(field.number, wire.delimited(1, k.encode()) + wire.delimited(
                    2, value[k].SerializeToString(deterministic))) for k in keys]
            elif field.type == "message":
                subs = value if field.repeated else [value]
                out += [wire.delimited(field.number, m.SerializeToString(deterministic)) for m in subs]
            else:
                out.append(schema.encode_values(field, value if field.repeated else [value]))
        return b"".join(out) + self._unknown

    SerializePartialToString = SerializeToString

    def MergeFromString(self, serialized):  # noqa: N802
        decoded, unknown = schema.decode(self._NAME, bytes(serialized))
        for name, values in decoded.items():
            field = self._FIELDS[name]
            if field.type == "map":
                target = getattr(self, name)
                for entry in values:
                    key, value = schema.map_entry(entry)
                    target[key] = self._CLASSES[field.message].FromString(value)
            elif field.type == "message" and field.repeated:
                getattr(self, name).extend(self._CLASSES[field.message].FromString(v) for v in values)
            elif field.type == "message":
                sub = getattr(self, name)
                for v in values:
                    sub.MergeFromString(v)
            elif field.repeated:
                getattr(self, name).extend(v.decode() if field.type == "string" else v for v in values)
            else:
                value = values[-1]
                self._set(field, value.decode() if field.type == "string" else value)
        object.__setattr__(self, "_unknown", self._unknown + unknown)
        return len(serialized)

    def ParseFromString(self, serialized):  # noqa: N802
        self.Clear()
        return self.MergeFromString(serialized)

    @classmethod
    def FromString(cls, serialized):  # noqa: N802
        out = cls()
        out.MergeFromString(serialized)
        return out

    def CopyFrom(self, other):  # noqa: N802
        self.ParseFromString(other.SerializeToString())

    def MergeFrom(self, other):  # noqa: N802
        self.MergeFromString(other.SerializeToString())

    def ByteSize(self) -> int:  # noqa: N802
        return len(self.SerializeToString())

    def IsInitialized(self):  # noqa: N802
        return True

    def __eq__(self, other):
        return type(self) is type(other) and self.SerializeToString(deterministic=True) == \
            other.SerializeToString(deterministic=True)

    __hash__ = None

    def _text(self, indent):
        pad, out = " " * indent, []
        for field, value in self.ListFields():
            if field.type == "map":
                for key in sorted(value):
                    out += [f"{pad}{field.name} {{\n", f"{pad}  key: {wire.text_bytes(key.encode())}\n",
                            f"{pad}  value {{\n", *value[key]._text(indent + 4), f"{pad}  }}\n", f"{pad}}}\n"]
            elif field.type == "message":
                for sub in (value if field.repeated else [value]):
                    out += [f"{pad}{field.name} {{\n", *sub._text(indent + 2), f"{pad}}}\n"]
            else:
                out += [f"{pad}{field.name}: {_text_value(field, v)}\n"
                        for v in (value if field.repeated else [value])]
        return out

    def __str__(self):
        return "".join(self._text(0))

    __repr__ = __str__


def _present(field, value):
    if field.repeated or field.type == "map":
        return len(value) > 0
    return field.type == "message" or bool(field.oneof) or value != schema.default(field)


def _copy(message):
    return type(message).FromString(message.SerializeToString())


def _convert(field, value):
    if field.type == "bytes":
        if not isinstance(value, (bytes, bytearray)):
            raise TypeError(f"{value!r} has type {type(value).__name__}, but expected one of: bytes")
        return bytes(value)
    if field.type == "string":
        return value.decode() if isinstance(value, (bytes, bytearray)) else str(value)
    if field.type == "float":
        return float(np.float32(value))
    if field.type == "double":
        return float(value)
    if field.type == "bool":
        return bool(value)
    return int(value)


def _text_value(field, value):
    if field.type in ("bytes", "string"):
        return wire.text_bytes(value.encode() if isinstance(value, str) else value)
    if field.type == "float":
        return wire.text_float(value)
    if field.type == "bool":
        return "true" if value else "false"
    return wire.text_double(value) if field.type == "double" else str(value)


def _pure_classes() -> dict:
    classes = {}
    for name in schema.MESSAGES:
        classes[name] = type(name.rsplit(".", 1)[1], (PureMessage,), {
            "_NAME": name, "_FIELDS": schema.by_name(name), "_CLASSES": classes, "__module__": __name__,
            "__qualname__": name[11:]})
    for name, cls in classes.items():  # nested messages are attributes of their parent (Summary.Value)
        parent = name.rsplit(".", 1)[0]
        if parent in classes:
            setattr(classes[parent], cls.__name__, cls)
    return classes


# ---------------------------------------------------------------------------------------------------
# with protobuf

_TYPES = {"bytes": 12, "string": 9, "float": 2, "double": 1, "int32": 5, "int64": 3, "uint32": 13, "uint64": 4,
          "bool": 8, "message": 11}


def file_descriptor():
    """A ``FileDescriptorProto`` of every message of the table, package ``tensorflow``, proto3."""
    from google.protobuf import descriptor_pb2

    proto = descriptor_pb2.FileDescriptorProto(name="devtrace/tensorflow_messages.proto", package="tensorflow",
                                               syntax="proto3")
    made = {}
    for name in schema.MESSAGES:  # parents are listed before their nested messages
        parent = name.rsplit(".", 1)[0]
        holder = made[parent].nested_type if parent in made else proto.message_type
        made[name] = message = holder.add(name=name.rsplit(".", 1)[1])
        oneofs = []
        for f in schema.fields_of(name):
            field = message.field.add(name=f.name, number=f.number, json_name=f.json_name)
            field.label = field.LABEL_REPEATED if f.repeated or f.type == "map" else field.LABEL_OPTIONAL
            if f.type == "map":
                entry = message.nested_type.add(name=schema.entry_name(f))
                entry.options.map_entry = True
                entry.field.add(name="key", number=1, type=9, label=field.LABEL_OPTIONAL, json_name="key")
                entry.field.add(name="value", number=2, type=11, label=field.LABEL_OPTIONAL, json_name="value",
                                type_name="." + f.message)
                field.type, field.type_name = 11, f".{name}.{entry.name}"
            else:
                field.type = _TYPES[f.type]
                if f.type == "message":
                    field.type_name = "." + f.message
            if f.oneof:
                if f.oneof not in oneofs:
                    oneofs.append(f.oneof)
                    message.oneof_decl.add(name=f.oneof)
                field.oneof_index = oneofs.index(f.oneof)
    return proto


def _protobuf_classes() -> dict:
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_descriptor())
    get = getattr(message_factory, "GetMessageClass", None) or message_factory.MessageFactory(pool).GetPrototype
    return {name: get(pool.FindMessageTypeByName(name)) for name in schema.MESSAGES}


def _classes() -> dict:
    if os.environ.get("DEVTRACE_NO_PROTOBUF") != "1":
        try:
            return _protobuf_classes()
        except ImportError:
            pass
    return _pure_classes()


class _Classes(dict):
    """The classes by full name, made on first use: importing protobuf takes a tenth of a second,
    paid only by a program that uses a message."""

    def __missing__(self, name):
        if not self:
            self.update(_classes())
            if name in self:
                return self[name]
        raise KeyError(name)


CLASSES = _Classes()


def uses_protobuf() -> bool:
    """Whether the classes are protobuf's (else devtrace's pure-Python ones)."""
    return not issubclass(CLASSES["tensorflow.Example"], PureMessage)
