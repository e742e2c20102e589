"""The everyday op surface beyond the wide oracle's cells: each expected value or text below was
printed by TensorFlow 2.21 (tensorflow-cpu, probes run by hand)."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.errors import InvalidArgumentError


def _list(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def test_seeded_shuffle_gives_tensorflows_orders():
    d = tf.data.Dataset.range(10).shuffle(10, seed=42)
    assert _list(d) == [5, 9, 6, 4, 7, 1, 2, 8, 3, 0]
    assert _list(d) == [3, 7, 6, 5, 8, 4, 0, 1, 9, 2]  # a new iterator: the next two seeds
    fixed = tf.data.Dataset.range(10).shuffle(4, seed=7, reshuffle_each_iteration=False)
    assert _list(fixed) == _list(fixed) == [3, 4, 0, 5, 1, 8, 2, 7, 6, 9]
    assert _list(tf.data.Dataset.range(6).shuffle(3, seed=1).repeat(2)) == [1, 3, 0, 5, 2, 4, 1, 3, 0, 5, 4, 2]


def test_segment_reductions_and_bincount():
    ids = tf.constant([1, 0, 1, 0])
    out = tf.math.unsorted_segment_max(tf.constant([1, 7, 3, 4]), ids, num_segments=3)
    assert out.numpy().tolist() == [7, 3, -2147483648]  # an empty unsorted segment: the dtype's lowest
    data, sorted_ids = tf.constant([1., 7, 3, 4]), tf.constant([0, 0, 2, 2])
    assert tf.math.segment_max(data, sorted_ids).numpy().tolist() == [7, 0, 4]
    assert tf.math.segment_mean(data, sorted_ids).numpy().tolist() == [4, 0, 3.5]
    counts = tf.math.bincount(tf.constant([3, 1, 4, 1, 5, 9, 2, 6]), minlength=12, dtype=tf.float32)
    assert counts.dtype == tf.float32 and counts.numpy().tolist() == [0, 2, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0]


def test_cumulative_logsumexp_exclusive_reverse():
    out = tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 0.0]), exclusive=True, reverse=True)
    np.testing.assert_allclose(out.numpy(), [0.6931472, 0.0, -np.inf])


def test_lu_pivots_as_eigen():
    lu, p = tf.linalg.lu(tf.constant([[1., 2, 3], [4, 5, 6], [7, 8, 10]]))
    np.testing.assert_allclose(lu.numpy(), [[7, 8, 10], [0.14285715, 0.8571428, 1.5714285],
                                            [0.5714286, 0.4999998, -0.49999982]], rtol=1e-5)
    assert p.dtype == tf.int32 and p.numpy().tolist() == [2, 0, 1]


def test_ragged_reduce_sum_over_rows_and_columns():
    r = tf.ragged.constant([[1, 2, 3], [], [4]])
    assert tf.reduce_sum(r, axis=0).numpy().tolist() == [5, 2, 3]
    assert tf.reduce_sum(r, axis=-1).numpy().tolist() == [6, 0, 4]
    assert int(tf.reduce_sum(r)) == 10


def test_sparse_to_dense_checks_its_indices():
    with pytest.raises(InvalidArgumentError, match=r"indices\[1\] = \[0,0\] is repeated \[Op:SparseToDense\]"):
        tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 0], [0, 0]], [1, 2], [3, 1]))
    with pytest.raises(InvalidArgumentError, match=r"indices\[1\] = \[5,0\] is out of bounds: need 0 <= index < \[3,1\]"):
        tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 0], [5, 0]], [1, 2], [3, 1]))
    out = tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 0], [1, 0]], [1.5, 2], [3, 1]), default_value=-1)
    assert out.numpy().tolist() == [[1.5], [2], [-1]]
    strings = tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 0], [1, 0]], ["a", "b"], [3, 1]))
    assert strings.numpy().tolist() == [[b"a"], [b"b"], [b""]]


def test_add_converts_its_second_operand_with_a_dtype_hint_only():
    a = tf.constant([7, -7, 3])
    with pytest.raises(InvalidArgumentError, match=r"input #1\(zero-based\) was expected to be a float tensor but is "
                                                   r"a int32 tensor \[Op:AddV2\] name: $"):
        tf.add(1.5, a)
    with pytest.raises(TypeError, match="^Cannot convert 1.5 to EagerTensor of dtype int32$"):
        1.5 + a
    assert (tf.constant("a") + "b").numpy() == b"ab" and ("b" + tf.constant("a")).numpy() == b"ba"


def test_python_protocols_name_eager_tensors_as_tensorflow():
    a = tf.constant([7, -7, 3])
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for divmod\(\): 'int' and "
                                        r"'tensorflow.python.framework.ops.EagerTensor'$"):
        divmod(2, a)
    assert type(a).__name__ == "EagerTensor"
    assert type(np.ones(3) + a).__name__ == "EagerTensor"
    assert (a != tf.constant([1, 2])).numpy() is np.True_  # shapes that do not broadcast: unequal
    with pytest.raises(AttributeError, match="^EagerTensor object has no attribute 'ravel'"):
        a.ravel()


def test_constants_of_python_ints_wrap_or_are_refused():
    assert tf.constant([2**40, 3], tf.int32).numpy().tolist() == [0, 3]
    assert int(tf.constant(-2**40 - 1, tf.int32)) == -1
    assert int(tf.constant(300, tf.int8)) == 44
    for value in (2**63, [2**64], -2**63 - 1):
        with pytest.raises(ValueError, match="^Can't convert Python sequence with out-of-range integer to Tensor.$"):
            tf.constant(value)
    assert int(tf.constant(2**63, tf.uint64)) == 2**63
    with pytest.raises(TypeError, match=r"^Cannot convert True to EagerTensor of dtype string$"):
        tf.constant(True, tf.string)


def test_op_def_type_lists_are_checked_before_kernels():
    p = tf.constant([True])
    with pytest.raises(InvalidArgumentError) as e:
        p + p
    assert str(e.value) == (
        "Value for attr 'T' of bool is not in the list of allowed values: bfloat16, half, float, double, uint8, "
        "uint16, uint32, uint64, int8, int16, int32, int64, complex64, complex128\n\t; NodeDef: {{node AddV2}}; "
        "Op<name=AddV2; signature=x:T, y:T -> z:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, "
        "DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_COMPLEX64, "
        "DT_COMPLEX128]; is_commutative=true; is_aggregate=true> [Op:AddV2] name: ")
    with pytest.raises(InvalidArgumentError, match=r"(?s)^Value for attr 'T' of string is not in the list of allowed "
                                                   r"values: float, double, int32, .*\[Op:Mean\] name: $"):
        tf.reduce_mean(tf.constant(["a"]))


def test_every_op_def_summary_names_a_declared_op():
    from devtrace.generated.op_defs import SIGNATURES
    from devtrace.runtime.registry import REGISTRY

    for name, text in SIGNATURES.items():
        assert text.startswith(f"Op<name={name}; ") and REGISTRY[name].signature == text


def test_everyday_functions_added_for_issue_10():
    x, y = tf.constant([0.0, 1.0, 2.0, -1.0]), tf.constant([0.0, 0.5, 0.0, 2.0])
    np.testing.assert_allclose(tf.math.xlogy(x, y).numpy(), [0, -0.6931472, -np.inf, -0.6931472])
    assert tf.math.reciprocal_no_nan(y).numpy().tolist() == [0, 2, 0, 0.5]
    assert tf.bitwise.right_shift(tf.constant([-16, 16]), 2).numpy().tolist() == [-4, 4]
    assert float(tf.nn.l2_loss(tf.constant([[1.0, 2.0], [3.0, 4.0]]))) == 15.0
    z = tf.reshape(tf.range(16), [1, 2, 2, 4])
    assert tf.nn.depth_to_space(z, 2)[0, :, :, 0].numpy().tolist() == [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13],
                                                                       [10, 11, 14, 15]]
    assert tf.sequence_mask([1, 3, 2], 5).numpy().tolist() == [[True, False, False, False, False],
                                                                 [True, True, True, False, False],
                                                                 [True, True, False, False, False]]
    gx, gy = tf.meshgrid([1, 2, 3], [4, 5])
    assert gx.numpy().tolist() == [[1, 2, 3], [1, 2, 3]] and gy.numpy().tolist() == [[4, 4, 4], [5, 5, 5]]
    assert tf.unravel_index([5, 7], [3, 4]).numpy().tolist() == [[1, 1], [1, 3]]
    with pytest.raises(InvalidArgumentError, match=r"\} 0 is duplicated in the input. \[Op:InvertPermutation\]$"):
        tf.math.invert_permutation([0, 0])


def test_gradients_of_gelu_l2_loss_and_segment_sums():
    x = tf.constant([-1.0, 0.5, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.gelu(x)) + tf.nn.l2_loss(x) + tf.reduce_sum(tf.math.erf(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [-0.668208, 2.2462778, 3.1058989], rtol=1e-6)
    d = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(d)
        s = tf.math.unsorted_segment_sum(d, tf.constant([1, -1, 1]), 3)
        s2 = tf.math.segment_sum(d, tf.constant([0, 0, 1]))
        loss = tf.reduce_sum(s * tf.constant([[1.0], [2.0], [3.0]])) + tf.reduce_sum(s2 * s2)
    assert tape.gradient(loss, d).numpy().tolist() == [[10, 14], [8, 12], [12, 14]]


def test_global_norm_clipping():
    a, b = tf.constant([3.0, 4.0]), tf.constant([[12.0]])
    assert float(tf.linalg.global_norm([a, None, b])) == 13.0
    (ca, none, cb), norm = tf.clip_by_global_norm([a, None, b], 6.5)
    assert none is None and float(norm) == 13.0
    assert ca.numpy().tolist() == [1.5, 2.0] and cb.numpy().tolist() == [[6.0]]


def test_graph_getitem_nodes_are_named_as_tensorflows():
    g = tf.compat.v1.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3, 4])
        x[0], x[1:]
    assert [op.name for op in g.get_operations()] == [  # TensorFlow 2.21's: begin, end and strides stacked
        "Placeholder", "strided_slice/stack", "strided_slice/stack_1", "strided_slice/stack_2", "strided_slice",
        "strided_slice_1/stack", "strided_slice_1/stack_1", "strided_slice_1/stack_2", "strided_slice_1"]


def test_unsorted_segment_mean_and_sqrt_n():
    d = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    assert tf.math.unsorted_segment_mean(d, tf.constant([1, -1, 1]), 3).numpy().tolist() == [[0, 0], [3, 4], [0, 0]]
    np.testing.assert_allclose(tf.math.unsorted_segment_sqrt_n(d, tf.constant([1, 0, 1]), 3).numpy(),
                               [[3, 4], [4.2426405, 5.656854], [0, 0]], rtol=1e-6)


def test_repeat_as_tensorflow():
    assert tf.repeat(["a", "b", "c"], repeats=[3, 0, 2], axis=0).numpy().tolist() == [b"a"] * 3 + [b"c"] * 2
    assert tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=1).numpy().tolist() == [[1, 1, 2, 2, 2], [3, 3, 4, 4, 4]]
    assert tf.repeat([[1, 2], [3, 4]], repeats=2).numpy().tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert tf.repeat(3, repeats=4).numpy().tolist() == [3, 3, 3, 3]


def test_ensure_shape_and_get_static_value():
    x = tf.constant([1, 2, 3])
    assert tf.ensure_shape(x, [None]).numpy().tolist() == [1, 2, 3]
    with pytest.raises(InvalidArgumentError, match=r"\} Shape of tensor input \[3\] is not compatible with expected "
                                                   r"shape \[3,1\]. \[Op:EnsureShape\] name: $"):
        tf.ensure_shape(x, [3, 1])
    assert tf.get_static_value(x).tolist() == [1, 2, 3] and tf.get_static_value([1, 2]) == [1, 2]


def test_shape_n():
    a, b = tf.shape_n([tf.constant([1, 2, 3]), tf.zeros([2, 3], tf.int32)])
    assert a.numpy().tolist() == [3] and b.numpy().tolist() == [2, 3]
    with pytest.raises(InvalidArgumentError, match=r"^cannot compute ShapeN as input #1\(zero-based\) was expected to "
                                                   r"be a int32 tensor but is a float tensor \[Op:ShapeN\] name: $"):
        tf.shape_n([tf.constant([1, 2, 3]), tf.zeros([2, 3])])


def test_check_numerics_names_what_it_found():
    with pytest.raises(InvalidArgumentError, match=r"\} m : Tensor had Inf and NaN values \[Op:CheckNumerics\] name: $"):
        tf.debugging.check_numerics(tf.constant([1.0, float("inf"), float("nan")]), "m")
    assert tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "m").numpy().tolist() == [1.0, 2.0]
    with pytest.raises(InvalidArgumentError, match=r"^Value for attr 'TI' of float is not in the list of allowed "
                                                   r"values: uint8, int8, int32, int64\n"):
        tf.one_hot(tf.constant([1.0]), 3)
    with pytest.raises(InvalidArgumentError, match="attr=alpha:float,default=0.2; "):
        tf.nn.leaky_relu(tf.constant([True]))


def test_debugging_asserts_raise_tensorflows_messages():
    with pytest.raises(InvalidArgumentError) as e:
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))
    assert str(e.value) == ("Condition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
                            "Corresponding x values:\n[2]\nCorresponding y values:\n[3]\nFirst 2 elements of x:\n"
                            "[1 2]\nFirst 2 elements of y:\n[1 3]")
    with pytest.raises(InvalidArgumentError) as e:
        tf.assert_less(tf.constant([1, 5, 3, 9, 9]), 4, message="too big")
    assert str(e.value) == "too big\nCondition x < y did not hold.\nFirst 3 elements of x:\n[1 5 3]\nFirst 1 elements of y:\n[4]"
    assert tf.debugging.assert_positive(tf.constant([1, 2])) is None


def test_tf_function_stays_the_decorator_after_tf_data_loads_its_module():
    import importlib

    tf.data.Dataset.range(1)
    importlib.import_module("devtrace.polymorphic_function.function")
    assert callable(tf.function) and tf.function.__name__ == "function"


def test_gradients_of_everyday_ops_as_tensorflows():
    """TF 2.21's gradients, rounded to 4 places (LeakyReluGrad, the inverse trigonometric ops,
    Max's shared selection, reversed Cumsum, GatherNd's scatter, Slice's padding, MatrixInverse)."""
    x = tf.constant([[0.3, -0.5, 0.9], [0.1, 0.2, -0.7]])
    y = tf.constant([[1.5, 2.0, 0.5], [0.0, 3.0, 1.0]])
    expected = {
        "leaky": (lambda: tf.nn.leaky_relu(x, 0.3), [1.0, 0.3, 1.0, 1.0, 1.0, 0.3]),
        "asin": (lambda: tf.asin(x), [1.0483, 1.1547, 2.2942, 1.005, 1.0206, 1.4003]),
        "max": (lambda: tf.reduce_max(x * y, axis=1), [1.5, 0.0, 0.0, 0.0, 3.0, 0.0]),
        "cumsum": (lambda: tf.cumsum(x * y, axis=1, reverse=True), [1.5, 4.0, 1.5, 0.0, 6.0, 3.0]),
        "gather_nd": (lambda: tf.gather_nd(x, [[0, 1], [1, 2], [0, 1]]), [0.0, 2.0, 0.0, 0.0, 0.0, 1.0]),
        "slice": (lambda: tf.slice(x, [0, 1], [2, 2]) * 3.0, [0.0, 3.0, 3.0, 0.0, 3.0, 3.0]),
        "inverse": (lambda: tf.linalg.inv(tf.constant([[2.0, 0.0], [0.0, 4.0]]) + x[:, :2]),
                    [-0.2044, -0.0957, 0.0, -0.1396, -0.0653, 0.0]),
    }
    for name, (fn, want) in expected.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = tf.reduce_sum(fn())
        got = [round(float(v), 4) for v in tf.reshape(tape.gradient(out, x), [-1])]
        np.testing.assert_allclose(got, want, atol=1e-4, err_msg=name)


def test_einsum_gradients_as_tensorflows():
    m, v = tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([0.5, -1.0])
    cases = {"i,ij,j->": [v, m, v], "ij->i": [m], "i,j->ij": [v, v]}
    want = {"i,ij,j->": [[-14.0, -19.25], [0.875, -1.75, -1.75, 3.5], [-14.0, -19.25]], "ij->i": [[6.0, 6.0, 14.0, 14.0]],
            "i,j->ij": [[2.5, -5.0], [2.5, -5.0]]}
    for equation, xs in cases.items():
        with tf.GradientTape() as tape:
            tape.watch(xs)
            out = tf.einsum(equation, *xs)
            loss = tf.reduce_sum(out * out)
        got = [[round(float(g), 3) for g in tf.reshape(grad, [-1])] for grad in tape.gradient(loss, xs)]
        assert got == want[equation], equation


def test_counting_and_monotonic_helpers():
    assert tf.math.confusion_matrix([0, 1, 1], [0, 1, 0]).numpy().tolist() == [[1, 0], [1, 1]]
    weighted = tf.math.confusion_matrix([0, 2, 1], [0, 1, 1], num_classes=4, weights=[1.0, 2.0, 3.0], dtype=tf.float32)
    assert weighted.numpy().tolist()[2] == [0.0, 2.0, 0.0, 0.0]
    with pytest.raises(InvalidArgumentError, match="^`labels` contains negative values.  \nCondition x >= 0"):
        tf.math.confusion_matrix([0, -1], [0, 1])
    counts = tf.histogram_fixed_width(tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0, 100.0]), [0.0, 5.0], nbins=4,
                                      dtype=tf.int64)
    assert counts.dtype == tf.int64 and counts.numpy().tolist() == [2, 2, 0, 2]
    assert bool(tf.math.is_non_decreasing([1, 2, 2])) and not bool(tf.math.is_strictly_increasing([1, 2, 2]))
    assert tf.math.polyval([1.0, -2.0, 3.0], tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 3.0]
    assert tf.nn.relu6(tf.constant([-1, 8])).numpy().tolist() == [0, 6]
    assert tf.zeros_like(tf.constant(["a"])).numpy().tolist() == [b""]


def test_prod_and_cumprod_gradients_handle_zeros_as_tensorflow():
    x = tf.constant([[0.5, 2.0, 0.0], [1.5, -1.0, 3.0]])
    want = {"prod0": (lambda: tf.reduce_prod(x, 0), [2.25, 4.0, 0.0, 0.75, -8.0, 0.0]),
            "prod1k": (lambda: tf.reduce_prod(x, 1, keepdims=True), [0.0, 0.0, 0.0, 27.0, -40.5, 13.5]),
            "cumprod": (lambda: tf.math.cumprod(x, axis=1), [5.0, 1.0, 0.0, 33.0, -45.0, 13.5]),
            "cumprod_ex_rev": (lambda: tf.math.cumprod(x, axis=0, exclusive=True, reverse=True),
                               [0.0, 0.0, 0.0, 3.0, -2.0, 6.0])}
    for name, (fn, expected) in want.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = tf.reduce_sum(fn() * fn())
        np.testing.assert_allclose(tf.reshape(tape.gradient(out, x), [-1]).numpy(), expected, atol=1e-4, err_msg=name)


def test_digamma_and_the_lgamma_gradient():
    x = tf.constant([0.1, 0.5, 1.0, 2.5, 7.0, 30.0, -0.5, -2.3])
    want = [-10.42375, -1.96351, -0.57722, 0.70316, 1.87278, 3.38444, 0.03649, 3.31732]  # TF 2.21's
    np.testing.assert_allclose(tf.math.digamma(x).numpy(), want, atol=1e-4)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.lgamma(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), want, atol=1e-4)


def test_an_index_after_an_ellipsis_counts_from_the_last_axis():
    """``x[..., 2]`` takes the last axis's third entry (an image's blue channel), as TensorFlow 2.21; out of
    range, its error names that axis (captured: ``slice index 3 of dimension 2 out of bounds.``)."""
    x = tf.constant(np.arange(12, dtype="float32").reshape(2, 2, 3))
    assert x[..., 2].numpy().tolist() == [[2, 5], [8, 11]]
    assert x[0, ..., 2].numpy().tolist() == [2, 5] and x[..., 0, :].shape == (2, 3)
    with pytest.raises(InvalidArgumentError, match=r"slice index 3 of dimension 2 out of bounds\. \[Op:StridedSlice\]"):
        x[..., 3]  # noqa: B018
