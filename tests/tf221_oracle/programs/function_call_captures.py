import tensorflow as tf

# A called tf.function's captures (two variables, a constant) become the caller's captures too:
# its _Args for them are named unknown, unknown_0, unknown_1; a second call passes them again.
tf.debugging.set_log_device_placement(True)
v = tf.Variable([1.0, 2.0])
w = tf.Variable([3.0, 4.0])
c = tf.constant([5.0, 6.0])


@tf.function
def inner(x):
    return x * v + w * c


@tf.function
def outer(x):
    return inner(x) + inner(2.0 * x)


print(outer(tf.constant([1.0, 1.0])).numpy())
