# The placement log of a tf.function training step traced with an unknown batch (input_signature [None, 2]):
# TensorFlow builds its gradients from the shapes at run time (Shape, BroadcastGradientArgs, Tile, GatherV2/Prod).
import tensorflow as tf
tf.debugging.set_log_device_placement(True)
w = tf.Variable([[0.5], [-0.25]])
b = tf.Variable(0.0)

@tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([None, 1])])
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(0.05 * gw)
    b.assign_sub(0.05 * gb)
    return loss

x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
y = tf.constant([[1.0], [2.0], [3.0]])
print("loss", train_step(x, y))
print("loss", train_step(x, y))
