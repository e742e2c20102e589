"""tf.fill / tf.zeros whose shape is computed in a tf.function (tf.shape(x), a slice of it), with a
known and an unknown batch dimension."""
import tensorflow as tf
@tf.function
def f(x):
    return tf.zeros(tf.shape(x)[0:1])[0]
print(f(tf.ones((2, 3))))
@tf.function
def k(x):
    return tf.fill(tf.shape(x), 2.0) + 1.0
print(k(tf.ones((2, 3))))
@tf.function(input_signature=[tf.TensorSpec([None, 3])])
def g(x):
    return tf.fill(tf.shape(x), 2.0)
print(g(tf.ones((2, 3))))
print(g.get_concrete_function().structured_outputs)
