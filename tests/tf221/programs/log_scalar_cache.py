# Which ops a call executes: shape lists, axes, fill values and Python scalars become _EagerConst, scalars once (issue 10, area 5).
import tensorflow as tf
tf.debugging.set_log_device_placement(True)
x = tf.constant([1.0, 2.0])
print("A"); y = x + 1.0
print("B"); y = x + 1.0
print("C"); y = x * 2
print("D"); z = tf.zeros([2])
print("E"); z = tf.zeros([2])
print("F"); r = tf.reshape(x, [2, 1])
print("G"); r = tf.reduce_sum(x, axis=0)
print("H"); r = tf.reduce_sum(x, axis=0)
print("I"); r = tf.constant(5.0)
print("J"); r = tf.constant(5.0)
