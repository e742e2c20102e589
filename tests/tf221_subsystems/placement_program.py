"""tf.lookup's and tf.summary's ops with the placement log on (run by TensorFlow and by devtrace;
their placer lines are compared)."""

import sys
import tempfile

import tensorflow as tf

tf.debugging.set_log_device_placement(True)
table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b", "c"]),
                                                                      tf.constant([7, 8, 9])), default_value=-1)
print(table.lookup(tf.constant(["a", "f"])).numpy(), table.size().numpy())
vocab = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
    tf.constant(["emerson", "lake"]), tf.constant([0, 1], dtype=tf.int64)), num_oov_buckets=5)
print(vocab.lookup(tf.constant(["lake", "king"])).numpy())
mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
mutable.insert(tf.constant(["a"]), tf.constant([1], tf.int64))
mutable.remove(tf.constant(["b"]))
dense = tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key="", deleted_key="$")
dense.insert(tf.constant(["a"]), tf.constant([1], tf.int64))
print(dense.lookup(tf.constant(["a", "b"])).numpy(), dense.size().numpy())
writer = tf.summary.create_file_writer(tempfile.mkdtemp())
with writer.as_default(step=1):
    tf.summary.write("w", tf.constant([1.0, 2.0]))
    tf.summary.experimental.write_raw_pb(tf.constant(b""))
writer.flush()
sys.stdout.flush()
