"""The summaries both sides write (``tf``: TensorFlow with TensorBoard, or devtrace)."""

import numpy as np


def write_all(tf, logdir):
    writer = tf.summary.create_file_writer(str(logdir))
    with writer.as_default(step=3):
        tf.summary.scalar("loss", 0.5)
        tf.summary.scalar("int_loss", 7, step=4, description="an int")
        tf.summary.histogram("h", [1.0, 2.0, 3.0, 10.0])
        tf.summary.histogram("h4", tf.constant([[1, 2], [2, 9]]), buckets=4)
        tf.summary.histogram("one", [5.0, 5.0], buckets=3)
        tf.summary.histogram("empty", tf.zeros([0]), buckets=2)
        tf.summary.text("t", "hello")
        tf.summary.text("t2", tf.constant(["a", "bc"]))
        tf.summary.image("img", np.linspace(0, 1, 12, dtype=np.float32).reshape(1, 2, 2, 3))
        tf.summary.audio("snd", tf.constant([[[0.0], [0.5], [-0.5], [1.0]]]), sample_rate=8000)
        tf.summary.write("raw", tf.constant([1, 2], tf.int64))
        tf.summary.write("rawf", tf.constant([[1.5, 2.0]]), step=9)
        with tf.name_scope("outer"):
            tf.summary.scalar("inner", 1.0)
        with tf.summary.record_if(False):
            tf.summary.scalar("never", 1.0)
        tf.summary.experimental.write_raw_pb(tf.constant(bytes.fromhex("0a090a0270621500002040")), step=5)
    writer.close()
    return writer
