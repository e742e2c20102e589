# The placement log of a tf.function training step whose forward pass holds a tf.cond and a tf.while_loop reading the variables it trains (issue 11): forward, both gradients (the cond's through optionals, the loop's through TensorList accumulators) and the variable updates.
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
w = tf.Variable(0.5)
b = tf.Variable(0.25)


@tf.function
def train_step(x, target, steps):
    with tf.GradientTape() as tape:
        h = tf.cond(x > 0, lambda: x * w, lambda: -x * b)
        _, h = tf.while_loop(lambda i, h: i < steps, lambda i, h: (i + 1, tf.tanh(h * w + b)), [0, h])
        loss = tf.square(h - target)
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * gw)
    b.assign_sub(0.1 * gb)
    return loss


for x, steps in ((1.5, 3), (-2.0, 2), (0.5, 0)):
    print("loss", train_step(tf.constant(x), tf.constant(0.75), tf.constant(steps)))
print("steps traced", train_step.experimental_get_tracing_count())  # (the updates show in the next losses)
