"""``tf.train.Example`` and its parts (``Features``, ``Feature``, ``BytesList``, ``FloatList``,
``Int64List``) as TensorFlow's ``example.proto``/``feature.proto`` define them, encoded by hand in
the protocol-buffer wire format (:mod:`.wire`) so that devtrace needs no ``protobuf`` package: the
bytes ``SerializeToString`` gives are TensorFlow's (a ``Features`` map in insertion order, or by
key with ``deterministic=True`` as protobuf sorts it; protobuf's own map order varies from process
to process), and ``str()`` is the text format, map entries by key as ``text_format`` prints them."""

from __future__ import annotations

from . import wire


class _Message:
    """A message: its fields' defaults, ``==`` by value, ``FromString``/``ParseFromString``."""

    _FIELDS: tuple = ()

    def __eq__(self, other):
        return type(self) is type(other) and self.SerializeToString(deterministic=True) == \
            other.SerializeToString(deterministic=True)

    __hash__ = None

    @classmethod
    def FromString(cls, serialized):  # noqa: N802 (protobuf's name)
        out = cls()
        out.ParseFromString(serialized)
        return out

    def ParseFromString(self, serialized):  # noqa: N802
        self.Clear()
        self.MergeFromString(bytes(serialized))
        return len(serialized)

    def CopyFrom(self, other):  # noqa: N802
        self.ParseFromString(other.SerializeToString())

    def ByteSize(self) -> int:  # noqa: N802
        return len(self.SerializeToString())

    def __str__(self):
        return "".join(self._text(0))

    __repr__ = __str__


class _List(_Message):
    """``BytesList``/``FloatList``/``Int64List``: ``value``, a repeated field (packed but for bytes)."""

    def __init__(self, value=None):
        self.value = list(self._convert(v) for v in (value if value is not None else ()))

    def Clear(self):  # noqa: N802
        self.value = []

    def _text(self, indent):
        pad = " " * indent
        return [f"{pad}value: {self._text_value(v)}\n" for v in self.value]


class BytesList(_List):
    @staticmethod
    def _convert(v):
        if isinstance(v, str):
            return v.encode()
        if not isinstance(v, (bytes, bytearray)):
            raise TypeError(f"{v!r} has type {type(v).__name__}, but expected one of: bytes")
        return bytes(v)

    _text_value = staticmethod(wire.text_bytes)

    def SerializeToString(self, deterministic=False):  # noqa: N802
        return b"".join(wire.delimited(1, v) for v in self.value)

    def MergeFromString(self, data):  # noqa: N802
        self.value.extend(v for f, _, v in wire.fields(data) if f == 1)


class FloatList(_List):
    @staticmethod
    def _convert(v):
        import numpy as np

        return float(np.float32(v))

    _text_value = staticmethod(wire.text_float)

    def SerializeToString(self, deterministic=False):  # noqa: N802
        return wire.delimited(1, wire.packed_floats(self.value)) if self.value else b""

    def MergeFromString(self, data):  # noqa: N802
        for f, kind, v in wire.fields(data):
            if f == 1:
                self.value.extend(wire.unpack_floats(v) if kind == wire.DELIMITED else wire.unpack_floats(v))


class Int64List(_List):
    @staticmethod
    def _convert(v):
        return int(v)

    _text_value = staticmethod(str)

    def SerializeToString(self, deterministic=False):  # noqa: N802
        return wire.delimited(1, b"".join(wire.varint(v) for v in self.value)) if self.value else b""

    def MergeFromString(self, data):  # noqa: N802
        for f, kind, v in wire.fields(data):
            if f == 1:
                self.value.extend(wire.unpack_varints(v) if kind == wire.DELIMITED else [wire.signed64(v)])


_KINDS = (("bytes_list", 1, BytesList), ("float_list", 2, FloatList), ("int64_list", 3, Int64List))


class Feature(_Message):
    """One of ``bytes_list``, ``float_list``, ``int64_list`` (the oneof ``kind``)."""

    def __init__(self, bytes_list=None, float_list=None, int64_list=None):
        given = [(n, v) for n, v in (("bytes_list", bytes_list), ("float_list", float_list),
                                     ("int64_list", int64_list)) if v is not None]
        self._kind, self._value = given[-1] if given else (None, None)

    def Clear(self):  # noqa: N802
        self._kind = self._value = None

    def WhichOneof(self, oneof_group):  # noqa: N802
        if oneof_group != "kind":
            raise ValueError(f'Protocol message has no oneof "{oneof_group}" field.')
        return self._kind

    def HasField(self, name):  # noqa: N802
        return self._kind == name

    def __getattr__(self, name):
        for kind, _, cls in _KINDS:
            if name == kind:
                if self._kind != kind:
                    self._kind, self._value = kind, cls()
                return self._value
        raise AttributeError(name)

    def SerializeToString(self, deterministic=False):  # noqa: N802
        for kind, number, _ in _KINDS:
            if self._kind == kind:
                return wire.delimited(number, self._value.SerializeToString())
        return b""

    def MergeFromString(self, data):  # noqa: N802
        for f, _, v in wire.fields(data):
            for kind, number, cls in _KINDS:
                if f == number:
                    if self._kind != kind:
                        self._kind, self._value = kind, cls()
                    self._value.MergeFromString(v)

    def _text(self, indent):
        if self._kind is None:
            return []
        pad = " " * indent
        return [f"{pad}{self._kind} {{\n", *self._value._text(indent + 2), f"{pad}}}\n"]


class _FeatureMap(dict):
    """``Features.feature``: reading a missing key adds an empty ``Feature``, as protobuf's maps do."""

    def __missing__(self, key):
        self[key] = Feature()
        return self[key]


class Features(_Message):
    def __init__(self, feature=None):
        self.feature = _FeatureMap(feature or {})

    def Clear(self):  # noqa: N802
        self.feature = _FeatureMap()

    def SerializeToString(self, deterministic=False):  # noqa: N802
        keys = sorted(self.feature) if deterministic else list(self.feature)
        return b"".join(wire.delimited(1, wire.delimited(1, k.encode()) + wire.delimited(
            2, self.feature[k].SerializeToString(deterministic))) for k in keys)

    def MergeFromString(self, data):  # noqa: N802
        for f, _, entry in wire.fields(data):
            if f == 1:
                key, value = "", Feature()
                for g, _, v in wire.fields(entry):
                    if g == 1:
                        key = v.decode()
                    elif g == 2:
                        value = Feature.FromString(v)
                self.feature[key] = value

    def _text(self, indent):
        pad, out = " " * indent, []
        for key in sorted(self.feature):
            out += [f"{pad}feature {{\n", f"{pad}  key: {wire.text_bytes(key.encode())}\n", f"{pad}  value {{\n",
                    *self.feature[key]._text(indent + 4), f"{pad}  }}\n", f"{pad}}}\n"]
        return out


class Example(_Message):
    def __init__(self, features=None):
        self._features = features

    @property
    def features(self):
        if self._features is None:
            self._features = Features()
        return self._features

    def Clear(self):  # noqa: N802
        self._features = None

    def HasField(self, name):  # noqa: N802
        return name == "features" and self._features is not None

    def SerializeToString(self, deterministic=False):  # noqa: N802
        if self._features is None:
            return b""
        return wire.delimited(1, self._features.SerializeToString(deterministic))

    def MergeFromString(self, data):  # noqa: N802
        for f, _, v in wire.fields(data):
            if f == 1:
                self.features.MergeFromString(v)

    def _text(self, indent):
        if self._features is None:
            return []
        pad = " " * indent
        return [f"{pad}features {{\n", *self._features._text(indent + 2), f"{pad}}}\n"]
