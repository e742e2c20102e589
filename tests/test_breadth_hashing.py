"""Names of issue 28's census (tf.random_index_shuffle, tf.sparse.cross_hashed, tf.ragged.cross_hashed, the
conv2d_backprop v2 functions (their ops have no kernel in TensorFlow 2.21: its NotFoundError),
tf.dtypes.QUANTIZED_DTYPES) with the values tensorflow-cpu 2.21 printed for the same calls (a probe in
the oracle venv, pasted): crossed features hashed as TensorFlow's HashCrosser (FarmHash fingerprints
of strings, integers as they are, folded by FingerprintCat64 into the key, modulo the buckets or the
largest int64), the index shuffle's Simon cipher for any number of rounds."""

from __future__ import annotations

import devtrace as tf
from devtrace.runtime.context import reset_context


def test_sparse_cross_hashed():
    reset_context()
    a = tf.sparse.from_dense(tf.constant([["a", "b"], ["c", ""]]))  # "" is a string's zero: not an entry
    assert a.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    b = tf.constant([["x"], ["y"]])
    assert tf.sparse.cross_hashed([a, b]).values.numpy().tolist() == [1484974617627318892, 3552177129620670004,
                                                                     6571367263544129360]
    assert tf.sparse.cross_hashed([a, b], num_buckets=100).values.numpy().tolist() == [92, 4, 60]
    assert tf.sparse.cross_hashed([a, b], num_buckets=100, hash_key=7).values.numpy().tolist() == [8, 15, 91]
    ints = tf.sparse.from_dense(tf.constant([[1, 2], [3, 0]], tf.int64))
    s = tf.sparse.cross_hashed([ints, b])
    assert (s.indices.numpy().tolist(), s.values.numpy().tolist(), s.dense_shape.numpy().tolist()) == (
        [[0, 0], [0, 1], [1, 0]], [854275097015501859, 508490610932277762, 7264420386008829588], [2, 2])
    assert tf.sparse.cross_hashed([a]).values.numpy().tolist() == [3550520439517529108, 5701958020731327761,
                                                                  5287514571041673476]


def test_ragged_cross_hashed():
    reset_context()
    r = tf.ragged.constant([["a", "b"], ["c"]])
    d = tf.constant([[1], [2]], tf.int64)
    assert tf.ragged.cross_hashed([r, d]).to_list() == [[2928842892298887678, 5354134812324246176],
                                                       [8046540229177717716]]
    assert tf.ragged.cross_hashed([r, d], num_buckets=10, hash_key=3).to_list() == [[9, 0], [3]]


def test_random_index_shuffle_for_any_number_of_rounds():
    reset_context()
    want = {4: [34240, 5367, 99811, 70868, 16596, 52154, 92054, 23446, 34636, 31937],
            6: [29016, 41722, 49418, 43462, 57123, 46169, 41337, 38939, 92721, 48721],
            8: [28527, 5354, 24819, 86450, 8111, 99122, 84950, 46698, 19960, 68905],
            16: [85442, 28868, 84936, 51437, 47062, 71287, 48094, 55784, 47085, 34369]}
    for rounds, values in want.items():
        out = tf.random_index_shuffle(tf.range(10, dtype=tf.int64), tf.constant([[5, 6, 7]] * 10, tf.int64),
                                      tf.constant(100000, tf.int64), rounds=rounds)
        assert out.numpy().tolist() == values, rounds
    assert int(tf.random_index_shuffle(tf.constant(3), [7, 8, 9], 100, rounds=6)) == 3


def test_quantized_dtypes():
    assert tf.qint8 in tf.dtypes.QUANTIZED_DTYPES and tf.quint16 in tf.dtypes.QUANTIZED_DTYPES
    assert tf.int8 not in tf.dtypes.QUANTIZED_DTYPES


def test_the_conv2d_backprop_v2_ops_have_no_kernel_as_in_tensorflow():
    reset_context()
    x, f, g = tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), tf.ones([1, 2, 2, 1])
    for fn, op in ((tf.conv2d_backprop_filter_v2, "Conv2DBackpropFilterV2"),
                   (tf.conv2d_backprop_input_v2, "Conv2DBackpropInputV2")):
        try:
            fn(x, f, g, [1, 1, 1, 1], "VALID")
        except tf.errors.NotFoundError as e:
            assert str(e) == (f"Could not find device for node: {{{{node {op}}}}} = {op}[T=DT_FLOAT, data_format=\"NHWC\", "
                              f"dilations=[1, 1, 1, 1], explicit_paddings=[], padding=\"VALID\", strides=[1, 1, 1, 1], "
                              f"use_cudnn_on_gpu=true]\nAll kernels registered for op {op}:\n  <no registered kernels>"
                              f"\n [Op:{op}] name: ")
        else:
            raise AssertionError(f"{op} ran")
