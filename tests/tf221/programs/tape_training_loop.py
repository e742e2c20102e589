# A training loop as TensorFlow's guides write it: GradientTape + assign_sub, in eager mode and in a tf.function: losses and weights (issue 11, item 4).
import tensorflow as tf

w = tf.Variable([[1.0], [-1.0]])
b = tf.Variable(0.5)
x = tf.constant([[1.0, 2.0], [2.0, 1.0], [0.0, 1.0]])
y = tf.constant([[1.0], [2.0], [3.0]])


def loss_fn():
    return tf.reduce_sum(tf.square(tf.matmul(x, w) + b - y)) / 3.0


for step in range(3):
    with tf.GradientTape() as tape:
        loss = loss_fn()
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * dw)
    b.assign_sub(0.1 * db, read_value=False)
    print(step, f"{loss.numpy():.6f}")


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        loss = loss_fn()
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * dw)
    b.assign_sub(0.1 * db)
    return loss


for step in range(3):
    print(step, f"{train_step().numpy():.6f}")
print(w.numpy().ravel(), f"{b.numpy():.6f}", b.assign_add(1.0, read_value=False))
