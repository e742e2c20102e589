# Real TF 2.21 placement log: the guide's eager example (constants, matmul, a variable, a reduction).
import tensorflow as tf

tf.debugging.set_log_device_placement(True)

a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
c = tf.matmul(a, b)
print(c)

v = tf.Variable(1.0)
v.assign_add(2.0)
d = c + v
print(tf.reduce_sum(d))
print(tf.reduce_mean(c[1:]))
