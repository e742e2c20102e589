"""What TensorFlow's guides (tests/tf221/programs/guide_nb_*) lean on, checked piece by piece: each
expected value or text was printed by TensorFlow 2.21 (tensorflow-cpu, probes run by hand)."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.errors import InvalidArgumentError


def test_reshape_texts_and_an_empty_tensors_minus_one():
    x = tf.zeros([30])
    with pytest.raises(InvalidArgumentError, match=r"30 values, but the requested shape requires a multiple of 7 "):
        tf.reshape(x, [7, -1])
    with pytest.raises(InvalidArgumentError, match=r"30 values, but the requested shape has 0 "):
        tf.reshape(x, [0, -1])
    empty = tf.zeros([0])
    assert [tf.reshape(empty, s).shape.as_list() for s in ([0, -1], [-1, 0], [3, -1])] == [[0, 1], [1, 0], [3, 0]]


def test_decode_raw_and_unicode_split():
    assert tf.io.decode_raw(tf.constant(["Duck", "abcd"]), tf.uint8).numpy().tolist() == [[68, 117, 99, 107],
                                                                                           [97, 98, 99, 100]]
    assert tf.io.decode_raw(tf.constant("abcd"), tf.int16, little_endian=False).numpy().tolist() == [24930, 25444]
    assert tf.strings.unicode_split(tf.constant("アヒル"), "UTF-8").numpy().tolist() == [
        "ア".encode(), "ヒ".encode(), "ル".encode()]


def test_sparse_concat_slice_transpose_reduce_max():
    a = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[15, 25], dense_shape=[3, 10])
    both = tf.sparse.concat(1, [a, a])
    assert both.indices.numpy().tolist() == [[0, 3], [0, 13], [2, 4], [2, 14]] and both.shape.as_list() == [3, 20]
    part = tf.sparse.slice(a, [1, 0], [2, 4])
    assert part.indices.shape.as_list() == [0, 2] and part.dense_shape.numpy().tolist() == [2, 4]
    assert tf.sparse.transpose(a).indices.numpy().tolist() == [[3, 0], [4, 2]]
    assert tf.sparse.reduce_max(a, axis=1).numpy().tolist() == [15, 0, 25]
    assert (a * 2).values.numpy().tolist() == [30, 50]
    assert repr(tf.data.Dataset.from_tensor_slices(a).batch(2)) == (
        "<_BatchDataset element_spec=SparseTensorSpec(TensorShape([None, 10]), tf.int32)>")


def test_windows_padded_batches_and_generators():
    windows = [list(w.as_numpy_iterator()) for w in tf.data.Dataset.range(6).window(4, shift=2)]
    assert windows == [[0, 1, 2, 3], [2, 3, 4, 5], [4, 5]]
    ds = tf.data.Dataset.range(4).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
    assert [b.tolist() for b in ds.padded_batch(2, padding_values=tf.constant(-1, tf.int64)).as_numpy_iterator()] \
        == [[[-1], [1]], [[2, 2, -1], [3, 3, 3]]]
    gen = tf.data.Dataset.from_generator(lambda n: iter(range(n)), args=[3], output_types=tf.int32, output_shapes=())
    assert [int(v) for v in gen] == [0, 1, 2] and gen.cardinality().numpy() == -2


def test_a_checkpoint_restores_a_dataset_iterators_position(tmp_path):
    iterator = iter(tf.data.Dataset.range(20))
    ckpt = tf.train.Checkpoint(iterator=iterator)
    [next(iterator) for _ in range(5)]
    path = ckpt.write(str(tmp_path / "it"))
    assert [int(next(iterator)) for _ in range(2)] == [5, 6]
    ckpt.restore(path)
    assert [int(next(iterator)) for _ in range(2)] == [5, 6]


def test_autograph_leaves_a_functions_globals_to_it():
    made = []

    @tf.function
    def once():
        nonlocal made
        if not made:
            made = [tf.random.Generator.from_seed(1)]
        return made[0].normal([])

    assert np.isclose(once().numpy(), 0.43842274) and np.isclose(once().numpy(), 1.6272374)


def test_ragged_tensors_of_any_depth_broadcast_as_tensorflows():
    rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
    assert rt.shape.as_list() == [4, None, None] and rt.ragged_rank == 2
    assert rt[:, 1:3].to_list() == [[[4]], [[], [6]], [], [[10]]] and rt[3, 0].numpy().tolist() == [8, 9]
    x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
    assert (x + [[1000], [2000], [3000]]).to_list() == [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    mean = tf.reduce_mean(digits, axis=1)
    assert mean.dtype == tf.float64 and np.allclose(mean.numpy(), [2.25, np.nan, 16 / 3, 6, np.nan], equal_nan=True)
    with pytest.raises(InvalidArgumentError, match=r"Condition x == y did not hold.\nIndices of first 2 different"):
        tf.ragged.constant([[1, 2, 3], [4], [5, 6]]) + tf.ragged.constant([[10, 20], [30, 40], [50]])
    assert repr(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)) == (
        "<tf.RaggedTensor [[[1, 2],\n  [3, 4]], [[5, 6]]]>")


def test_a_function_traces_once_for_variables_of_one_shape_and_dtype():
    @tf.function
    def bump(v, d):
        v.assign_add(d)
        return v * 2

    a, b = tf.Variable([1.0, 2.0]), tf.Variable([10.0, 20.0])
    assert bump(a, tf.ones([2])).numpy().tolist() == [4, 6] and bump(b, tf.ones([2])).numpy().tolist() == [22, 42]
    assert a.numpy().tolist() == [2, 3] and b.numpy().tolist() == [11, 21]
    assert bump.experimental_get_tracing_count() == 1
    assert float(bump(tf.Variable(3.0), tf.ones([]))) == 8 and bump.experimental_get_tracing_count() == 2


def test_ragged_embedding_lookup_strings_join_and_row_means():
    # guide ragged_tensor.ipynb's embedding example with tf.random.set_seed(1) (TF 2.21 printed these)
    tf.random.set_seed(1)
    queries = tf.ragged.constant([["Who", "is", "Dan", "Smith"], ["Pause"], ["Will", "it", "rain", "later", "today"]])
    table = tf.Variable(tf.random.truncated_normal([1024, 4], stddev=0.5))
    words = tf.nn.embedding_lookup(table, tf.strings.to_hash_bucket_fast(queries, 1024))
    assert words.shape.as_list() == [3, None, 4]
    marker = tf.fill([queries.nrows(), 1], "#")
    padded = tf.concat([marker, queries, marker], axis=1)
    bigrams = tf.strings.join([padded[:, :-1], padded[:, 1:]], separator="+")
    assert bigrams.to_list() == [[b"#+Who", b"Who+is", b"is+Dan", b"Dan+Smith", b"Smith+#"], [b"#+Pause", b"Pause+#"],
                                 [b"#+Will", b"Will+it", b"it+rain", b"rain+later", b"later+today", b"today+#"]]
    embedded = tf.nn.embedding_lookup(table, tf.strings.to_hash_bucket_fast(bigrams, 1024))
    mean = tf.reduce_mean(tf.concat([words, embedded], axis=1), axis=1)
    np.testing.assert_allclose(mean.numpy(), [[0.09957626, -0.05719064, 0.10946645, -0.12128903],
                                              [-0.21594568, -0.6548672, -0.33576027, 0.3208286],
                                              [0.0478338, -0.27169123, -0.04002644, -0.05153711]], rtol=1e-6)


def test_item_assignment_to_a_tensor_is_tensorflows_type_error():
    # TF 2.21 (guide extension_type.ipynb prints it)
    with pytest.raises(TypeError, match=r"^'tensorflow\.python\.framework\.ops\.EagerTensor' object does not "
                                        r"support item assignment$"):
        tf.constant([1, 2])[0] = 1
