# Random ops as TensorFlow logs them (normal, truncated_normal, integer uniform, shuffle) and their shapes and dtypes; the numbers themselves differ (issue 10, area 3).
import tensorflow as tf
tf.debugging.set_log_device_placement(True)
tf.random.set_seed(1)
print("normal"); a = tf.random.normal([2])
print("normal2"); b = tf.random.normal([2], mean=1.0, stddev=2.0)
print("trunc"); c = tf.random.truncated_normal([2])
print("uniform_int"); d = tf.random.uniform([2], maxval=10, dtype=tf.int32)
print("shuffle"); e = tf.random.shuffle(tf.constant([1, 2, 3]))
print(a.shape, b.dtype, c.shape, d.dtype, e.shape)
