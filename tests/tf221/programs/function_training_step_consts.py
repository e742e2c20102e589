# A tf.function training step whose ops take host arguments (shapes, axes, perms): TensorFlow builds
# them as Const nodes named <op>/<input arg> (Reshape/shape, Sum/reduction_indices, transpose/perm,
# concat/axis), softmax cross-entropy's flattening and its gradients' Shape/Const nodes; all placed
# and logged (issue 11).
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
w = tf.Variable([[0.5, -0.25, 0.125, 1.0], [0.25, 0.75, -0.5, 0.5], [1.0, -1.0, 0.5, 0.25]])
b = tf.Variable([0.1, -0.1, 0.2, 0.0])
labels = tf.constant([[1.0, 0.0, 0.0, 0.0], [0.0, 0.5, 0.5, 0.0], [0.0, 0.0, 1.0, 0.0], [0.25, 0.25, 0.25, 0.25]])


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w), b))
        r = tf.reshape(h, [4, 2, 2])
        s = tf.reduce_sum(r, axis=1)
        t = tf.transpose(s)
        c = tf.concat([t, t * 2.0], axis=1)
        xent = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=h)
        loss = tf.reduce_mean(tf.square(c - y)) + tf.reduce_sum(tf.nn.softmax(h) * 0.0) + tf.reduce_mean(xent)
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(0.01 * gw)
    b.assign_sub(0.01 * gb)
    return loss


x = tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [3.0, 1.0, -2.0], [0.0, 1.0, 1.0]])
y = tf.ones([2, 8])
for step in range(2):
    print("loss", train_step(x, y))
print("tracing count", train_step.experimental_get_tracing_count())
