# Gradients through a variable's assignments under a tape (a metric's counter, a running total):
# the assignment passes no gradient (TensorFlow's NotDifferentiable), eagerly and in a tf.function.
import tensorflow as tf

x = tf.Variable(2.0)


def total():
    c = tf.Variable(0.0, trainable=False)
    with tf.GradientTape() as t:
        y = x * 2.0
        c.assign_add(y)
        c.assign_sub(y * 0.5)
        r = c.read_value() + y
    return t.gradient(r, x)


@tf.function
def traced():
    with tf.GradientTape() as t:
        z = x.assign_add(1.0)
        w = z * 2
    return t.gradient(w, x)


def counter():
    cnt = tf.Variable(0, dtype=tf.int64)
    with tf.GradientTape() as t:
        y = x * 3.0
        cnt.assign_add(1)
        loss = y + tf.cast(cnt, tf.float32)
    return t.gradient(loss, [x, cnt])


def assigned():
    v = tf.Variable(1.0)
    with tf.GradientTape() as t:
        v.assign(x * 4.0)
        out = v * 3.0
    return t.gradient(out, [x, v])


for name, f in [("total", total), ("traced", traced), ("counter", counter), ("assigned", assigned)]:
    print(name, f())
