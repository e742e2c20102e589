# Issue 10 area 1 (indexing): gather, gather_nd, scatter_nd, tensor_scatter_nd_*, slice, strided_slice.
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


p = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
cell("gather", lambda: tf.gather(p, [2, 0]))
cell("gather axis 1", lambda: tf.gather(p, [2, 0], axis=1))
cell("gather batch_dims", lambda: tf.gather(p, [[0], [1], [2]], batch_dims=1))
cell("gather negative axis", lambda: tf.gather(p, [1], axis=-1))
cell("gather out of range (error)", lambda: tf.gather(p, [3]))
cell("gather negative index (error)", lambda: tf.gather(p, [-1]))
cell("gather_nd", lambda: tf.gather_nd(p, [[0, 1], [2, 2]]))
cell("gather_nd rows", lambda: tf.gather_nd(p, [[1], [0]]))
cell("gather_nd batch_dims", lambda: tf.gather_nd(p, [[0], [1], [2]], batch_dims=1))
cell("gather_nd out of range (error)", lambda: tf.gather_nd(p, [[3, 0]]))
cell("scatter_nd", lambda: tf.scatter_nd([[1], [3]], [10, 20], [5]))
cell("scatter_nd duplicates add", lambda: tf.scatter_nd([[1], [1]], [10, 20], [3]))
cell("scatter_nd 2d", lambda: tf.scatter_nd([[0, 0], [1, 2]], [1.0, 2.0], [2, 3]))
cell("tensor_scatter_nd_update", lambda: tf.tensor_scatter_nd_update(p, [[0, 0], [2, 1]], [-1, -2]))
cell("tensor_scatter_nd_update rows", lambda: tf.tensor_scatter_nd_update(p, [[1]], [[0, 0, 0]]))
cell("tensor_scatter_nd_add", lambda: tf.tensor_scatter_nd_add(p, [[0, 0], [0, 0]], [100, 100]))
cell("tensor_scatter_nd_sub", lambda: tf.tensor_scatter_nd_sub(p, [[1, 1]], [5]))
cell("tensor_scatter_nd_min", lambda: tf.tensor_scatter_nd_min(p, [[2, 2], [0, 0]], [0, 0]))
cell("tensor_scatter_nd_max", lambda: tf.tensor_scatter_nd_max(p, [[2, 2], [0, 0]], [0, 50]))
cell("tensor_scatter_nd_update out of range (error)", lambda: tf.tensor_scatter_nd_update(p, [[5, 0]], [1]))
cell("slice", lambda: tf.slice(p, [1, 0], [2, 2]))
cell("slice -1 size", lambda: tf.slice(p, [0, 1], [-1, -1]))
cell("slice too big (error)", lambda: tf.slice(p, [2, 0], [2, 1]))
cell("strided_slice", lambda: tf.strided_slice(p, [0, 0], [3, 3], [2, 1]))
cell("strided_slice masks", lambda: tf.strided_slice(p, [1, 0], [0, 0], [1, 1], end_mask=3))
cell("strided_slice shrink", lambda: tf.strided_slice(p, [1, 0], [2, 3], shrink_axis_mask=1))
cell("gather on string", lambda: tf.gather(tf.constant(["x", "y", "z"]), [2, 2, 0]))
cell("gather float params int64 indices", lambda: tf.gather(tf.constant([0.5, 1.5]), tf.constant([1, 0], dtype=tf.int64)))
