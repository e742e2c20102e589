# Issue 10 area 3 (random): tf.random.set_seed semantics with global and op seeds; normal, uniform, truncated_normal, categorical, shuffle.
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


tf.random.set_seed(1234)
cell("normal after set_seed", lambda: tf.random.normal([3]))
cell("normal again (different)", lambda: tf.random.normal([3]))
cell("uniform", lambda: tf.random.uniform([2, 2]))
cell("uniform minval maxval", lambda: tf.random.uniform([3], minval=-1.0, maxval=1.0))
cell("uniform int", lambda: tf.random.uniform([5], minval=0, maxval=10, dtype=tf.int32))
cell("uniform int64", lambda: tf.random.uniform([3], maxval=100, dtype=tf.int64))
cell("uniform int no maxval (error)", lambda: tf.random.uniform([3], dtype=tf.int32))
cell("uniform float64", lambda: tf.random.uniform([2], dtype=tf.float64))
cell("normal mean stddev float64", lambda: tf.random.normal([2], mean=10.0, stddev=0.1, dtype=tf.float64))
cell("truncated_normal", lambda: tf.random.truncated_normal([4]))
cell("categorical", lambda: tf.random.categorical(tf.math.log([[0.5, 0.5], [0.9, 0.1]]), 5))
cell("shuffle", lambda: tf.random.shuffle(tf.range(8)))
cell("op seed", lambda: tf.random.normal([2], seed=7))
cell("op seed repeated (different)", lambda: tf.random.normal([2], seed=7))
tf.random.set_seed(1234)
cell("reset global seed reproduces first normal", lambda: tf.random.normal([3]))
tf.random.set_seed(1234)
cell("reset, then op-seeded first", lambda: tf.random.uniform([2], seed=1))
cell("gamma", lambda: tf.random.gamma([2], alpha=2.0))
cell("poisson", lambda: tf.random.poisson([3], lam=4.0))
cell("normal float16", lambda: tf.random.normal([2], dtype=tf.float16))
cell("normal int (error)", lambda: tf.random.normal([2], dtype=tf.int32))
cell("uniform shape tensor", lambda: tf.random.uniform(tf.constant([2]), seed=3))
