"""Samples of tf.lookup's, tf.summary's and tf.io's sparse serialization ops (CPU-only in TensorFlow 2.21:
none of them has a GPU kernel)."""

import os
import tempfile

import numpy as np

import devtrace as tf

from . import Sample


def _strings(*values):
    return np.array([v.encode() for v in values], object)


def _static():
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b"]),
                                                                         tf.constant([1, 2], tf.int64)), -1)


def _mutable(kind="MutableHashTable"):
    if kind == "DenseHashTable":
        table = tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key="", deleted_key="$")
    else:
        table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
    table.remove(tf.constant(["b"]))
    return table.lookup(tf.constant(["a", "b"]))


def _text_file():
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("x\ny\n")
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
    return table.lookup(tf.constant(["y", "z"]))


def _summary(write):
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default(step=1):
        out = write()
    writer.close()
    return np.bool_(out.numpy())  # the op has no output: what the summary function returned, as a value


def _wav():
    return _summary(lambda: tf.summary.audio("a", tf.constant([[[0.5]]]), 8000))


# tf.io's sparse serialization (CPU-only ops): TensorFlow 2.21's bytes for these tensors
_SERIALIZED = np.array([bytes.fromhex("08091208120208021202080222200000000000000000010000000000000002000000000000000000000000"
                                      "000000"), bytes.fromhex("080112041202080222080000c03f00002040"),
                        bytes.fromhex("0809120412020802221003000000000000000400000000000000")], object)


def _many():
    return tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], tf.constant([1, 2, 3]), [2, 3]))


def _round_trip():
    out = tf.io.deserialize_many_sparse(_many(), tf.int32)
    return [out.indices, out.values, out.dense_shape]


_LOOKUP = [tf.constant([1], tf.int64), tf.constant([-1], tf.int64)]
SAMPLES = [
    Sample("HashTableV2", lambda: _static().lookup(tf.constant(["b", "z"])), np.array([2, -1], np.int64), "CPU"),
    Sample("LookupTableImportV2", lambda: _static().lookup(tf.constant(["a"])), np.array([1], np.int64), "CPU"),
    Sample("LookupTableFindV2", lambda: _static().lookup(tf.constant(["a", "q"])), np.array([1, -1], np.int64), "CPU"),
    Sample("LookupTableSizeV2", lambda: _static().size(), np.int64(2), "CPU"),
    Sample("LookupTableExportV2", lambda: _static().export(), [_strings("a", "b"), np.array([1, 2], np.int64)], "CPU"),
    Sample("MutableHashTableV2", _mutable, np.array([1, -1], np.int64), "CPU"),
    Sample("LookupTableInsertV2", _mutable, np.array([1, -1], np.int64), "CPU"),
    Sample("LookupTableRemoveV2", _mutable, np.array([1, -1], np.int64), "CPU"),
    Sample("MutableDenseHashTableV2", lambda: _mutable("DenseHashTable"), np.array([1, -1], np.int64), "CPU"),
    Sample("InitializeTableFromTextFileV2", _text_file, np.array([1, -1], np.int64), "CPU"),
    Sample("SummaryWriter", lambda: _summary(lambda: tf.summary.scalar("s", 1.0)), np.bool_(True), "CPU"),
    Sample("CreateSummaryFileWriter", lambda: _summary(lambda: tf.summary.scalar("s", 1.0)), np.bool_(True), "CPU"),
    Sample("WriteSummary", lambda: _summary(lambda: tf.summary.scalar("s", 1.0)), np.bool_(True), "CPU"),
    Sample("WriteRawProtoSummary", lambda: _summary(lambda: tf.summary.experimental.write_raw_pb(
        tf.constant(bytes.fromhex("0a090a0270621500002040")))), np.bool_(True), "CPU"),
    Sample("FlushSummaryWriter", lambda: _summary(lambda: tf.summary.text("t", "x")), np.bool_(True), "CPU"),
    Sample("CloseSummaryWriter", lambda: _summary(lambda: tf.summary.text("t", "x")), np.bool_(True), "CPU"),
    Sample("EncodeWav", _wav, np.bool_(True), "CPU"),
    Sample("SerializeSparse", lambda: tf.io.serialize_sparse(tf.sparse.SparseTensor([[0, 1], [2, 0]],
                                                                                     tf.constant([1.5, 2.5]), [3, 4])),
           _SERIALIZED, "CPU"),
    Sample("SerializeManySparse", lambda: _many()[1, 1], bytes.fromhex("080312041202080222080200000003000000"), "CPU"),
    Sample("DeserializeManySparse", _round_trip, [np.array([[0, 1], [1, 0], [1, 2]], np.int64),
                                                  np.array([1, 2, 3], np.int32), np.array([2, 3], np.int64)], "CPU"),
]
