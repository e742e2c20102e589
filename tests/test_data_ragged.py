"""tf.data with RaggedTensor elements, and map's element spec from the traced function's static
shapes, against TensorFlow 2.21: every expected text was printed by TensorFlow 2.21
(tensorflow-cpu in a separate venv) running the same statements."""

from __future__ import annotations

import numpy as np
import pytest

import devtrace as tf

RT = [[1, 2], [3], [], [4, 5, 6]]


def test_from_tensor_slices_of_a_ragged_tensor_gives_dense_rows_of_a_ragged_spec():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(RT))
    assert str(ds) == "<_TensorSliceDataset element_spec=RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)>"
    assert [repr(t) for t in ds][:2] == [
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>",
        "<tf.Tensor: shape=(1,), dtype=int32, numpy=array([3], dtype=int32)>"]
    assert repr(list(ds.as_numpy_iterator())) == (
        "[array([1, 2], dtype=int32), array([3], dtype=int32), array([], dtype=int32), "
        "array([4, 5, 6], dtype=int32)]")
    unbatched = ds.batch(2).unbatch()
    assert str(unbatched.element_spec) == "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)"
    assert [t.numpy().tolist() for t in unbatched] == RT


def test_slices_of_ragged_rank_two_and_their_batches():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], []]))
    assert str(ds.element_spec) == "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert [str(t) for t in ds] == ["<tf.RaggedTensor [[1], [2, 3]]>", "<tf.RaggedTensor [[4]]>",
                                    "<tf.RaggedTensor []>"]
    b = ds.batch(2)
    assert str(b.element_spec) == "RaggedTensorSpec(TensorShape([None, None, None]), tf.int32, 2, tf.int64)"
    assert [str(t) for t in b] == ["<tf.RaggedTensor [[[1], [2, 3]], [[4]]]>", "<tf.RaggedTensor [[]]>"]


def test_batch_map_and_structures_of_ragged_elements():
    rt = tf.ragged.constant(RT)
    b = tf.data.Dataset.from_tensor_slices(rt).batch(2)
    assert str(b.element_spec) == "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert [str(t) for t in b.map(lambda x: x + 1)] == ["<tf.RaggedTensor [[2, 3], [4]]>",
                                                        "<tf.RaggedTensor [[], [5, 6, 7]]>"]
    assert repr(list(b.as_numpy_iterator())[0]) == (
        "array([array([1, 2], dtype=int32), array([3], dtype=int32)], dtype=object)")
    assert str(tf.data.Dataset.from_tensors(rt).element_spec) == (
        "RaggedTensorSpec(TensorShape([4, None]), tf.int32, 1, tf.int64)")
    d = tf.data.Dataset.from_tensor_slices({"a": rt, "b": [1, 2, 3, 4]})
    assert str(d.element_spec) == ("{'a': RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64), "
                                   "'b': TensorSpec(shape=(), dtype=tf.int32, name=None)}")
    first = next(iter(d.batch(3)))
    assert str(first["a"]) == "<tf.RaggedTensor [[1, 2], [3], []]>" and first["b"].numpy().tolist() == [1, 2, 3]


def test_from_generator_with_a_ragged_tensor_spec():
    def gen():
        yield 42, tf.ragged.constant([[1, 2], [3]])
    ds = tf.data.Dataset.from_generator(gen, output_signature=(
        tf.TensorSpec(shape=(), dtype=tf.int32), tf.RaggedTensorSpec(shape=(2, None), dtype=tf.int32)))
    assert str(ds.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                    "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64))")
    assert str(list(ds)) == "[(<tf.Tensor: shape=(), dtype=int32, numpy=42>, <tf.RaggedTensor [[1, 2], [3]]>)]"


def test_map_element_spec_leaves_the_traced_unknown_dimensions_unknown():
    m = tf.data.Dataset.range(6).map(lambda x: (tf.range(x), tf.reshape(x, [1]), tf.fill([2, x], 1.0)))
    assert str(m.element_spec) == (
        "(TensorSpec(shape=(None,), dtype=tf.int64, name=None), TensorSpec(shape=(1,), dtype=tf.int64, name=None), "
        "TensorSpec(shape=(2, None), dtype=tf.float32, name=None))")
    assert str(tf.range(tf.constant(2, tf.int64), 5.0)) == "tf.Tensor([2. 3. 4.], shape=(3,), dtype=float32)"


def test_ragged_batch_of_elements_of_varying_shapes():
    rb = tf.data.Dataset.range(6).map(lambda x: tf.range(x)).ragged_batch(2)
    assert str(rb) == ("<_BatchDataset element_spec=RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, "
                       "tf.int64)>")
    assert [str(b) for b in rb] == ["<tf.RaggedTensor [[], [0]]>", "<tf.RaggedTensor [[0, 1], [0, 1, 2]]>",
                                    "<tf.RaggedTensor [[0, 1, 2, 3], [0, 1, 2, 3, 4]]>"]
    f = tf.data.Dataset.range(5).map(lambda x: tf.fill([x, 2], x)).ragged_batch(2, row_splits_dtype=tf.int32)
    assert str(f.element_spec) == "RaggedTensorSpec(TensorShape([None, None, 2]), tf.int64, 1, tf.int32)"
    assert str(next(iter(f))) == "<tf.RaggedTensor [[], [[1, 1]]]>"
    g = tf.data.Dataset.range(5).map(lambda x: (x, tf.range(x))).ragged_batch(2, drop_remainder=True)
    assert str(g.element_spec) == ("(TensorSpec(shape=(2,), dtype=tf.int64, name=None), "
                                   "RaggedTensorSpec(TensorShape([2, None]), tf.int64, 1, tf.int64))")
    a2 = tf.data.Dataset.range(4).map(lambda x: (tf.fill([x], x), tf.fill([3, x], x))).ragged_batch(2)
    assert str(a2.element_spec) == ("(RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64), "
                                    "RaggedTensorSpec(TensorShape([None, 3, None]), tf.int64, 2, tf.int64))")
    assert str(list(a2)[1][1]) == ("<tf.RaggedTensor [[[2, 2], [2, 2], [2, 2]],\n"
                                   " [[3, 3, 3], [3, 3, 3], [3, 3, 3]]]>")
    w = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3]])).ragged_batch(5)
    assert str(w.element_spec) == "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert [str(b) for b in w] == ["<tf.RaggedTensor [[1, 2], [3]]>"]


def test_rejection_resample_structure_and_tensorflows_counts():
    """TensorFlow 2.21's outcomes; where they depend on the draws (devtrace's are NumPy's), the
    class balance is compared, and the counts TensorFlow's scheme fixes exactly."""
    r = tf.data.Dataset.range(4).rejection_resample(lambda x: x % 2, target_dist=[0.5, 0.5], initial_dist=[0.5, 0.5])
    assert str(r) == ("<_MapDataset element_spec=(TensorSpec(shape=(), dtype=tf.int64, name=None), "
                      "TensorSpec(shape=(), dtype=tf.int64, name=None))>")
    assert [(int(c), int(x)) for c, x in r.as_numpy_iterator()] == [(0, 0), (1, 1), (0, 2), (1, 3)]
    r = tf.data.Dataset.range(4).rejection_resample(lambda x: tf.cast(x % 2, tf.int32), target_dist=[1.0, 0.0],
                                                    initial_dist=[0.5, 0.5])
    assert str(r) == ("<_PrefetchDataset element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                      "TensorSpec(shape=(), dtype=tf.int64, name=None))>")
    assert [(int(c), int(x)) for c, x in r.as_numpy_iterator()] == [(0, 0), (0, 2)]
    sorted_elems = np.array([0] * 600 + [1] * 400)
    estimated = tf.data.Dataset.from_tensor_slices(sorted_elems).rejection_resample(lambda x: x, [0.5, 0.5], seed=3)
    assert np.bincount([x for _, x in estimated.as_numpy_iterator()]).tolist() == [600, 424]  # TF: the same
    elems = np.random.default_rng(0).choice(2, 20000, p=[0.6, 0.4])
    for initial, tf_count, tf_zero in (([0.6, 0.4], 23988, 0.49791562), (None, 20000, 0.4994)):
        out = [x for _, x in tf.data.Dataset.from_tensor_slices(elems).apply(tf.data.experimental.rejection_resample(
            lambda x: x, target_dist=[0.5, 0.5], initial_dist=initial, seed=3)).as_numpy_iterator()]
        assert abs(len(out) - tf_count) < 300 and abs(np.mean(np.asarray(out) == 0) - tf_zero) < 0.01


def test_to_variant_and_from_variant_as_tensorflow():
    ds = tf.data.Dataset.range(10)
    v = tf.data.experimental.to_variant(ds)
    assert str(v) == "tf.Tensor(<RangeDatasetOp(0, 10, 1)::Dataset>, shape=(), dtype=variant)"
    assert type(v).__name__ == "EagerTensor" and v.device.endswith("device:CPU:0")
    back = tf.data.experimental.from_variant(v, ds.element_spec)
    assert str(back) == "<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert [int(x) for x in back.as_numpy_iterator()] == list(range(10))
    assert repr(tf.data.experimental.to_variant(tf.data.Dataset.range(3).map(lambda x: x + 1))) == (
        "<tf.Tensor: shape=(), dtype=variant, value=<MapDatasetOp::Dataset>>")
    assert repr(tf.data.experimental.to_variant(tf.data.Dataset.from_tensor_slices([1, 2]))) == (
        "<tf.Tensor: shape=(), dtype=variant, value=<TensorSliceDatasetOp::Dataset>>")


def test_from_list_of_elements_of_varying_shapes():
    fl = tf.data.experimental.from_list([[1], [2, 3]])
    assert str(fl) == "<_ListDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int32, name=None)>"
    assert repr(list(fl.as_numpy_iterator())) == "[array([1], dtype=int32), array([2, 3], dtype=int32)]"
    fl = tf.data.experimental.from_list([(1, "a"), (2, "b"), (3, "c")])
    assert str(fl) == ("<_ListDataset element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                       "TensorSpec(shape=(), dtype=tf.string, name=None))>")
    with pytest.raises(ValueError, match=r"^Invalid `elements`. `elements` should not be empty. If you want an empty "
                                         r"dataset, use `tf.data.Dataset.range\(0\)`.$"):
        tf.data.experimental.from_list([])
