# Issue 10 area 1 (math): binary elementwise ops, broadcasting and dtype rules.
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


a = tf.constant([7, -7, 7, -7])
b = tf.constant([2, 2, -2, -2])
fa = tf.constant([7.0, -7.0, 7.5, -7.5])
fb = tf.constant([2.0, 2.0, -2.0, -2.0])
cell("add", lambda: tf.add(a, b))
cell("subtract", lambda: tf.subtract(a, b))
cell("multiply", lambda: tf.multiply(a, b))
cell("divide int -> float64", lambda: tf.divide(a, b))
cell("truediv int", lambda: tf.math.truediv(a, b))
cell("floordiv int", lambda: tf.math.floordiv(a, b))
cell("floormod int", lambda: tf.math.floormod(a, b))
cell("truncatediv int", lambda: tf.truncatediv(a, b))
cell("truncatemod int", lambda: tf.truncatemod(a, b))
cell("floordiv float", lambda: tf.math.floordiv(fa, fb))
cell("floormod float", lambda: tf.math.floormod(fa, fb))
cell("mod", lambda: tf.math.mod(fa, fb))
cell("pow float", lambda: tf.pow(fb, tf.constant([0.5, 2.0, 3.0, -1.0])))
cell("pow int", lambda: tf.pow(tf.constant([2, 3]), tf.constant([3, 2])))
cell("pow int negative exponent (error)", lambda: tf.pow(tf.constant([2]), tf.constant([-1])))
cell("maximum minimum", lambda: (tf.maximum(fa, fb), tf.minimum(fa, fb)))
cell("maximum broadcast", lambda: tf.maximum(tf.constant([[1.0], [5.0]]), tf.constant([2.0, 3.0, 6.0])))
cell("divide_no_nan", lambda: tf.math.divide_no_nan(tf.constant([1.0, 2.0, 0.0]), tf.constant([0.0, 4.0, 0.0])))
cell("squared_difference", lambda: tf.math.squared_difference(fa, fb))
cell("atan2", lambda: tf.math.atan2(tf.constant([1.0, -1.0]), tf.constant([-1.0, -1.0])))
cell("add_n", lambda: tf.add_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), tf.constant([5.0, 6.0])]))
cell("clip_by_value", lambda: tf.clip_by_value(fa, -3.0, 3.0))
cell("clip_by_value int", lambda: tf.clip_by_value(a, -3, 3))
cell("clip_by_norm", lambda: tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0))
cell("add int32 + float32 (error)", lambda: tf.add(a, fa))
cell("add broadcast incompatible (error)", lambda: tf.add(tf.ones([2, 3]), tf.ones([4])))
cell("multiply python scalar", lambda: tf.multiply(fa, 2))
cell("multiply float by python float on int (error)", lambda: tf.multiply(a, 2.5))
cell("divide by zero int floordiv (error)", lambda: tf.math.floordiv(a, tf.constant([0, 1, 1, 1])))
cell("divide by zero float", lambda: tf.divide(fa, tf.constant([0.0, -0.0, 1.0, 1.0])))
cell("int64 add", lambda: tf.add(tf.constant([2**40], dtype=tf.int64), 1))
cell("scalar_mul", lambda: tf.math.scalar_mul(3.0, fb))
