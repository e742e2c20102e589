# Issue 10 area 1 (math): cumulative ops, arg ops, top_k, logical and comparison ops.
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
v = tf.constant([3, 1, 4, 1, 5, 9, 2, 6])
cell("cumsum", lambda: tf.cumsum(x))
cell("cumsum axis=1", lambda: tf.cumsum(x, axis=1))
cell("cumsum exclusive reverse", lambda: tf.math.cumsum(v, exclusive=True, reverse=True))
cell("cumprod", lambda: tf.math.cumprod(x, axis=1))
cell("cumprod exclusive", lambda: tf.math.cumprod(x, axis=1, exclusive=True))
cell("cumulative_logsumexp", lambda: tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 0.0])))
cell("argmax default axis", lambda: tf.argmax(x))
cell("argmax axis=1", lambda: tf.math.argmax(x, axis=1))
cell("argmin int32 output", lambda: tf.argmin(v, output_type=tf.int32))
cell("argmax ties", lambda: tf.argmax(tf.constant([1, 5, 5, 2])))
cell("top_k", lambda: tf.math.top_k(v, k=3))
cell("top_k values indices", lambda: (tf.math.top_k(v, k=3).values, tf.math.top_k(v, k=3).indices))
cell("top_k sorted=False 2d", lambda: tf.math.top_k(x, k=2).values)
cell("top_k k too large (error)", lambda: tf.math.top_k(v, k=9))
cell("in_top_k", lambda: tf.math.in_top_k(tf.constant([2, 0]), tf.constant([[0.1, 0.2, 0.7], [0.3, 0.6, 0.1]]), 1))
t = tf.constant([True, False, True, False])
f = tf.constant([True, True, False, False])
cell("logical_and or xor not", lambda: (tf.logical_and(t, f), tf.logical_or(t, f), tf.math.logical_xor(t, f), tf.logical_not(t)))
cell("logical_and on ints (error)", lambda: tf.logical_and(tf.constant([1]), tf.constant([0])))
cell("equal not_equal", lambda: (tf.equal(v, 1), tf.not_equal(v, 1)))
cell("less less_equal greater greater_equal", lambda: (tf.less(v, 4), tf.less_equal(v, 4), tf.greater(v, 4), tf.greater_equal(v, 4)))
cell("equal different dtypes (error)", lambda: tf.equal(v, 1.5))
cell("equal broadcast incompatible (error)", lambda: tf.equal(tf.ones([2]), tf.ones([3])))
cell("reduce all after compare", lambda: tf.reduce_all(tf.equal(v, v)))
cell("count equal", lambda: tf.math.count_nonzero(tf.equal(v, 1)))
cell("bincount", lambda: tf.math.bincount(v))
cell("segment_sum", lambda: tf.math.segment_sum(tf.constant([1, 2, 3, 4]), tf.constant([0, 0, 1, 1])))
cell("unsorted_segment_max", lambda: tf.math.unsorted_segment_max(tf.constant([1, 7, 3, 4]), tf.constant([1, 0, 1, 0]), num_segments=2))
