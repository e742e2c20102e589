# Issue 10 area 1 (shape): reshape, transpose, concat, stack, unstack, split, squeeze, expand_dims, tile, pad, broadcast_to, shape/size/rank.
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


x = tf.reshape(tf.range(6), [2, 3])
cell("reshape", lambda: tf.reshape(tf.range(6), [3, 2]))
cell("reshape -1", lambda: tf.reshape(x, [-1]))
cell("reshape -1 2", lambda: tf.reshape(x, [-1, 2]).shape)
cell("reshape bad (error)", lambda: tf.reshape(x, [4, 2]))
cell("reshape two -1 (error)", lambda: tf.reshape(x, [-1, -1]))
cell("transpose", lambda: tf.transpose(x))
cell("transpose perm", lambda: tf.transpose(tf.reshape(tf.range(24), [2, 3, 4]), perm=[2, 0, 1]).shape)
cell("transpose bad perm (error)", lambda: tf.transpose(x, perm=[0, 0]))
cell("concat axis 0", lambda: tf.concat([x, x], axis=0))
cell("concat axis -1", lambda: tf.concat([x, x], -1))
cell("concat mismatch (error)", lambda: tf.concat([x, tf.range(3)], 0))
cell("stack", lambda: tf.stack([tf.constant([1, 2]), tf.constant([3, 4])]))
cell("stack axis 1", lambda: tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1))
cell("unstack", lambda: tf.unstack(x))
cell("unstack axis 1", lambda: tf.unstack(x, axis=1))
cell("split num", lambda: tf.split(tf.range(6), 3))
cell("split sizes", lambda: tf.split(x, [1, 2], axis=1))
cell("split uneven (error)", lambda: tf.split(tf.range(7), 3))
cell("squeeze", lambda: tf.squeeze(tf.zeros([1, 2, 1, 3])).shape)
cell("squeeze axis", lambda: tf.squeeze(tf.zeros([1, 2, 1, 3]), axis=[2]).shape)
cell("squeeze non-1 axis (error)", lambda: tf.squeeze(tf.zeros([1, 2]), axis=1))
cell("expand_dims", lambda: tf.expand_dims(x, 0).shape)
cell("expand_dims -1", lambda: tf.expand_dims(x, -1).shape)
cell("tile", lambda: tf.tile(tf.constant([[1, 2]]), [2, 3]))
cell("pad constant", lambda: tf.pad(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 2]]))
cell("pad reflect", lambda: tf.pad(tf.constant([[1, 2, 3]]), [[0, 0], [2, 2]], mode="REFLECT"))
cell("pad symmetric value", lambda: tf.pad(tf.constant([1, 2, 3]), [[1, 1]], mode="SYMMETRIC"))
cell("pad constant_values", lambda: tf.pad(tf.constant([1.0]), [[2, 1]], constant_values=9.0))
cell("broadcast_to", lambda: tf.broadcast_to(tf.constant([1, 2, 3]), [2, 3]))
cell("broadcast_to bad (error)", lambda: tf.broadcast_to(tf.constant([1, 2, 3]), [2, 2]))
cell("shape size rank", lambda: (tf.shape(x), tf.size(x), tf.rank(x)))
cell("shape out_type int64", lambda: tf.shape(x, out_type=tf.int64))
cell("broadcast_static_shape", lambda: tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])))
cell("broadcast_dynamic_shape", lambda: tf.broadcast_dynamic_shape(tf.constant([2, 1]), tf.constant([3])))
