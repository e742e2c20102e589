# Issue 11 (gradients): second-order gradients (nested tapes) through the ops gradients run: SqrtGrad, TanhGrad, MirrorPadGrad, AvgPoolGrad, MaxPoolGrad, Conv2DBackpropInput/Filter, against TensorFlow's.
import tensorflow as tf

from _grad_probe import c, cell, weigh


def second(f, *xs):
    """The gradients of weigh(d weigh(f(*xs)) / d xs[0]) with respect to each of xs."""
    with tf.GradientTape(persistent=True) as outer:
        for x in xs:
            outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(xs[0])
            s = weigh(f(*xs))
        s2 = weigh(inner.gradient(s, xs[0]))
    return "\n".join("None" if g is None else str(tf.convert_to_tensor(g)) for g in outer.gradient(s2, list(xs)))


def scell(label, f, *xs):
    cell(f"grad2 {label}", lambda: second(f, *xs))


img = tf.reshape(tf.sin(tf.range(32, dtype=tf.float32) * 0.37), [1, 4, 4, 2])
filt = tf.reshape(tf.cos(tf.range(24, dtype=tf.float32) * 0.53), [2, 2, 2, 3])
for d in (tf.float32, tf.float64):
    I, F = tf.cast(img, d), tf.cast(filt, d)
    n = d.name
    scell(f"SqrtGrad {n}", tf.sqrt, c([0.3, 0.7, 1.2, 2.5], d))
    scell(f"TanhGrad {n}", tf.tanh, c([0.3, -0.7, 1.2, -2.5], d))
    scell(f"MirrorPadGrad {n} REFLECT", lambda v: tf.pad(v, [[1, 1], [2, 1]], mode="REFLECT") ** 2,
          c([[0.3, -0.7, 1.2], [-1.9, 0.45, 2.2]], d))
    scell(f"MirrorPadGrad {n} SYMMETRIC", lambda v: tf.pad(v, [[1, 0], [1, 2]], mode="SYMMETRIC") ** 2,
          c([[0.3, -0.7, 1.2], [-1.9, 0.45, 2.2]], d))
    scell(f"AvgPoolGrad {n}", lambda v: tf.nn.avg_pool2d(v, 2, 1, "SAME") ** 2, I)
    scell(f"MaxPoolGrad {n}", lambda v: tf.nn.max_pool2d(v, 2, 1, "VALID") ** 2, I)
    scell(f"MaxPoolGrad {n} SAME stride 2", lambda v: tf.nn.max_pool2d(v, 3, 2, "SAME") ** 2, I)
    scell(f"Conv2DBackpropInput Conv2DBackpropFilter {n} input first", lambda v, k: tf.nn.conv2d(v, k, 1, "VALID") ** 2,
          I, F)
    scell(f"Conv2DBackpropInput Conv2DBackpropFilter {n} input first SAME stride 2",
          lambda v, k: tf.nn.conv2d(v, k, 2, "SAME") ** 2, I, F)
    scell(f"Conv2DBackpropInput Conv2DBackpropFilter {n} input first, cubed",
          lambda v, k: tf.nn.conv2d(v, k, 1, "VALID") ** 3, I, F)
    scell(f"Conv2DBackpropInput Conv2DBackpropFilter {n} filter first",
          lambda k, v: tf.nn.conv2d(v, k, 2, "SAME") ** 2, F, I)


def third(f, x):
    """The gradient of weigh(d weigh(d weigh(f(x)) / dx) / dx) with respect to x."""
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                s = weigh(f(x))
            s2 = weigh(t1.gradient(s, x) ** 2)
        s3 = weigh(t2.gradient(s2, x) ** 2)
    return t3.gradient(s3, x)


for d in (tf.float32, tf.float64):
    cell(f"grad3 MaxPoolGradGrad {d.name}", lambda: third(lambda v: tf.nn.max_pool2d(v, 2, 1, "VALID") ** 2,
                                                           tf.cast(img, d)))
