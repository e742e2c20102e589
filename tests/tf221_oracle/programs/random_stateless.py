# Issue 10 area 3 (random): stateless_* ops are deterministic functions of (seed, shape, alg).
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


seed = [1, 2]
cell("stateless_normal", lambda: tf.random.stateless_normal([4], seed=seed))
cell("stateless_normal repeat same", lambda: tf.random.stateless_normal([4], seed=seed))
cell("stateless_normal 2x3", lambda: tf.random.stateless_normal([2, 3], seed=[7, 11]))
cell("stateless_normal float64", lambda: tf.random.stateless_normal([3], seed=seed, dtype=tf.float64))
cell("stateless_normal mean stddev", lambda: tf.random.stateless_normal([3], seed=seed, mean=5.0, stddev=2.0))
cell("stateless_uniform", lambda: tf.random.stateless_uniform([4], seed=seed))
cell("stateless_uniform float64", lambda: tf.random.stateless_uniform([3], seed=seed, dtype=tf.float64))
cell("stateless_uniform float16", lambda: tf.random.stateless_uniform([3], seed=seed, dtype=tf.float16))
cell("stateless_uniform bfloat16", lambda: tf.random.stateless_uniform([3], seed=seed, dtype=tf.bfloat16))
cell("stateless_uniform int32", lambda: tf.random.stateless_uniform([6], seed=seed, minval=0, maxval=10, dtype=tf.int32))
cell("stateless_uniform int64", lambda: tf.random.stateless_uniform([4], seed=seed, minval=-5, maxval=5, dtype=tf.int64))
cell("stateless_uniform full int range", lambda: tf.random.stateless_uniform([3], seed=seed, minval=None, maxval=None, dtype=tf.int32))
cell("stateless_uniform uint32 full range", lambda: tf.random.stateless_uniform([3], seed=seed, minval=None, maxval=None, dtype=tf.uint32))
cell("stateless_truncated_normal", lambda: tf.random.stateless_truncated_normal([4], seed=seed))
cell("stateless_categorical", lambda: tf.random.stateless_categorical(tf.math.log([[0.5, 0.5], [0.1, 0.9]]), 6, seed=seed))
cell("stateless_binomial", lambda: tf.random.stateless_binomial([4], seed=seed, counts=10.0, probs=0.5))
cell("stateless_poisson", lambda: tf.random.stateless_poisson([4], seed=seed, lam=3.0))
cell("stateless_gamma", lambda: tf.random.stateless_gamma([3], seed=seed, alpha=2.0))
cell("experimental.stateless_shuffle", lambda: tf.random.experimental.stateless_shuffle(tf.range(8), seed=seed))
cell("stateless_normal alg philox", lambda: tf.random.stateless_normal([3], seed=seed, alg="philox"))
cell("stateless_normal alg threefry", lambda: tf.random.stateless_normal([3], seed=seed, alg="threefry"))
cell("stateless_uniform alg threefry", lambda: tf.random.stateless_uniform([3], seed=seed, alg="threefry"))
cell("stateless_uniform alg auto_select", lambda: tf.random.stateless_uniform([3], seed=seed, alg="auto_select"))
cell("stateless seed int64 tensor", lambda: tf.random.stateless_uniform([2], seed=tf.constant([1, 2], tf.int64)))
cell("stateless seed wrong shape (error)", lambda: tf.random.stateless_normal([2], seed=[1, 2, 3]))
cell("stateless seed scalar (error)", lambda: tf.random.stateless_normal([2], seed=1))
cell("stateless_uniform int no maxval (error)", lambda: tf.random.stateless_uniform([2], seed=seed, dtype=tf.int32))
cell("split seed", lambda: tf.random.experimental.stateless_split(seed, num=3))
cell("fold_in", lambda: tf.random.experimental.stateless_fold_in(seed, 5))
cell("large seeds", lambda: tf.random.stateless_uniform([3], seed=[2**31 - 1, -2**31]))
cell("stateless_normal large shape sum", lambda: tf.reduce_sum(tf.random.stateless_normal([1000], seed=[3, 4])))
