# Real TF 2.21 placement log: a tf.function traced once and called twice, next to eager ops.
import tensorflow as tf

tf.debugging.set_log_device_placement(True)

w = tf.Variable([[1.0], [2.0]], name="w")


@tf.function
def dense(x):
    return tf.nn.relu(tf.matmul(x, w) + 1.0)


x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(dense(x))
print(dense(x * 2.0))
print(tf.reduce_sum(dense(x)))
