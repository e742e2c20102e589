"""Writes the TensorFlow-side files of ``tests/test_io_formats.py`` (run by hand in TensorFlow
2.21's venv, from this directory: ``/work/tfvenv/bin/python capture.py``): a TFRecord file, a
GZIP one, the ``tf.train.Example`` protos' bytes and ``serialize_tensor``'s, as TensorFlow 2.21
writes them. The test reads them with devtrace and writes the same with devtrace byte for byte."""

import json

import tensorflow as tf

assert tf.__version__ == "2.21.0", tf.__version__


def example():
    return tf.train.Example(features=tf.train.Features(feature={
        "b": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"abc", b"\x00\x08\xff\"'\\\n"])),
        "e": tf.train.Feature(),
        "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, -2, 2**40])),
        "y": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5488135, 1e-7, 3.0])),
    }))


RECORDS = [b"hello", b"", b"x" * 300, example().SerializeToString(deterministic=True)]
with tf.io.TFRecordWriter("records.tfrecord") as w:
    for r in RECORDS:
        w.write(r)
with tf.io.TFRecordWriter("records.tfrecord.gz", options="GZIP") as w:
    for r in RECORDS:
        w.write(r)
tensors = {
    "int32 [[1, 2], [7, 8]]": tf.constant([[1, 2], [7, 8]]),
    "float32 1.5": tf.constant(1.5),
    "string [ab, c]": tf.constant([b"ab", b"c"]),
    "float64 []": tf.zeros([0], tf.float64),
    "bool [[True], [False]]": tf.constant([[True], [False]]),
    "int64 [-1, 2**40]": tf.constant([-1, 2**40], tf.int64),
}
out = {
    "records": [r.hex() for r in RECORDS],
    "example_deterministic": example().SerializeToString(deterministic=True).hex(),
    "example_text": str(tf.train.Example.FromString(example().SerializeToString(deterministic=True))
                        .features.feature["y"]),
    "single_feature_example": tf.train.Example(features=tf.train.Features(feature={
        "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))})).SerializeToString().hex(),
    "serialized_tensors": {k: tf.io.serialize_tensor(v).numpy().hex() for k, v in tensors.items()},
}
with open("tf_written.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
