"""Samples of tf.lookup's and tf.summary's ops (CPU-only in TensorFlow 2.21: no lookup or summary
op has a GPU kernel)."""

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
]
