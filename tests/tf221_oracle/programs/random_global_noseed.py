# Issue 10 area 3 (random): op seed without a global seed; the same program run twice must print the same values.
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


cell("op seed only", lambda: tf.random.normal([3], seed=5))
cell("op seed only again", lambda: tf.random.normal([3], seed=5))
cell("uniform op seed only", lambda: tf.random.uniform([3], seed=5))
tf.random.set_seed(5)
cell("global 5 op 5", lambda: tf.random.normal([3], seed=5))
tf.random.set_seed(0)
cell("global 0 uniform", lambda: tf.random.uniform([4]))
tf.random.set_seed(42)
cell("global 42 normal 2x2", lambda: tf.random.normal([2, 2]))
cell("global 42 then stateless unaffected", lambda: tf.random.stateless_normal([2], seed=[1, 2]))
cell("get_seed", lambda: tf.compat.v1.get_seed(None))
cell("get_seed op", lambda: tf.compat.v1.get_seed(3))
