"""``tf.IndexedSlices`` and a variable's ``scatter_*`` methods: each expected value or text below
was printed by TensorFlow 2.21 (tensorflow-cpu, probes run by hand)."""

import re

import numpy as np
import pytest

import devtrace as tf


def _slices():
    return tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), tf.constant([3, 2]))


def test_kept_as_given_printed_as_tensorflow():
    s = tf.IndexedSlices([9.0], [1])
    assert str(s) == "IndexedSlices(indices=[1], values=[9.0])"
    assert re.fullmatch(r"<tensorflow\.python\.framework\.indexed_slices\.IndexedSlices object at 0x[0-9a-f]+>", repr(s))
    assert s.dense_shape is None and str(s.shape) == "<unknown>"
    d = _slices()
    assert str(d) == ("IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor([[1. 2.]], "
                      "shape=(1, 2), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int32))")
    assert d.shape.as_list() == [3, 2] and d.dtype == tf.float32
    assert (-d).values.numpy().tolist() == [[-1, -2]]


def test_converted_by_a_segment_sum_of_its_values():
    t = tf.convert_to_tensor(_slices())
    assert t.numpy().tolist() == [[0, 0], [1, 2], [0, 0]]
    with pytest.raises(ValueError, match=r"^Incompatible tensor conversion requested to `dtype` int32 for "
                                         r"IndexedSlices \(IndexedSlices\(indices=tf.Tensor"):
        tf.convert_to_tensor(_slices(), tf.int32)
    with pytest.raises(ValueError, match=r"^Tensor conversion requested for IndexedSlices for argument `value` "
                                         r"without dense_shape: IndexedSlices\(indices=\[1\], values=\[9.0\]\)$"):
        tf.convert_to_tensor(tf.IndexedSlices([9.0], [1]))


def test_variable_scatter_methods_and_assign_sub():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    assert v.assign_sub(_slices()).numpy().tolist() == [[1, 2], [2, 2], [5, 6]]
    out = v.scatter_mul(tf.IndexedSlices(tf.constant([[2., 2.], [3., 3.]]), tf.constant([0, 0])))
    assert repr(out) == ("<tf.Variable 'UnreadVariable' shape=(3, 2) dtype=float32, numpy=\n"
                         "array([[ 6., 12.],\n       [ 2.,  2.],\n       [ 5.,  6.]], dtype=float32)>")
    v.scatter_min(tf.IndexedSlices(tf.constant([[0., 10.]]), tf.constant([2], tf.int64)))
    v.scatter_div(tf.IndexedSlices(tf.constant([[2., 2.]]), tf.constant([1])))
    np.testing.assert_array_equal(v.numpy(), [[6, 12], [1, 1], [0, 6]])
    with pytest.raises(TypeError, match=r"^Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: \[1\]$"):
        v.scatter_sub([1])


def test_scatter_runs_tensorflows_op():
    v = tf.Variable([1., 2., 3.])
    v.scatter_update(tf.IndexedSlices(tf.constant([9.0]), tf.constant([1])))
    from devtrace.runtime.context import context

    assert [e.op for e in context().trace.events if hasattr(e, "op")][-1] == "ResourceScatterUpdate"
    assert v.numpy().tolist() == [1, 9, 3]


def test_a_gathers_gradient_is_indexed_slices_summed_as_tensorflows_tape():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, [0, 2, 0]))
    g = t.gradient(y, v)
    assert type(g).__name__ == "IndexedSlices" and g.indices.numpy().tolist() == [0, 2, 0]
    assert g.dense_shape.numpy().tolist() == [3, 2] and g.values.numpy().tolist() == [[1, 1]] * 3
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        mixed = tf.reduce_sum(tf.gather(x, [0, 2, 0])) + tf.reduce_sum(x * x)
        sparse = tf.reduce_sum(tf.gather(x, [[0], [2]]) * 3.0) + tf.reduce_sum(tf.gather(x, [1]))
        through = tf.reduce_sum(tf.gather(x * 2.0, [1, 1]))
        other_axis = tf.reduce_sum(tf.gather(x, [1], axis=1))
    dense = t.gradient(mixed, x)  # a dense part: TensorFlow's AddN, a tensor
    assert type(dense).__name__ == "EagerTensor" and dense.numpy().tolist() == [[4, 6], [6, 8], [11, 13]]
    both = t.gradient(sparse, x)  # slices only: their concatenation, the later gather's first
    assert type(both).__name__ == "IndexedSlices" and both.indices.numpy().tolist() == [1, 0, 2]
    assert both.values.numpy().tolist() == [[1, 1], [3, 3], [3, 3]]
    assert t.gradient(through, x).numpy().tolist() == [[0, 0], [4, 4], [0, 0]]  # dense past the Mul
    assert type(t.gradient(other_axis, x)).__name__ == "EagerTensor"


def test_optimizers_and_assign_sub_take_indexed_slices():
    w = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.nn.embedding_lookup(w, [1]))
    g = t.gradient(y, w)
    tf.keras.optimizers.SGD(0.1).apply_gradients([(g, w)])
    np.testing.assert_allclose(w.numpy(), [[1, 2], [2.9, 3.9], [5, 6]], rtol=1e-6)
    np.testing.assert_allclose(w.assign_sub(g).numpy(), [[1, 2], [1.9000001, 2.9], [5, 6]], rtol=1e-6)


def test_clipping_reads_the_slices_values_and_keeps_them_slices():
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.gather(x, [0, 2, 0]) * tf.constant([[3., 4.]]))
    g, d = t.gradient(y, x), tf.constant([1.0, 2.0])
    np.testing.assert_allclose(tf.linalg.global_norm([g, d]).numpy(), 8.944272, rtol=1e-6)  # repeated rows count twice
    (cg, cd), norm = tf.clip_by_global_norm([g, d], 2.0)
    assert type(cg).__name__ == "IndexedSlices" and cg.indices.numpy().tolist() == [0, 2, 0]
    np.testing.assert_allclose(cg.values.numpy(), [[0.67082036, 0.8944272]] * 3, rtol=1e-6)
    np.testing.assert_allclose(cd.numpy(), [0.2236068, 0.4472136], rtol=1e-6)
    clipped = tf.clip_by_norm(g, 1.0)
    assert type(clipped).__name__ == "IndexedSlices"
    np.testing.assert_allclose(clipped.values.numpy(), [[0.34641016, 0.46188018]] * 3, rtol=1e-6)


def test_variable_scatter_nd_max_min_and_tensor_experimental_ref(caplog):
    """TensorFlow 2.21's values, and its deprecation note for ``Tensor.experimental_ref``."""
    from devtrace.platform import tf_logging

    v = tf.Variable([1.0, 5.0, 3.0])
    assert repr(v.scatter_nd_max([[0], [1]], [4.0, 4.0])) == (
        "<tf.Variable 'UnreadVariable' shape=(3,) dtype=float32, numpy=array([4., 5., 3.], dtype=float32)>")
    assert v.scatter_nd_min([[2]], [0.5]).numpy().tolist() == [4, 5, 0.5]
    tf_logging._warned.clear()
    t = tf.constant([1.0, 2.0])
    r = t.experimental_ref()
    assert type(r).__name__ == "Reference" and r.deref() is t and r == t.ref()
    t.experimental_ref()
    notes = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    assert len(notes) == 1 and notes[0].startswith(f"From {__file__}:") and notes[0].endswith(
        ": Tensor.experimental_ref (from tensorflow.python.framework.tensor) is deprecated and will be removed in "
        "a future version.\nInstructions for updating:\nUse ref() instead.")
