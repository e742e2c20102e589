"""``tf.train.SequenceExample`` and its ``FeatureLists``/``FeatureList``: the protocol buffers,
serialised as TensorFlow's (field numbers of ``example.proto``/``feature.proto``), beside
``example_proto``'s ``Example``."""

from __future__ import annotations

from . import wire
from .example_proto import Feature, Features, _Message


class FeatureList(_Message):
    """``repeated Feature feature = 1``."""

    def __init__(self, feature=None):
        self.feature = list(feature or [])

    def Clear(self):  # noqa: N802 (protobuf's name)
        self.feature = []

    def SerializeToString(self, deterministic=False):  # noqa: N802
        return b"".join(wire.delimited(1, f.SerializeToString(deterministic)) for f in self.feature)

    def MergeFromString(self, data):  # noqa: N802
        for f, _, v in wire.fields(data):
            if f == 1:
                self.feature.append(Feature.FromString(v))

    def _text(self, indent):
        pad, out = " " * indent, []
        for feature in self.feature:
            out += [f"{pad}feature {{\n", *feature._text(indent + 2), f"{pad}}}\n"]
        return out


class _ListMap(dict):
    def __missing__(self, key):
        self[key] = FeatureList()
        return self[key]


class FeatureLists(_Message):
    """``map<string, FeatureList> feature_list = 1``."""

    def __init__(self, feature_list=None):
        self.feature_list = _ListMap(feature_list or {})

    def Clear(self):  # noqa: N802
        self.feature_list = _ListMap()

    def SerializeToString(self, deterministic=False):  # noqa: N802
        keys = sorted(self.feature_list) if deterministic else list(self.feature_list)
        return b"".join(wire.delimited(1, wire.delimited(1, k.encode()) + wire.delimited(
            2, self.feature_list[k].SerializeToString(deterministic))) for k in keys)

    def MergeFromString(self, data):  # noqa: N802
        for f, _, entry in wire.fields(data):
            if f == 1:
                key, value = "", FeatureList()
                for g, _, v in wire.fields(entry):
                    if g == 1:
                        key = v.decode()
                    elif g == 2:
                        value = FeatureList.FromString(v)
                self.feature_list[key] = value

    def _text(self, indent):
        pad, out = " " * indent, []
        for key in sorted(self.feature_list):
            out += [f"{pad}feature_list {{\n", f"{pad}  key: {wire.text_bytes(key.encode())}\n", f"{pad}  value {{\n",
                    *self.feature_list[key]._text(indent + 4), f"{pad}  }}\n", f"{pad}}}\n"]
        return out


class SequenceExample(_Message):
    """``Features context = 1; FeatureLists feature_lists = 2``."""

    def __init__(self, context=None, feature_lists=None):
        self._context, self._feature_lists = context, feature_lists

    @property
    def context(self):
        if self._context is None:
            self._context = Features()
        return self._context

    @property
    def feature_lists(self):
        if self._feature_lists is None:
            self._feature_lists = FeatureLists()
        return self._feature_lists

    def Clear(self):  # noqa: N802
        self._context = self._feature_lists = None

    def HasField(self, name):  # noqa: N802
        return getattr(self, "_" + name, None) is not None

    def SerializeToString(self, deterministic=False):  # noqa: N802
        out = b""
        if self._context is not None:
            out += wire.delimited(1, self._context.SerializeToString(deterministic))
        if self._feature_lists is not None:
            out += wire.delimited(2, self._feature_lists.SerializeToString(deterministic))
        return out

    def MergeFromString(self, data):  # noqa: N802
        for f, _, v in wire.fields(data):
            if f == 1:
                self.context.MergeFromString(v)
            elif f == 2:
                self.feature_lists.MergeFromString(v)

    def _text(self, indent):
        pad, out = " " * indent, []
        for name in ("context", "feature_lists"):
            part = getattr(self, "_" + name)
            if part is not None:
                out += [f"{pad}{name} {{\n", *part._text(indent + 2), f"{pad}}}\n"]
        return out
