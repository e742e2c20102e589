# Issue 10 area 1 (ragged/sparse basics).
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


r = tf.ragged.constant([[1, 2, 3], [], [4]])
cell("ragged repr", lambda: repr(r))
cell("ragged str", lambda: str(r))
cell("ragged shape", lambda: r.shape)
cell("ragged dtype ragged_rank", lambda: (r.dtype, r.ragged_rank))
cell("ragged row_lengths", lambda: r.row_lengths())
cell("ragged to_tensor", lambda: r.to_tensor())
cell("ragged to_tensor default", lambda: r.to_tensor(default_value=-1))
cell("ragged values row_splits", lambda: (r.values, r.row_splits))
cell("ragged to_list", lambda: r.to_list())
cell("ragged + 1", lambda: r + 1)
cell("ragged reduce_sum", lambda: tf.reduce_sum(r, axis=1))
cell("ragged getitem", lambda: r[0])
cell("ragged from_row_lengths", lambda: tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1]))
cell("ragged strings", lambda: tf.ragged.constant([["a"], ["b", "c"]]))
cell("ragged float", lambda: repr(tf.ragged.constant([[1.5], [2.0, 3.0]])))
sp = tf.sparse.SparseTensor(indices=[[0, 1], [2, 3]], values=[1.0, 2.0], dense_shape=[3, 4])
cell("sparse repr", lambda: repr(sp))
cell("sparse str", lambda: str(sp))
cell("sparse to_dense", lambda: tf.sparse.to_dense(sp))
cell("sparse shape dtype", lambda: (sp.shape, sp.dtype))
cell("sparse add", lambda: tf.sparse.to_dense(tf.sparse.add(sp, sp)))
cell("sparse reduce_sum", lambda: tf.sparse.reduce_sum(sp))
cell("sparse matmul", lambda: tf.sparse.sparse_dense_matmul(sp, tf.ones([4, 1])))
cell("sparse from_dense", lambda: tf.sparse.from_dense(tf.constant([[0, 5], [6, 0]])).indices)
cell("sparse unordered to_dense (error)", lambda: tf.sparse.to_dense(tf.sparse.SparseTensor([[2, 0], [0, 0]], [1, 2], [3, 1])))
cell("sparse reorder", lambda: tf.sparse.reorder(tf.sparse.SparseTensor([[2, 0], [0, 0]], [1, 2], [3, 1])).indices)
