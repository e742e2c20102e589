# tf.function in the placement log: one __inference_<name> op per call on the caller's device; captured constants and arguments (issue 11, item 2).
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
w = tf.Variable([[1.0], [2.0]])


@tf.function
def f(x):
    return tf.matmul(x, w) * 2.0


x = tf.constant([[1.0, 1.0]])
print(f(x))
print(f(x))
print(f(tf.constant([[3.0, 1.0]])))
