# Which ops a call executes, as TensorFlow logs them (issue 10, area 5).
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.matmul(a, a)
print(b)
print(tf.add(a, b))
