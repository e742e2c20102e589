# Issue 11 (gradients): second-order gradients through a dense layer's gradient ops, ReluGrad and BiasAddGrad (the gradient of relu's and bias_add's gradients with respect to the upstream gradient and the inputs).
import tensorflow as tf

from _grad_probe import c, gcell

x = [[0.3, -0.7, 1.2], [-1.9, 0.45, 2.2]]
up = [[1.0, 2.0, -0.5], [0.25, -1.5, 3.0]]


def relu_grad(v, g):
    with tf.GradientTape() as t:
        t.watch(v)
        y = tf.nn.relu(v)
    return t.gradient(y, v, output_gradients=g)


def bias_add_grad(v, b, g):
    with tf.GradientTape() as t:
        t.watch(b)
        y = tf.nn.bias_add(v, b)
    return t.gradient(y, b, output_gradients=g)


for dt in (tf.float32, tf.float64):
    gcell(f"ReluGrad {dt.name}", relu_grad, c(x, dt), c(up, dt))
    gcell(f"BiasAddGrad {dt.name}", lambda g, dt=dt: bias_add_grad(c(x, dt), c([0.1, 0.2, 0.3], dt), g), c(up, dt))
