# The placement log of a gradient through tf.cond inside a tf.function (issue 11): TensorFlow makes the forward If output the intermediates its gradient needs (OptionalFromValue in the branch that has them, OptionalNone in the other), its gradient If reads them (OptionalGetValue), and lowers both before placing.
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
w = tf.Variable(2.0)


@tf.function
def step(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cond(x > 0, lambda: tf.sin(x) * w, lambda: tf.exp(x) * x)
    return tape.gradient(y, [x, w])


print(step(tf.constant(1.5)))
print(step(tf.constant(-1.5)))
