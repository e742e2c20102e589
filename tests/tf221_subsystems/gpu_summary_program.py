"""Summaries of GPU tensors (run by devtrace with a simulated GPU): TensorFlow's ``write`` makes
the summary's tensor under ``device("cpu:0")`` (``summary_ops_v2.py``), so the histogram's
buckets and the written tensor's ``Identity`` run on the host, beside the CPU-only write op."""

import tempfile

import tensorflow as tf

tf.debugging.set_log_device_placement(True)
writer = tf.summary.create_file_writer(tempfile.mkdtemp())
x = tf.constant([1.0, 2.0]) * 2
with writer.as_default(step=1):
    tf.summary.histogram("h", x)
    tf.summary.write("w", x)
