"""tf.data.experimental's batching aliases and the names that fail here, against TensorFlow 2.21:
the expected texts were printed by TensorFlow 2.21 (tensorflow-cpu in a separate venv) running the
same statements."""

from __future__ import annotations

import pytest

import devtrace as tf

E = tf.data.experimental


def test_dense_to_sparse_batch_values_and_spec_as_tensorflow():
    s = tf.data.Dataset.range(4).map(lambda x: tf.fill([x], x)).apply(E.dense_to_sparse_batch(2, [5]))
    assert str(s.element_spec) == "SparseTensorSpec(TensorShape([None, 5]), tf.int64)"
    assert [str(b) for b in s] == [
        "SparseTensor(indices=tf.Tensor([[1 0]], shape=(1, 2), dtype=int64), values=tf.Tensor([1], shape=(1,), "
        "dtype=int64), dense_shape=tf.Tensor([2 5], shape=(2,), dtype=int64))",
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [0 1]\n [1 0]\n [1 1]\n [1 2]], shape=(5, 2), dtype=int64), "
        "values=tf.Tensor([2 2 3 3 3], shape=(5,), dtype=int64), dense_shape=tf.Tensor([2 5], shape=(2,), "
        "dtype=int64))"]


def test_dense_to_ragged_batch_of_one_shape_batches_densely():
    r = tf.data.Dataset.from_tensor_slices(tf.constant([[1, 2], [3, 4], [5, 6]])).apply(E.dense_to_ragged_batch(2))
    assert str(r.element_spec) == "TensorSpec(shape=(None, 2), dtype=tf.int32, name=None)"
    assert [b.numpy().tolist() for b in r] == [[[1, 2], [3, 4]], [[5, 6]]]
    v = tf.data.Dataset.range(3).map(lambda x: tf.fill([x], x)).apply(E.dense_to_ragged_batch(2))
    assert str(v.element_spec) == "RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)"
    assert [str(b) for b in v] == ["<tf.RaggedTensor [[], [1]]>", "<tf.RaggedTensor [[2, 2]]>"]


def test_names_that_fail_here_fail_as_tensorflow_or_in_one_line():
    with pytest.raises(AttributeError, match="^Tensor.name is undefined when eager execution is enabled.$"):
        E.make_saveable_from_iterator(iter(tf.data.Dataset.range(3)))
    with pytest.raises(ValueError, match="^Only supports `tf.data.Iterator`-typed `iterator`.$"):
        E.get_model_proto(tf.data.Dataset.range(3))
    for call in (lambda: E.get_model_proto(iter(tf.data.Dataset.range(3))),
                 lambda: E.distributed_save(tf.data.Dataset.range(3), "/nonexistent", "grpc://localhost:5050")):
        with pytest.raises(NotImplementedError, match=r"^devtrace does not implement tf\.data\.experimental\.\w+ yet"):
            call()
