"""TFRecord files and ``tf.train.Example``/``serialize_tensor`` bytes against TensorFlow 2.21's
(``tests/tf221_io/``, written by TensorFlow): devtrace reads what TensorFlow wrote and writes the
same bytes."""

import json
import pathlib

import numpy as np
import pytest

import devtrace as tf
from devtrace.ops.io import tfrecord

HERE = pathlib.Path(__file__).parent / "tf221_io"
TF = json.loads((HERE / "tf_written.json").read_text())
RECORDS = [bytes.fromhex(r) for r in TF["records"]]


def example():
    return tf.train.Example(features=tf.train.Features(feature={
        "b": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"abc", b"\x00\x08\xff\"'\\\n"])),
        "e": tf.train.Feature(),
        "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, -2, 2**40])),
        "y": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5488135, 1e-7, 3.0])),
    }))


def test_a_tensorflow_tfrecord_file_reads_back_as_its_records():
    got = list(tf.data.TFRecordDataset(str(HERE / "records.tfrecord")).as_numpy_iterator())
    assert got == RECORDS
    gz = tf.data.TFRecordDataset([str(HERE / "records.tfrecord.gz")], compression_type="GZIP")
    assert list(gz.as_numpy_iterator()) == RECORDS


def test_devtrace_writes_tensorflows_tfrecord_bytes(tmp_path):
    path = tmp_path / "out.tfrecord"
    with tf.io.TFRecordWriter(str(path)) as writer:
        for record in RECORDS:
            writer.write(record)
    assert path.read_bytes() == (HERE / "records.tfrecord").read_bytes()
    with tf.io.TFRecordWriter(str(tmp_path / "out.gz"), options=tf.io.TFRecordOptions(compression_type="GZIP")) as w:
        for record in RECORDS:
            w.write(record)
    assert list(tfrecord.tf_record_iterator(str(tmp_path / "out.gz"), "GZIP")) == RECORDS


def test_a_corrupted_record_is_a_data_loss_error(tmp_path):
    data = bytearray((HERE / "records.tfrecord").read_bytes())
    data[14] ^= 0xFF  # inside the first record's data: its CRC no longer matches
    (tmp_path / "bad.tfrecord").write_bytes(bytes(data))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 0"):
        list(tf.data.TFRecordDataset(str(tmp_path / "bad.tfrecord")).as_numpy_iterator())


def test_the_crc32c_and_its_mask_are_tensorflows():
    assert tfrecord.crc32c(b"123456789") == 0xE3069283  # CRC-32C's check value
    assert tfrecord.frame(b"hello")[:12] == bytes.fromhex("0500000000000000eab2043e")


def test_examples_serialize_to_tensorflows_bytes_and_parse_back():
    assert example().SerializeToString(deterministic=True).hex() == TF["example_deterministic"]
    one = tf.train.Example(features=tf.train.Features(feature={
        "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))}))
    assert one.SerializeToString().hex() == TF["single_feature_example"]
    parsed = tf.train.Example.FromString(bytes.fromhex(TF["example_deterministic"]))
    assert parsed == example()
    assert parsed.features.feature["x"].int64_list.value == [1, -2, 2**40]
    assert str(parsed.features.feature["y"]) == TF["example_text"]


@pytest.mark.parametrize("key", sorted(TF["serialized_tensors"]))
def test_serialize_tensor_gives_tensorflows_bytes(key):
    values = {"int32 [[1, 2], [7, 8]]": tf.constant([[1, 2], [7, 8]]), "float32 1.5": tf.constant(1.5),
              "string [ab, c]": tf.constant([b"ab", b"c"]), "float64 []": tf.zeros([0], tf.float64),
              "bool [[True], [False]]": tf.constant([[True], [False]]),
              "int64 [-1, 2**40]": tf.constant([-1, 2**40], tf.int64)}
    serialized = tf.io.serialize_tensor(values[key])
    assert serialized.numpy().hex() == TF["serialized_tensors"][key]
    back = tf.io.parse_tensor(serialized, values[key].dtype)
    np.testing.assert_array_equal(back.numpy(), values[key].numpy())
    assert back.shape == values[key].shape


def test_parse_example_reads_every_kind_of_feature():
    serialized = example().SerializeToString()
    parsed = tf.io.parse_example([serialized, serialized], {
        "x": tf.io.VarLenFeature(tf.int64), "y": tf.io.FixedLenFeature([3], tf.float32),
        "b": tf.io.RaggedFeature(tf.string), "z": tf.io.FixedLenFeature([], tf.int64, default_value=5)})
    assert sorted(parsed) == ["b", "x", "y", "z"]
    assert parsed["x"].indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert parsed["x"].dense_shape.numpy().tolist() == [2, 3]
    np.testing.assert_allclose(parsed["y"].numpy()[1], [0.5488135, 1e-7, 3.0], rtol=1e-6)
    assert parsed["b"].to_list() == [[b"abc", b"\x00\x08\xff\"'\\\n"]] * 2
    assert parsed["z"].numpy().tolist() == [5, 5]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature: w \\(data type: float\\) is required"):
        tf.io.parse_single_example(serialized, {"w": tf.io.FixedLenFeature([], tf.float32)})
