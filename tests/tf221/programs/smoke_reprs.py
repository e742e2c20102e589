# Printing tensors, variables and dtypes (issue 10, area 4).
import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(x)
print(repr(x))
print(tf.constant(21.0))
print(repr(tf.constant(21.0)))
print(tf.constant("hi"))
print(repr(tf.constant([1, 2, 3])))
print(tf.float32, repr(tf.float32))
print(tf.constant(1).dtype, tf.constant(1.5).dtype)
print(x.shape, repr(x.shape))
