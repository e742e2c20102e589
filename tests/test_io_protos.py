"""TensorFlow's messages (``tf.train.Example`` …, ``tf.compat.v1.Summary``) and the proto ops
(``decode_proto``, ``encode_proto``, ``decode_json_example``, ``RaggedFeature``'s partitions) against
TensorFlow 2.21 (``tests/tf221_io/tf_protos.json``, written by ``capture_protos.py``): the same
bytes both ways, with protobuf's classes and with devtrace's pure-Python ones."""

import json
import pathlib
import sys

import numpy as np
import pytest

import devtrace as tf
from devtrace.ops.io import messages

HERE = pathlib.Path(__file__).parent / "tf221_io"
TF = json.loads((HERE / "tf_protos.json").read_text())
sys.path.insert(0, str(HERE))
from capture_protos import graph, messages as build  # noqa: E402  (the same constructors TensorFlow ran)

PURE = messages._pure_classes()


class _Namespace:
    """``tf.train``/``tf.compat.v1`` as far as ``capture_protos.messages`` reaches, over one class table."""

    def __init__(self, classes):
        c = {name: classes[f"tensorflow.{name}"] for name in (
            "Example", "SequenceExample", "Features", "Feature", "FeatureLists", "FeatureList", "BytesList",
            "FloatList", "Int64List", "Summary", "HistogramProto", "SummaryMetadata")}
        self.train = type("train", (), {k: c[k] for k in ("Example", "SequenceExample", "Features", "Feature",
                                                          "FeatureLists", "FeatureList", "BytesList", "FloatList",
                                                          "Int64List")})
        self.compat = type("compat", (), {"v1": type("v1", (), {"Summary": c["Summary"], "HistogramProto":
                                                                c["HistogramProto"], "SummaryMetadata":
                                                                c["SummaryMetadata"]})})


def _built(classes):
    return build(_Namespace(classes))


@pytest.mark.parametrize("classes", ["protobuf", "pure"])
def test_messages_serialize_to_tensorflows_bytes_and_parse_tensorflows(classes):
    if classes == "protobuf":
        if not messages.uses_protobuf():
            pytest.skip("protobuf is not installed (or DEVTRACE_NO_PROTOBUF=1)")
        table = messages.CLASSES
    else:
        table = PURE
    for name, message in _built(table).items():
        want = bytes.fromhex(TF["bytes"][name])
        assert message.SerializeToString(deterministic=True) == want, name
        assert type(message).FromString(want) == message
        assert type(message).FromString(want).SerializeToString(deterministic=True) == want
    summary = _built(table)["summary"]
    assert str(summary) == TF["text"]["summary"]
    assert summary.value[0].WhichOneof("value") == "simple_value" and summary.value[1].image.width == 3


def test_protobufs_text_and_json_formats_take_devtraces_messages():
    if not messages.uses_protobuf():
        pytest.skip("protobuf is not installed (or DEVTRACE_NO_PROTOBUF=1)")
    from google.protobuf import json_format, text_format

    built = _built(messages.CLASSES)
    for name, message in built.items():
        assert json_format.MessageToJson(message, sort_keys=True) == TF["json"][name]
        assert text_format.Parse(text_format.MessageToString(message), type(message)()) == message
    assert tf.compat.v1.Summary.Value.DESCRIPTOR.full_name == "tensorflow.Summary.Value"
    assert tf.train.Example is messages.CLASSES["tensorflow.Example"]


def test_the_pure_classes_keep_protobufs_api():
    example = PURE["tensorflow.Example"]()
    feature = example.features.feature["k"]
    assert feature.WhichOneof("kind") is None
    feature.int64_list.value.extend([1, 2])
    feature.float_list.value.append(0.5)  # the oneof switches kind
    assert feature.WhichOneof("kind") == "float_list" and not feature.HasField("int64_list")
    with pytest.raises(TypeError, match="has type str, but expected one of: bytes"):
        PURE["tensorflow.BytesList"](value=["abc"])
    with pytest.raises(AttributeError, match="Assignment not allowed"):
        example.features = PURE["tensorflow.Features"]()
    value = PURE["tensorflow.Summary"].Value(tag="t", simple_value=2.0)
    value.simple_value = 0.0  # a oneof member is written even when zero
    assert value.SerializeToString() == b"\n\x01t\x15\x00\x00\x00\x00"


def test_the_environment_switch_selects_the_pure_classes(monkeypatch):
    monkeypatch.setenv("DEVTRACE_NO_PROTOBUF", "1")
    assert issubclass(messages._classes()["tensorflow.Example"], messages.PureMessage)


def test_decode_proto_gives_tensorflows_sizes_and_values():
    summary = _built(messages.CLASSES)["summary"]
    sizes, (tag, simple, image, histo) = tf.io.decode_proto(
        [v.SerializeToString() for v in summary.value], "tensorflow.Summary.Value",
        ["tag", "simple_value", "image", "histo"], [tf.string, tf.float64, tf.string, tf.string])
    want = TF["decode_proto"]
    assert sizes.numpy().tolist() == want["sizes"] and sizes.dtype == tf.int32
    assert [[v.hex() for v in r] for r in tag.numpy().tolist()] == want["tag"]
    assert simple.numpy().tolist() == want["simple_value"] and simple.dtype == tf.float64
    assert [[v.hex() for v in r] for r in image.numpy().tolist()] == want["image"]
    assert [[v.hex() for v in r] for r in histo.numpy().tolist()] == want["histo"]
    lists = [PURE["tensorflow.FloatList"](value=[1.5, -2.0]).SerializeToString(), b""]
    sizes, (floats,) = tf.io.decode_proto(lists, "tensorflow.FloatList", ["value"], [tf.float32])
    assert {"sizes": sizes.numpy().tolist(), "value": floats.numpy().tolist()} == TF["decode_proto_repeated"]


def test_encode_proto_writes_tensorflows_bytes():
    encoded = tf.io.encode_proto(tf.constant([[2, 1], [0, 1]]), [
        tf.constant([[1.0, 2.0], [0.0, 0.0]], tf.float64), tf.constant([[3.0], [0.0]], tf.float64)],
        ["bucket", "min"], "tensorflow.HistogramProto")
    assert [v.hex() for v in encoded.numpy().tolist()] == TF["encode_proto"]


def test_decode_json_example_writes_protobufs_stream_bytes():
    got = tf.io.decode_json_example(TF["decode_json_example"]["json"])
    assert got.numpy().hex() == TF["decode_json_example"]["bytes"]  # repeated numbers unpacked, JSON's order
    assert tf.io.decode_json_example([[TF["decode_json_example"]["json"]] * 2]).shape == (1, 2)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.io.decode_proto([b""], "tensorflow.Nope", ["tag"], [tf.string]),
     "No descriptor found for message type tensorflow.Nope"),
    (lambda: tf.io.decode_proto([b""], "tensorflow.Summary.Value", ["nope"], [tf.string]),
     "Unknown field: nope in message type tensorflow.Summary.Value"),
    (lambda: tf.io.decode_proto([b""], "tensorflow.Int64List", ["value"], [tf.int32]),
     "Unexpected output type for tensorflow.Int64List.value: int64 to DT_INT32"),
    (lambda: tf.io.decode_proto([b"\xff\xff"], "tensorflow.Summary.Value", ["tag"], [tf.string]),
     "CountFields: Failed to consume entire buffer"),
    (lambda: tf.io.encode_proto(tf.constant([[2]]), [tf.constant([[2.5, 1.0]])], ["value"], "tensorflow.Int64List"),
     "Incompatible type for field value.  Saw dtype: float but field type is: int64"),
    (lambda: tf.io.encode_proto(tf.constant([[3]]), [tf.constant([[2.5, 1.0]])], ["value"], "tensorflow.FloatList"),
     "Size to write must not be larger than value tensor; but saw: 3 > 2 at message 0 field 0"),
    (lambda: tf.io.decode_json_example('{"featurez": 1}'), "no such field: 'featurez'"),
])
def test_the_proto_ops_raise_tensorflows_errors(call, error):
    with pytest.raises(tf.errors.InvalidArgumentError, match=error.replace(".", r"\.")):
        call()


def test_ragged_feature_partitions_nest_as_tensorflows():
    Example, Features, Feature, Int64List = (PURE[f"tensorflow.{n}"] for n in ("Example", "Features", "Feature",
                                                                              "Int64List"))

    def example(**lists):
        return Example(features=Features(feature={k: Feature(int64_list=Int64List(value=v))
                                                  for k, v in lists.items()})).SerializeToString()

    batch = [example(v=[3, 1, 4, 1, 5, 9], lengths=[2, 0, 4], ids=[0, 0, 2, 2, 2, 2]),
             example(v=[2, 7], lengths=[1, 1], ids=[1, 1])]
    RF = tf.io.RaggedFeature
    parsed = tf.io.parse_example(batch, {
        "l": RF(tf.int64, "v", [RF.RowLengths("lengths")]),
        "u": RF(tf.int64, "v", [RF.UniformRowLength(2)]),
        "i": RF(tf.int64, "v", [RF.ValueRowIds("ids")])})
    assert parsed["l"].to_list() == [[[3, 1], [], [4, 1, 5, 9]], [[2], [7]]]
    assert parsed["u"].to_list() == [[[3, 1], [4, 1], [5, 9]], [[2, 7]]] and parsed["u"].row_splits.dtype == tf.int32
    assert parsed["i"].to_list() == [[[3, 1], [], [4, 1, 5, 9]], [[], [2, 7]]]
    single = tf.io.parse_single_example(batch[0], {"l": RF(tf.int64, "v", [RF.RowLengths("lengths")])})
    assert single["l"].to_list() == [[3, 1], [], [4, 1, 5, 9]]
    with pytest.raises(ValueError, match="Conflicting partition type <dtype: 'int32'> vs <dtype: 'int64'> for "
                                         "feature v."):
        tf.io.parse_example(batch, {"a": RF(tf.int64, "v"), "b": RF(tf.int64, "v", row_splits_dtype=tf.int64)})


def test_write_graph_writes_tensorflows_graph_def(tmp_path):
    g = graph(tf)
    path = tf.io.write_graph(g, str(tmp_path / "new"), "g.pbtxt")
    assert path == str(tmp_path / "new" / "g.pbtxt")
    assert open(path).read() == TF["write_graph"]["text"]
    binary = tf.io.write_graph(g, str(tmp_path), "g.pb", as_text=False)
    assert open(binary, "rb").read().hex() == TF["write_graph"]["bytes"]
