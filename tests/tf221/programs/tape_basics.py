# GradientTape: values of gradients through matmul, broadcasting add, mul, div, square, sqrt, sums; nested and persistent tapes (issue 11).
import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
w = tf.Variable([[0.5], [0.25]])
b = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = tf.matmul(x, w) + b
    loss = tf.reduce_sum(y * y)
gw, gb = tape.gradient(loss, [w, b])
print(gw)
print(gb)
with tf.GradientTape() as t2:
    t2.watch(x)
    z = tf.square(x) - x / 2.0
print(t2.gradient(z, x))
with tf.GradientTape() as t3:
    t3.watch(x)
    s = tf.reduce_sum(tf.sqrt(x) * 3.0, axis=0)
print(t3.gradient(s, x))
v = tf.Variable(3.0)
with tf.GradientTape() as t1:
    with tf.GradientTape() as t4:
        cube = v * v * v
    dy = t4.gradient(cube, v)
print(dy, t1.gradient(dy, v))
with tf.GradientTape(persistent=True) as t:
    a = tf.constant(2.0)
    t.watch(a)
    bb = a * a
    c = bb * a
print(t.gradient(bb, a), t.gradient(c, a), t.gradient(c, bb))
print(t.gradient(c, [a, bb]), t.gradient({"x": c}, {"p": a, "q": [bb]}))
with tf.GradientTape() as t5:
    t5.watch(x)
    m = tf.matmul(x, x, transpose_b=True) / tf.reduce_sum(x)
print(t5.gradient(m, x, output_gradients=tf.ones([2, 2]) * 2.0))
with tf.GradientTape() as t6:
    u = tf.Variable(1.0)
    out = u * 2.0
print([var.name for var in t6.watched_variables()], t6.gradient(out, u))
k = tf.constant(5.0)
with tf.GradientTape() as t7:
    r = k * 2.0
print(t7.gradient(r, k), t7.gradient if False else "unwatched: None")
