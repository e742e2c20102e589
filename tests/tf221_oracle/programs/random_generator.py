# Issue 10 area 3 (random): tf.random.Generator.from_seed values, state, split, reset, algorithms, global generator.
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


g = tf.random.Generator.from_seed(1234)
cell("normal", lambda: g.normal([4]))
cell("normal again", lambda: g.normal([4]))
cell("uniform", lambda: g.uniform([3]))
cell("uniform int", lambda: g.uniform([5], minval=0, maxval=100, dtype=tf.int32))
cell("uniform int64", lambda: g.uniform([3], minval=0, maxval=100, dtype=tf.int64))
cell("uniform_full_int", lambda: g.uniform_full_int([3], dtype=tf.int32))
cell("uniform_full_int int64", lambda: g.uniform_full_int([2], dtype=tf.int64))
cell("truncated_normal", lambda: g.truncated_normal([4]))
cell("binomial", lambda: g.binomial([3], counts=10.0, probs=0.5))
cell("state", lambda: g.state)
cell("algorithm", lambda: g.algorithm)
cell("repr type", lambda: type(g).__name__)
g2 = tf.random.Generator.from_seed(1234)
cell("fresh same seed repeats first", lambda: g2.normal([4]))
cell("reset_from_seed", lambda: (g2.reset_from_seed(1234), g2.normal([4]))[1])
cell("reset_from_seed other", lambda: (g2.reset_from_seed(7), g2.uniform([3]))[1])
g3 = tf.random.Generator.from_seed(1)
cell("split", lambda: [h.normal([2]) for h in g3.split(2)])
cell("parent after split", lambda: g3.normal([2]))
cell("threefry normal", lambda: tf.random.Generator.from_seed(1234, alg="threefry").normal([3]))
cell("threefry state", lambda: tf.random.Generator.from_seed(1234, alg="threefry").state)
cell("philox state", lambda: tf.random.Generator.from_seed(0).state)
cell("from_state", lambda: tf.random.Generator.from_state([1, 0, 0], alg="philox").normal([3]))
cell("from_state state", lambda: tf.random.Generator.from_state([1, 0, 0], alg="philox").state)
cell("from_non_deterministic_state shape", lambda: tf.random.Generator.from_non_deterministic_state().state.shape)
cell("float64 normal", lambda: tf.random.Generator.from_seed(5).normal([2], dtype=tf.float64))
cell("float16 uniform", lambda: tf.random.Generator.from_seed(5).uniform([2], dtype=tf.float16))
cell("bad alg (error)", lambda: tf.random.Generator.from_seed(1, alg="mt19937"))
cell("uniform int no maxval (error)", lambda: tf.random.Generator.from_seed(1).uniform([2], dtype=tf.int32))
tf.random.set_global_generator(tf.random.Generator.from_seed(99))
cell("global generator after set", lambda: tf.random.get_global_generator().normal([3]))
cell("global generator state", lambda: tf.random.get_global_generator().state)
cell("seed from large int", lambda: tf.random.Generator.from_seed(2**40 + 3).uniform([2]))
cell("make_seeds", lambda: tf.random.Generator.from_seed(3).make_seeds(2))
