# The placement log of a gradient through a tf.cond inside a tf.while_loop body, and through a loop with maximum_iterations, inside a tf.function (issue 11): the loop's gradient accumulates the cond's predicate and inputs, and the cond's gradient inside the gradient body pops them.
import tensorflow as tf

tf.debugging.set_log_device_placement(True)


@tf.function
def nested_cond(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.while_loop(lambda v: v < 20.0, lambda v: tf.cond(v > 5.0, lambda: v * 3.0, lambda: v * v), [x])[0]
    return y, t.gradient(y, x)


@tf.function
def max_iters(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.while_loop(lambda v: True, lambda v: v * 3.0, [x], maximum_iterations=3)[0]
    return y, t.gradient(y, x)


print("cond inside loop", nested_cond(tf.constant(1.5)))
print("cond inside loop, other branch first", nested_cond(tf.constant(7.5)))
print("maximum_iterations", max_iters(tf.constant(1.0)))
