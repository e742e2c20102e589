# Issue 10 area 1 (indexing): Tensor.__getitem__ with ints, slices, steps, ..., newaxis, tensors; errors.
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


x = tf.reshape(tf.range(24), [2, 3, 4])
m = tf.reshape(tf.range(12), [3, 4])
cell("int", lambda: m[1])
cell("negative int", lambda: m[-1])
cell("two ints", lambda: m[1, 2])
cell("chained ints", lambda: m[1][2])
cell("slice", lambda: m[1:])
cell("slice cols", lambda: m[:, 1:3])
cell("step", lambda: m[:, ::2])
cell("rows from 1 step 2 cols", lambda: m[1:, ::2])
cell("negative step", lambda: m[::-1])
cell("negative step cols", lambda: m[:, ::-2])
cell("slice out of range clamps", lambda: m[1:100])
cell("empty slice", lambda: m[2:1])
cell("ellipsis", lambda: x[..., 0])
cell("ellipsis middle", lambda: x[0, ..., 1])
cell("newaxis", lambda: m[tf.newaxis].shape)
cell("newaxis middle", lambda: m[:, tf.newaxis, :].shape)
cell("None as newaxis", lambda: m[None, :, None].shape)
cell("ellipsis newaxis", lambda: x[..., tf.newaxis].shape)
cell("scalar tensor index", lambda: m[tf.constant(1)])
cell("scalar tensor slice bounds", lambda: m[tf.constant(1):tf.constant(3)])
cell("int64 tensor index", lambda: m[tf.constant(2, dtype=tf.int64)])
cell("index out of range (error)", lambda: m[3])
cell("too many indices (error)", lambda: m[1, 2, 3])
cell("two ellipses (error)", lambda: x[..., ...])
cell("list index (error)", lambda: m[[0, 2]])
cell("bool tensor index (error)", lambda: m[tf.constant([True, False, True])])
cell("float index (error)", lambda: m[1.0])
cell("vector tensor index (error)", lambda: m[tf.constant([0, 1])])
cell("0-d tensor index (error)", lambda: tf.constant(5)[0])
cell("3d mixed", lambda: x[1, :2, ::-1])
cell("numpy int index", lambda: m[__import__("numpy").int64(2)])
cell("string index", lambda: tf.constant(["a", "b", "c"])[1:])
