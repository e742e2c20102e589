# Issue 10 area 1 (reductions): reduce_* with axis, keepdims, negative axes, int means, errors.
import tensorflow as tf
import sys


def cell(label, f):
    """One cell: a '--- label' marker on stdout and stderr, then the result or the error."""
    print(f"--- {label}", flush=True)
    print(f"--- {label}", file=sys.stderr, flush=True)
    try:
        r = f()
        if r is not None:
            print(r, flush=True)
    except Exception as e:
        print(type(e).__name__, e, flush=True)


x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
i = tf.constant([[1, 2], [3, 4]])
b = tf.constant([[True, False], [True, True]])
cell("reduce_sum all", lambda: tf.reduce_sum(x))
cell("reduce_sum axis=0", lambda: tf.reduce_sum(x, axis=0))
cell("reduce_sum axis=-1 keepdims", lambda: tf.reduce_sum(x, axis=-1, keepdims=True))
cell("reduce_sum axis list", lambda: tf.reduce_sum(x, axis=[0, 1]))
cell("reduce_sum axis tensor", lambda: tf.reduce_sum(x, axis=tf.constant(1)))
cell("reduce_sum bool (error?)", lambda: tf.reduce_sum(b))
cell("reduce_mean", lambda: tf.reduce_mean(x, axis=1))
cell("reduce_mean int truncates", lambda: tf.reduce_mean(i))
cell("reduce_mean int axis", lambda: tf.reduce_mean(tf.constant([1, 2]), axis=0))
cell("reduce_max reduce_min", lambda: (tf.reduce_max(x), tf.reduce_min(x, axis=0)))
cell("reduce_prod", lambda: tf.reduce_prod(x, axis=1))
cell("reduce_any reduce_all", lambda: (tf.reduce_any(b, axis=1), tf.reduce_all(b, axis=0)))
cell("reduce_std", lambda: tf.math.reduce_std(x))
cell("reduce_variance axis", lambda: tf.math.reduce_variance(x, axis=0))
cell("reduce_std int (error)", lambda: tf.math.reduce_std(i))
cell("reduce_logsumexp", lambda: tf.reduce_logsumexp(x, axis=1))
cell("reduce_euclidean_norm", lambda: tf.math.reduce_euclidean_norm(tf.constant([3.0, 4.0])))
cell("count_nonzero", lambda: tf.math.count_nonzero(tf.constant([0, 1, 2, 0])))
cell("count_nonzero axis keepdims", lambda: tf.math.count_nonzero(i - 1, axis=1, keepdims=True))
cell("reduce_sum axis out of range (error)", lambda: tf.reduce_sum(x, axis=2))
cell("reduce_mean axis=-3 (error)", lambda: tf.reduce_mean(x, axis=-3))
cell("reduce_max empty", lambda: tf.reduce_max(tf.constant([], dtype=tf.float32)))
cell("reduce_sum empty", lambda: tf.reduce_sum(tf.zeros([0, 3]), axis=0))
cell("reduce_min int empty", lambda: tf.reduce_min(tf.constant([], dtype=tf.int32)))
cell("reduce_sum duplicate axes", lambda: tf.reduce_sum(x, axis=[1, 1]))
cell("reduce_sum on python list", lambda: tf.reduce_sum([1, 2, 3]))
cell("reduce_mean float16", lambda: tf.reduce_mean(tf.constant([1.0, 2.0, 4.0], dtype=tf.float16)))
