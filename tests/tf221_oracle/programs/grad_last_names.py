# Issue 28 (the last public names): the gradients of the fractional pools (their regions fixed by a seed),
# against TensorFlow's.
import tensorflow as tf

from _grad_probe import c, gcell

x = [[[[0.3], [-0.7], [1.2], [2.5], [-1.1]], [[-1.9], [0.45], [2.2], [0.1], [0.7]],
      [[0.8], [1.3], [-0.6], [1.7], [0.9]], [[-0.2], [0.5], [1.1], [-2.3], [0.4]],
      [[1.6], [-0.8], [0.25], [0.6], [-1.4]]]]
for dt in (tf.float32, tf.float64):
    X = c(x, dt)
    n = dt.name
    gcell(f"FractionalMaxPool {n}", lambda v: tf.nn.fractional_max_pool(v, [1.0, 1.5, 1.5, 1.0], seed=3)[0], X)
    gcell(f"FractionalMaxPool {n} overlapping", lambda v: tf.nn.fractional_max_pool(
        v, [1.0, 1.5, 1.5, 1.0], pseudo_random=True, overlapping=True, seed=5)[0], X)
    gcell(f"FractionalAvgPool {n}", lambda v: tf.nn.fractional_avg_pool(v, [1.0, 1.5, 1.5, 1.0], seed=3)[0], X)
    gcell(f"FractionalAvgPool {n} overlapping", lambda v: tf.nn.fractional_avg_pool(
        v, [1.0, 1.5, 1.5, 1.0], pseudo_random=True, overlapping=True, seed=5)[0], X)
