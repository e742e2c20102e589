# Issue 10 area 1 (shape): where, boolean_mask, reverse, sort, argsort, unique.
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


v = tf.constant([3, 1, 4, 1, 5, 9, 2, 6])
m = tf.constant([[1, 0], [0, 1]])
cell("where 1-arg", lambda: tf.where(v > 3))
cell("where 1-arg 2d", lambda: tf.where(m > 0))
cell("where 3-arg", lambda: tf.where(v > 3, v, -v))
cell("where 3-arg broadcast", lambda: tf.where(tf.constant([True, False]), tf.constant([[1, 2], [3, 4]]), 0))
cell("where dtype mismatch (error)", lambda: tf.where(v > 3, v, 0.5))
cell("boolean_mask", lambda: tf.boolean_mask(v, v > 3))
cell("boolean_mask 2d", lambda: tf.boolean_mask(tf.constant([[1, 2], [3, 4], [5, 6]]), [True, False, True]))
cell("boolean_mask bad shape (error)", lambda: tf.boolean_mask(v, [True, False]))
cell("reverse", lambda: tf.reverse(m, axis=[1]))
cell("reverse -1", lambda: tf.reverse(v, [-1]))
cell("sort", lambda: tf.sort(v))
cell("sort descending", lambda: tf.sort(v, direction="DESCENDING"))
cell("sort float nan", lambda: tf.sort(tf.constant([2.0, float("nan"), 1.0])))
cell("sort bad direction (error)", lambda: tf.sort(v, direction="UP"))
cell("argsort", lambda: tf.argsort(v))
cell("argsort stable", lambda: tf.argsort(v, stable=True))
cell("argsort descending", lambda: tf.argsort(tf.constant([1.0, 3.0, 2.0]), direction="DESCENDING"))
cell("unique", lambda: tf.unique(v))
cell("unique y idx", lambda: (tf.unique(v).y, tf.unique(v).idx))
cell("unique_with_counts", lambda: tf.unique_with_counts(tf.constant([1, 1, 2, 7, 7, 7])))
cell("unique 2d (error)", lambda: tf.unique(m))
cell("searchsorted", lambda: tf.searchsorted(tf.constant([1, 3, 5, 7]), tf.constant([0, 3, 6])))
cell("reverse_sequence", lambda: tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1, batch_axis=0))
cell("roll", lambda: tf.roll(v, shift=2, axis=0))
