"""tf.nn.safe_embedding_lookup_sparse (issue 28): TensorFlow's composition of embedding_lookup_sparse
(invalid ids and weights pruned, empty rows zeros or the default id's row, higher ranks flattened and
back), against tensorflow-cpu 2.21's values for the same calls (a probe in the oracle venv, pasted)."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from devtrace.runtime.context import reset_context


def test_values_are_tensorflows():
    reset_context()
    W = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0], [3, 1]], tf.constant([1, -1, 3, 2], tf.int64), [4, 2])
    wts = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0], [3, 1]], tf.constant([2.0, 1.0, 0.0, 3.0]), [4, 2])
    assert tf.nn.safe_embedding_lookup_sparse(W, ids).numpy().tolist() == [[3.0, 4.0, 5.0], [0.0, 0.0, 0.0], [9.0, 10.0, 11.0], [6.0, 7.0, 8.0]]
    assert tf.nn.safe_embedding_lookup_sparse(W, ids, wts).numpy().tolist() == [[3.0, 4.0, 5.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [6.0, 7.0, 8.0]]
    assert tf.nn.safe_embedding_lookup_sparse(W, ids, wts, combiner="sum", default_id=0).numpy().tolist() == [[6.0, 8.0, 10.0], [0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [18.0, 21.0, 24.0]]
    assert tf.nn.safe_embedding_lookup_sparse([W], ids, None, combiner="sqrtn").numpy().tolist() == [[3.0, 4.0, 5.0], [0.0, 0.0, 0.0], [9.0, 10.0, 11.0], [6.0, 7.0, 8.0]]
    ids3 = tf.sparse.SparseTensor([[0, 0, 0], [1, 1, 1]], tf.constant([1, 2], tf.int64), [2, 2, 2])
    assert tf.nn.safe_embedding_lookup_sparse(W, ids3).numpy().tolist() == [[[3.0, 4.0, 5.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [6.0, 7.0, 8.0]]]
