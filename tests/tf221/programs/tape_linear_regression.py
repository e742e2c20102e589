# TensorFlow's classic y = 3x + 2 fit with GradientTape and plain variable updates: the weights after 300 steps (issue 11).
import tensorflow as tf

x = tf.constant([[0.0], [0.5], [1.0], [1.5], [2.0], [2.5], [3.0], [3.5]])
y = 3.0 * x + 2.0
w = tf.Variable(0.0)
b = tf.Variable(0.0)
for step in range(300):
    with tf.GradientTape() as tape:
        pred = x * w + b
        loss = tf.reduce_sum(tf.square(pred - y)) / 8.0
    gw, gb = tape.gradient(loss, [w, b])
    w.assign(w - 0.05 * gw)
    b.assign(b - 0.05 * gb)
    if step % 100 == 0:
        print(step, f"{loss.numpy():.6f}")
print(f"w={w.numpy():.6f} b={b.numpy():.6f} loss={loss.numpy():.8f}")
