"""tf.io.serialize_sparse / serialize_many_sparse / deserialize_many_sparse (issue 28): the bytes
tensorflow-cpu 2.21 wrote for the same sparse tensors (a probe in the oracle venv, pasted), the round
trip, and what devtrace does not implement (a variant out_type) in one line."""

from __future__ import annotations

import pytest

import devtrace as tf
from devtrace.runtime.context import reset_context

ONE = ["08091208120208021202080222200000000000000000010000000000000002000000000000000000000000000000",
       "080112041202080222080000c03f00002040", "0809120412020802221003000000000000000400000000000000"]
MANY = [["08091208120208011202080122080100000000000000", "0803120412020801220401000000",
         "080912041202080122080300000000000000"],
        ["080912081202080212020801221000000000000000000200000000000000", "080312041202080222080200000003000000",
         "080912041202080122080300000000000000"]]


def test_the_bytes_are_tensorflows_and_they_round_trip():
    reset_context()
    sp = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 4])
    one = tf.io.serialize_sparse(sp)
    assert (one.shape, one.dtype) == ((3,), tf.string) and [x.hex() for x in one.numpy().tolist()] == ONE
    batch = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], [1, 2, 3], [2, 3])
    many = tf.io.serialize_many_sparse(batch)
    assert [[x.hex() for x in r] for r in many.numpy().tolist()] == MANY
    back = tf.io.deserialize_many_sparse(many, tf.int32)
    assert (back.indices.numpy().tolist(), back.values.numpy().tolist(), back.dense_shape.numpy().tolist()) == (
        [[0, 1], [1, 0], [1, 2]], [1, 2, 3], [2, 3])


def test_a_variant_out_type_says_it_is_missing():
    reset_context()
    sp = tf.sparse.SparseTensor([[0, 1]], [1.5], [3, 4])
    with pytest.raises(NotImplementedError, match=r"^devtrace does not implement tf.io.serialize_sparse's "
                                                  r"out_type=variant yet$"):
        tf.io.serialize_sparse(sp, out_type=tf.variant)
