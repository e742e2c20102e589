# The placement log of a gradient through tf.while_loop inside a tf.function (issue 11): TensorFlow accumulates the forward body's intermediates in TensorLists (EmptyTensorList loop variables, TensorListPushBack in the body), its gradient While pops them (TensorListPopBack) as it runs the iterations backwards; a fixed and a tensor-dependent trip count (none at all too).
import tensorflow as tf

tf.debugging.set_log_device_placement(True)


@tf.function
def fixed(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y) * x), [0, x])
    return tape.gradient(y, x)


@tf.function
def until(x, n):
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x + 1.0), [0, x])
    return tape.gradient(y, x)


print(fixed(tf.constant(1.5)))
print(until(tf.constant(0.5), tf.constant(4)))
print(until(tf.constant(0.5), tf.constant(0)))
