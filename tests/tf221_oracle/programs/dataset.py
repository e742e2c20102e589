# Issue 10 area 1 (tf.data basics): from_tensor_slices, range, map, batch, shuffle with seed, take, repeat, iteration.
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


cell("range list", lambda: list(tf.data.Dataset.range(5).as_numpy_iterator()))
cell("range element repr", lambda: next(iter(tf.data.Dataset.range(3))))
cell("element_spec", lambda: tf.data.Dataset.range(3).element_spec)
cell("dataset repr", lambda: repr(tf.data.Dataset.range(3)))
cell("from_tensor_slices", lambda: list(tf.data.Dataset.from_tensor_slices([1, 2, 3]).as_numpy_iterator()))
cell("from_tensor_slices tuple", lambda: list(tf.data.Dataset.from_tensor_slices(([1, 2], ["a", "b"])).as_numpy_iterator()))
cell("from_tensor_slices dict spec", lambda: tf.data.Dataset.from_tensor_slices({"x": [1.0, 2.0]}).element_spec)
cell("map", lambda: list(tf.data.Dataset.range(4).map(lambda x: x * 2).as_numpy_iterator()))
cell("batch", lambda: list(tf.data.Dataset.range(5).batch(2).as_numpy_iterator()))
cell("batch drop_remainder spec", lambda: tf.data.Dataset.range(5).batch(2, drop_remainder=True).element_spec)
cell("shuffle seeded", lambda: list(tf.data.Dataset.range(10).shuffle(10, seed=42).as_numpy_iterator()))
cell("take repeat", lambda: list(tf.data.Dataset.range(3).repeat(2).take(5).as_numpy_iterator()))
cell("skip filter", lambda: list(tf.data.Dataset.range(10).skip(2).filter(lambda x: x % 3 == 0).as_numpy_iterator()))
cell("zip", lambda: list(tf.data.Dataset.zip((tf.data.Dataset.range(2), tf.data.Dataset.range(10, 12))).as_numpy_iterator()))
cell("iterate tensors", lambda: [t for t in tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]])])
cell("cardinality", lambda: (tf.data.Dataset.range(5).cardinality(), tf.data.Dataset.range(5).repeat().cardinality()))
cell("reduce", lambda: tf.data.Dataset.range(5).reduce(tf.constant(0, tf.int64), lambda a, b: a + b))
cell("len", lambda: len(tf.data.Dataset.range(4).batch(3)))
cell("len infinite (error)", lambda: len(tf.data.Dataset.range(4).repeat()))
cell("from_tensor_slices mismatched (error)", lambda: tf.data.Dataset.from_tensor_slices(([1, 2], [1])))
cell("enumerate", lambda: list(tf.data.Dataset.from_tensor_slices(["a", "b"]).enumerate().as_numpy_iterator()))
