"""TensorFlow 2.21 behaviour that tensorflow.org guide/tutorial-style programs (helper h-tfgd's probes
p61–p76, /work/helpers/kio/probes) found devtrace lacking: each expected value or text is what
TensorFlow 2.21 printed running the same lines (``/work/tfvenv/bin/python``, the probe's output)."""

import sys

import numpy as np
import pytest

import devtrace as tf


def test_custom_gradient_passes_the_variables_it_read():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * v, [dy * x * 10.0]
        return x * v, grad

    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = scaled(x)
    assert [g.numpy() for g in tape.gradient(y, [v])] == [np.float32(30.0)]
    assert tape.gradient(y, x).numpy() == 2.0

    @tf.custom_gradient
    def no_variables_keyword(x):
        return x * v, lambda dy: dy

    with pytest.raises(TypeError) as e:
        no_variables_keyword(x)  # TensorFlow checks it without a tape too
    assert str(e.value) == ("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                            "uses variables: [<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>]")


def test_summary_record_if_a_tensor_condition_inside_a_function(tmp_path):
    @tf.function
    def step(x):
        with tf.summary.record_if(lambda: tf.equal(x % 2, 0)):
            return tf.summary.write("even", tf.cast(x, tf.float32), step=tf.cast(x, tf.int64))

    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        assert [bool(step(tf.constant(i))) for i in range(4)] == [True, False, True, False]


def test_cast_of_sparse_ragged_and_indexed_slices():
    s = tf.cast(tf.sparse.from_dense([[0, 2], [3, 0]]), tf.float32)
    assert isinstance(s, tf.SparseTensor) and s.values.dtype == tf.float32 and s.values.numpy().tolist() == [2.0, 3.0]
    assert str(tf.cast(tf.ragged.constant([[1], [2, 3]]), tf.float32)) == "<tf.RaggedTensor [[1.0], [2.0, 3.0]]>"
    slices = tf.cast(tf.IndexedSlices(tf.constant([[1, 2]]), tf.constant([0]), tf.constant([2, 2])), tf.float64)
    assert type(slices).__name__ == "IndexedSlices" and slices.values.dtype == tf.float64


def test_sparse_reduce_output_is_sparse():
    r = tf.sparse.reorder(tf.sparse.SparseTensor([[0, 3], [2, 1], [1, 0], [2, 3]], [10, 20, 30, 5], [3, 4]))
    out = tf.sparse.reduce_sum(r, axis=0, output_is_sparse=True)
    assert (out.indices.numpy().tolist(), out.values.numpy().tolist(), out.dense_shape.numpy().tolist()) == (
        [[0], [1], [3]], [30, 20, 15], [4])
    kept = tf.sparse.reduce_sum(r, axis=1, keepdims=True, output_is_sparse=True)
    assert (kept.indices.numpy().tolist(), kept.values.numpy().tolist(), kept.dense_shape.numpy().tolist()) == (
        [[0, 0], [1, 0], [2, 0]], [10, 30, 25], [3, 1])
    top = tf.sparse.reduce_max(r, axis=1, output_is_sparse=True)
    assert top.values.numpy().tolist() == [10, 30, 20]


def test_concrete_functions_of_ragged_and_sparse_signatures():
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    def total(x):
        return tf.reduce_sum(x, axis=1)

    assert str(total.get_concrete_function().structured_input_signature) == (
        "((RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64),), {})")

    @tf.function
    def sparse_total(s):
        return tf.sparse.reduce_sum(s)

    concrete = sparse_total.get_concrete_function(tf.SparseTensorSpec([None, 4], tf.int32))
    assert str(concrete.structured_input_signature) == "((SparseTensorSpec(TensorShape([None, 4]), tf.int32),), {})"
    with pytest.raises(TypeError) as e:
        total(tf.ragged.constant([[1.0]]))
    assert str(e.value) == (
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) "
        "to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.RaggedTensor [[1.0]]>,) and "
        "kwargs: {} for signature: (x: RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)).")
    rt = tf.ragged.constant([[1, 2], [], [3]])
    assert str(tf.RaggedTensorSpec.from_value(rt)) == "RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64)"


def test_input_signature_binding_error_names_the_parameters():
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def h(x):
        return x + 1

    with pytest.raises(TypeError) as e:
        h(tf.constant([1.0]))
    assert str(e.value) == (
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) "
        "to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1,), "
        "dtype=float32, numpy=array([1.], dtype=float32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), "
        "dtype=tf.int32, name=None)).")


def test_ragged_stack_gather_and_where():
    rt = tf.RaggedTensor.from_row_lengths([1, 2, 3, 4, 5, 6], row_lengths=[2, 0, 3, 1])
    assert tf.stack([rt, rt], axis=0).shape.as_list() == [2, None, None]
    assert tf.stack([rt, rt], axis=1).to_list() == [[[1, 2], [1, 2]], [[], []], [[3, 4, 5], [3, 4, 5]], [[6], [6]]]
    assert str(tf.gather(rt, [2, 0])) == "<tf.RaggedTensor [[3, 4, 5], [1, 2]]>"
    assert str(tf.where(rt > 2, rt, 0)) == "<tf.RaggedTensor [[0, 0], [], [3, 4, 5], [6]]>"


@pytest.mark.parametrize("make, text", [
    (lambda: tf.RaggedTensor.from_row_lengths([1, 2], [3]),
     "Arguments to _from_row_partition do not form a valid RaggedTensor\nCondition x == y did not hold.\n"
     "First 1 elements of x:\n[3]\nFirst 1 elements of y:\n[2]"),
    (lambda: tf.RaggedTensor.from_row_splits([1, 2], [1, 2]),
     "Arguments to from_row_splits do not form a valid RaggedTensor:zero\nCondition x == y did not hold."),
    (lambda: tf.RaggedTensor.from_row_splits([1, 2], [0, 2, 1, 2]),
     "Arguments to from_row_splits do not form a valid RaggedTensor:monotonic.  \n"
     "Condition x >= 0 did not hold element-wise:"),
    (lambda: tf.RaggedTensor.from_row_lengths([1, 2], [-1, 3]),
     "Arguments to from_row_lengths do not form a valid RowPartition.  \nCondition x >= 0 did not hold element-wise:"),
])
def test_ragged_constructors_validate_their_partition(make, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        make()
    assert str(e.value).startswith(text)
    assert str(tf.RaggedTensor.from_row_lengths([1, 2], [3], validate=False)) == "<tf.RaggedTensor [[1, 2]]>"


def test_sample_from_datasets_draws_tensorflows_choices():
    def drawn(datasets, **kwargs):
        return [int(x) for x in tf.data.Dataset.sample_from_datasets(datasets, **kwargs).as_numpy_iterator()]
    r = tf.data.Dataset.range
    assert drawn([r(0, 5), r(100, 105)], weights=[0.5, 0.5], seed=4) == [0, 100, 1, 2, 101, 102, 103, 3, 104, 4]
    assert drawn([r(0, 3), r(100, 110), r(200, 210)], weights=[0.2, 0.3, 0.5], seed=11, stop_on_empty_dataset=True) \
        == [200, 100, 201, 202, 0, 1, 203, 204, 101, 205, 2, 206, 102]
    assert drawn([r(0, 3), r(100, 103)], seed=7) == [100, 0, 101, 1, 2, 102]
    only = tf.data.Dataset.sample_from_datasets([r(0, 3), r(100, 103)], weights=[0.0, 1.0], seed=7)
    assert repr(only) == "<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"


@pytest.mark.parametrize("n, text", [
    (3, "Input dataset was expected to contain 5 elements but contained only 3 elements."),
    (7, "Input dataset was expected to contain 5 elements but contained at least 6 elements."),
])
def test_assert_cardinality_checks_the_count(n, text):
    ds = tf.data.Dataset.range(n).apply(tf.data.experimental.assert_cardinality(5))
    assert int(ds.cardinality()) == 5
    with pytest.raises(tf.errors.FailedPreconditionError) as e:
        list(ds.as_numpy_iterator())
    assert str(e.value) == ("{{function_node __wrapped__IteratorGetNext_output_types_1_device_/job:localhost/replica:0/"
                            f"task:0/device:CPU:0}}}} {text} [Op:IteratorGetNext] name: ")


def test_snapshot_and_a_loaded_dicts_sorted_keys(tmp_path):
    ds = tf.data.Dataset.range(3).map(lambda x: {"v": x, "sq": x * x})
    assert repr(tf.data.Dataset.range(3).snapshot(str(tmp_path / "s"))) == (
        "<_MapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>")
    assert [int(d["sq"]) for d in ds.snapshot(str(tmp_path / "s2")).as_numpy_iterator()] == [0, 1, 4]
    ds.save(str(tmp_path / "saved"))
    assert list(tf.data.Dataset.load(str(tmp_path / "saved")).element_spec) == ["sq", "v"]


def test_checkpoint_manager_step_counter_and_interval(tmp_path):
    step = tf.Variable(3, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(step=step)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=None, checkpoint_name="model",
                                         step_counter=step, checkpoint_interval=2)
    assert [manager.save(), manager.save(), manager.save(check_interval=False)] == [str(tmp_path / "model-1"), None,
                                                                                    None]
    step.assign(4)
    assert (manager.save(), manager.save(check_interval=False)) == (None, str(tmp_path / "model-2"))
    with pytest.raises(ValueError, match="`step_counter` should be passed if `checkpoint_interval` is not None."):
        tf.train.CheckpointManager(ckpt, str(tmp_path), 1, checkpoint_interval=2)


def test_module_flatten_with_a_predicate():
    m = tf.Module()
    m.v = tf.Variable(3.0)
    m.child = tf.Module(name="kid")
    m.child.u = tf.Variable(4.0)
    assert [float(x.numpy()) for x in m._flatten(predicate=lambda v: isinstance(v, tf.Variable))] == [3.0, 4.0]
    assert [float(x.numpy()) for x in m._flatten(recursive=False, predicate=lambda v: isinstance(v, tf.Variable))] \
        == [3.0]


def test_case_takes_the_last_branch_as_default_and_checks_exclusive_with_tensorflows_assert():
    x = tf.constant(5)
    pairs = [(x > 0, lambda: tf.constant(10)), (x > 1, lambda: tf.constant(20))]
    assert int(tf.case(pairs, exclusive=True)) == 10  # the last branch is the default: one predicate left
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.case(pairs, default=lambda: tf.constant(0), exclusive=True)
    assert str(e.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
                            "b'Input error: exclusive=True: more than 1 conditions (?, ?) evaluated as True:'\nTrue, True")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.case([(x < 0, lambda: tf.constant(10)), (x < 1, lambda: tf.constant(20))])
    assert str(e.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
                            "b'Input error: None of conditions evaluated as True:'\nFalse, False")


def test_while_loop_result_has_the_bodys_structure():
    out = tf.while_loop(lambda k: k < 10, lambda k: [k + 3], [tf.constant(0)], maximum_iterations=2)
    assert type(out) is list and int(out[0]) == 6
    assert type(tf.while_loop(lambda k: k < 10, lambda k: (k + 3,), [tf.constant(0)])) is tuple
    assert type(tf.while_loop(lambda k: k < 0, lambda k: (k + 3,), [tf.constant(0)])) is list


def test_string_table_default_value_is_a_string():
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        [0, 1, 2], ["zero", "one", "two"], key_dtype=tf.int64, value_dtype=tf.string), "?")
    assert table.lookup(tf.constant([2, 5], tf.int64)).numpy().tolist() == [b"two", b"?"]


def test_tnp_promotes_python_scalars_weakly():
    tnp = tf.experimental.numpy
    x = tnp.reshape(tnp.arange(6, dtype=tnp.float32), (2, 3))
    assert tnp.where(x > 2, x, -1.0).dtype == tf.float32 and tnp.clip(x, 1, 4).dtype == tf.float32


@pytest.mark.parametrize("value, summarize, text", [
    (np.arange(12), 3, "[0 1 2 ... 9 10 11]"),
    (np.arange(12), 2, "[0 1 ... 10 11]"),
    (np.arange(12), -1, "[0 1 2 3 4 5 6 7 8 9 10 11]"),
    (np.arange(70).reshape(7, 10), 2, "[[0 1 ... 8 9]\n [10 11 ... 18 19]\n ...\n [50 51 ... 58 59]\n [60 61 ... 68 69]]"),
    (np.arange(8.0).reshape(2, 2, 2), 3, "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"),
    (np.array([1.5, 2.25, -3.0], np.float32), 3, "[1.5 2.25 -3]"),
    (np.array([True, False]), 3, "[1 0]"),
])
def test_strings_format_summarizes_as_tensorflow(value, summarize, text):
    assert tf.strings.format("{}", tf.constant(value), summarize=summarize).numpy().decode() == text


def test_print_summarizes_and_keeps_braces(capsys):
    tf.print(tf.range(12), "{x}", output_stream=sys.stdout)
    tf.print(tf.range(12), summarize=-1, output_stream=sys.stdout)
    assert capsys.readouterr().out == "[0 1 2 ... 9 10 11] {x}\n[0 1 2 3 4 5 6 7 8 9 10 11]\n"


def test_strings_case_with_an_encoding_and_the_slow_path_error():
    assert tf.strings.lower("MiXÉD", encoding="utf-8").numpy() == "mixéd".encode()
    assert tf.strings.lower("ÀB").numpy() == "Àb".encode()  # no encoding: ASCII letters only
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.strings.upper("x", encoding="latin1")
    assert str(e.value) == ("{{function_node __wrapped__StringUpper_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                            "only utf-8 or '' (no encoding) is supported, received latin1 [Op:StringUpper]")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.strings.to_number(["x1"])
    assert str(e.value).endswith("StringToNumberOp could not correctly convert string: x1 [Op:StringToNumber]")


@pytest.mark.parametrize("shapes, text", [
    ([(np.ones([2, 3], "float32"), ("N", "D")), (np.ones([3], "float32"), ("N",))],
     "Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(3,) dtype=float32 dimension 0 must "
     "have size 2.  Received size 3, shape (3,)"),
    ([(np.ones([2, 3], "float32"), (2, 4))],
     "Specified explicitly.  Tensor shape=(2, 3) dtype=float32 dimension 1 must have size 4.  Received size 3, "
     "shape (2, 3)"),
    ([(np.ones([2, 3], "float32"), ("N",))], "Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 3)"),
    ([(np.ones([3], "float32"), (..., "N", "D"))], "Tensor  must have rank at least 2.  Received rank 1, shape (3,)"),
    ([(np.ones([2, 3, 4], "float32"), (..., "D")), (np.ones([5], "float32"), ("D",))],
     "Specified by tensor shape=(2, 3, 4) dtype=float32 dimension -1.  Tensor shape=(5,) dtype=float32 dimension 0 "
     "must have size 4.  Received size 5, shape (5,)"),
    ([(np.ones([2, 3, 4], "float32"), ("...", "D"))], "Tensor  must have rank 2.  Received rank 3, shape (2, 3, 4)"),
    ([(np.ones([2, 3], "float32"), ("N", "D", ...))],
     "Tensor shape=(2, 3) dtype=float32 specified shape index 2.  Symbol `...` or `*` for a variable number of "
     "unspecified dimensions is only allowed as the first entry"),
    ([(np.float32(1.0), ("N",)), (np.ones([2], "float32"), ("N",))],
     "Specified by tensor shape=() dtype=float32 dimension 0.  Tensor shape=(2,) dtype=float32 dimension 0 must have "
     "size 1.  Received size 2, shape (2,)"),
])
def test_assert_shapes_texts(shapes, text):
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_shapes([(tf.constant(x), spec) for x, spec in shapes])
    assert str(e.value) == text
    with pytest.raises(ValueError, match=r"^msg\.  "):
        tf.debugging.assert_shapes([(tf.constant(x), spec) for x, spec in shapes], message="msg")
    assert tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", ".")), (tf.ones([2]), "N")]) is None


@pytest.mark.parametrize("a, b, text", [
    (np.ones([2, 3]), np.ones([2, 1]), "First input (lhs) must be a square matrix."),
    (np.eye(2), np.ones([3, 1]), "Input matrix and rhs are incompatible."),
    (np.eye(2), np.ones([2]), "All input tensors must have the same rank."),
    (np.zeros([2, 2]), np.ones([2, 1]), "Input matrix is not invertible."),
])
def test_matrix_solve_checks_its_inputs(a, b, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.linalg.solve(tf.constant(a, tf.float32), tf.constant(b, tf.float32))
    assert str(e.value) == ("{{function_node __wrapped__MatrixSolve_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                            f"{text} [Op:MatrixSolve] name: ")


def test_var_len_feature_parsed_in_a_function_and_a_dataset_map():
    example = tf.train.Example(features=tf.train.Features(feature={
        "tags": tf.train.Feature(int64_list=tf.train.Int64List(value=[4, 5]))})).SerializeToString()
    shapes = []

    @tf.function
    def tags(record):
        parsed = tf.io.parse_single_example(record, {"tags": tf.io.VarLenFeature(tf.int64)})
        shapes.append(parsed["tags"].shape.as_list())
        return parsed["tags"].values

    assert tags(tf.constant(example)).numpy().tolist() == [4, 5] and shapes == [[None]]
    ds = tf.data.Dataset.from_tensors(example).map(
        lambda r: tf.io.parse_single_example(r, {"tags": tf.io.VarLenFeature(tf.int64)}))
    assert str(ds.element_spec) == "{'tags': SparseTensorSpec(TensorShape([None]), tf.int64)}"
    assert [t["tags"].values.numpy().tolist() for t in ds] == [[4, 5]]
