# The placement log of a tf.function training step whose forward pass holds a tf.cond (issue 11): forward, the cond's gradient (an If reading the forward branch's intermediates through optionals) and the variable updates.
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
w = tf.Variable(2.0)
b = tf.Variable(0.5)


@tf.function
def train_step(x, target):
    with tf.GradientTape() as tape:
        y = tf.cond(x > 0, lambda: tf.sin(x) * w + b, lambda: x * b)
        loss = (y - target) * (y - target)
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * gw)
    b.assign_sub(0.1 * gb)
    return loss


for x in (1.5, -1.0, 2.0):
    print("loss", train_step(tf.constant(x), tf.constant(1.0)))
print("w", w.read_value(), "b", b.read_value())
