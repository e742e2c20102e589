"""An op's host arguments (a shape, an axis, a permutation, ``k``) as the ``Const`` nodes TensorFlow
builds for them in graphs (``runtime/graph/host_consts.py``), named as TensorFlow 2.21 names them —
every expected name, input list and placement line below is what TensorFlow 2.21 printed for the
same program (CPU only, ``TF_ENABLE_ONEDNN_OPTS=0``)."""

from __future__ import annotations

import io

import devtrace as tf
from devtrace.terminal.console import attach
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import context, reset_context

v1 = tf.compat.v1
CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def _tf1_graph():
    g = v1.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2, 3], name="x")
        r = tf.reshape(x, [3, 2])
        c = tf.concat([tf.transpose(r), tf.transpose(r)], axis=1)
        s = tf.reduce_sum(c, axis=1)
        m = tf.reduce_mean(c)
        a = tf.argmax(tf.tile(tf.expand_dims(s, 0), [2, 1]), axis=1)
        tf.split(x, 3, axis=1)
        tf.split(x, [1, 2], axis=1)
        tf.math.top_k(s, k=1)
        tf.gather(x, [0, 1], axis=1)
    return g, x, m, a


# TensorFlow 2.21's get_operations() of _tf1_graph: (name, type, inputs)
TF1_OPERATIONS = [
    ("x", "Placeholder", []), ("Reshape/shape", "Const", []), ("Reshape", "Reshape", ["x:0", "Reshape/shape:0"]),
    ("transpose/perm", "Const", []), ("transpose", "Transpose", ["Reshape:0", "transpose/perm:0"]),
    ("transpose_1/perm", "Const", []), ("transpose_1", "Transpose", ["Reshape:0", "transpose_1/perm:0"]),
    ("concat/axis", "Const", []), ("concat", "ConcatV2", ["transpose:0", "transpose_1:0", "concat/axis:0"]),
    ("Sum/reduction_indices", "Const", []), ("Sum", "Sum", ["concat:0", "Sum/reduction_indices:0"]),
    ("Const", "Const", []), ("Mean", "Mean", ["concat:0", "Const:0"]),
    ("ExpandDims/dim", "Const", []), ("ExpandDims", "ExpandDims", ["Sum:0", "ExpandDims/dim:0"]),
    ("Tile/multiples", "Const", []), ("Tile", "Tile", ["ExpandDims:0", "Tile/multiples:0"]),
    ("ArgMax/dimension", "Const", []), ("ArgMax", "ArgMax", ["Tile:0", "ArgMax/dimension:0"]),
    ("split/split_dim", "Const", []), ("split", "Split", ["split/split_dim:0", "x:0"]),
    ("Const_1", "Const", []), ("split_1/split_dim", "Const", []),
    ("split_1", "SplitV", ["x:0", "Const_1:0", "split_1/split_dim:0"]),
    ("TopKV2/k", "Const", []), ("TopKV2", "TopKV2", ["Sum:0", "TopKV2/k:0"]),
    ("GatherV2/indices", "Const", []), ("GatherV2/axis", "Const", []),
    ("GatherV2", "GatherV2", ["x:0", "GatherV2/indices:0", "GatherV2/axis:0"]),
]


def test_a_tf1_graph_holds_the_host_arguments_const_nodes_named_and_wired_as_tensorflows():
    g, _, _, _ = _tf1_graph()
    assert [(op.name, op.type, [t.name for t in op.inputs]) for op in g.get_operations()] == TF1_OPERATIONS
    nodes = {n.name: n for n in g.as_graph_def().node}
    assert nodes["split"].input == ["split/split_dim", "x"]  # Split's OpDef takes split_dim first
    assert nodes["Reshape/shape"].op == "Const"


def test_more_ops_host_arguments_and_zeros_ones_fill_in_a_tf1_graph():
    g = v1.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2, 3], name="x")
        v = v1.placeholder(tf.float32, [], name="v")
        tf.pad(x, [[1, 0], [0, 1]], constant_values=2.0)
        tf.roll(x, 1, 1)
        tf.math.cumsum(x, axis=1)
        tf.math.unsorted_segment_sum(x, [0, 1], 2)
        tf.linalg.band_part(x, 0, -1)
        tf.zeros([2, 2])
        tf.fill([2], v)
        tf.ones([1000, 1])
    # TensorFlow 2.21's get_operations()
    assert [(op.name, op.type, [t.name for t in op.inputs]) for op in g.get_operations()] == [
        ("x", "Placeholder", []), ("v", "Placeholder", []), ("PadV2/paddings", "Const", []),
        ("PadV2/constant_values", "Const", []), ("PadV2", "PadV2", ["x:0", "PadV2/paddings:0", "PadV2/constant_values:0"]),
        ("Roll/shift", "Const", []), ("Roll/axis", "Const", []), ("Roll", "Roll", ["x:0", "Roll/shift:0", "Roll/axis:0"]),
        ("Cumsum/axis", "Const", []), ("Cumsum", "Cumsum", ["x:0", "Cumsum/axis:0"]),
        ("UnsortedSegmentSum/segment_ids", "Const", []), ("UnsortedSegmentSum/num_segments", "Const", []),
        ("UnsortedSegmentSum", "UnsortedSegmentSum",
         ["x:0", "UnsortedSegmentSum/segment_ids:0", "UnsortedSegmentSum/num_segments:0"]),
        ("MatrixBandPart/num_lower", "Const", []), ("MatrixBandPart/num_upper", "Const", []),
        ("MatrixBandPart", "MatrixBandPart", ["x:0", "MatrixBandPart/num_lower:0", "MatrixBandPart/num_upper:0"]),
        ("zeros", "Const", []), ("Fill/dims", "Const", []), ("Fill", "Fill", ["Fill/dims:0", "v:0"]),
        ("ones/shape_as_tensor", "Const", []), ("ones/Const", "Const", []),
        ("ones", "Fill", ["ones/shape_as_tensor:0", "ones/Const:0"])]
    ops = {op.name: op for op in g.get_operations()}
    assert ops["PadV2/constant_values"].get_attr("value").dtype.name == "float32"  # the op's T
    assert ops["MatrixBandPart/num_lower"].get_attr("value").dtype.name == "int32"  # its Tindex, inferred


def test_slicing_and_one_hot_in_a_tf1_graph():
    g = v1.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [4, 3], name="x")
        x[1:3]
        tf.strided_slice(x, [0, 0], [2, 2], [1, 1])
        tf.one_hot([0, 2], 3)
    # TensorFlow 2.21's get_operations(): _slice_helper stacks begin, end and strides as Consts
    assert [(op.name, op.type, [t.name for t in op.inputs]) for op in g.get_operations()] == [
        ("x", "Placeholder", []), ("strided_slice/stack", "Const", []), ("strided_slice/stack_1", "Const", []),
        ("strided_slice/stack_2", "Const", []),
        ("strided_slice", "StridedSlice", ["x:0", "strided_slice/stack:0", "strided_slice/stack_1:0",
                                           "strided_slice/stack_2:0"]),
        ("StridedSlice/begin", "Const", []), ("StridedSlice/end", "Const", []), ("StridedSlice/strides", "Const", []),
        ("StridedSlice", "StridedSlice", ["x:0", "StridedSlice/begin:0", "StridedSlice/end:0",
                                          "StridedSlice/strides:0"]),
        ("one_hot/on_value", "Const", []), ("one_hot/off_value", "Const", []), ("one_hot/indices", "Const", []),
        ("one_hot/depth", "Const", []),
        ("one_hot", "OneHot", ["one_hot/indices:0", "one_hot/depth:0", "one_hot/on_value:0", "one_hot/off_value:0"])]


def test_random_ops_in_a_function_graph():
    @tf.function
    def draws():
        return tf.random.uniform([2, 2], seed=1), tf.random.normal([2], 1.0, 2.0, seed=4)

    names = [(op.name, op.type) for op in draws.get_concrete_function().graph.get_operations()]
    # TensorFlow 2.21's nodes: each distribution's name scope, its shape and parameters as Consts
    assert names[:8] == [("random_uniform/shape", "Const"), ("random_uniform/RandomUniform", "RandomUniform"),
                         ("random_normal/shape", "Const"), ("random_normal/mean", "Const"),
                         ("random_normal/stddev", "Const"),
                         ("random_normal/RandomStandardNormal", "RandomStandardNormal"),
                         ("random_normal/mul", "Mul"), ("random_normal", "AddV2")]


def test_ops_whose_python_opens_a_scope_around_them():
    g = v1.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2, 3], name="x")
        i = v1.placeholder(tf.int32, [2], name="i")
        tf.math.in_top_k(i, x, 1)
        tf.math.cumulative_logsumexp(x, axis=1)
        tf.random.categorical(x, 2, seed=1)
    # TensorFlow 2.21's get_operations()
    assert [(op.name, [t.name for t in op.inputs]) for op in g.get_operations()] == [
        ("x", []), ("i", []), ("in_top_k/InTopKV2/k", []), ("in_top_k/InTopKV2", ["x:0", "i:0", "in_top_k/InTopKV2/k:0"]),
        ("CumulativeLogsumexp/axis", []), ("CumulativeLogsumexp", ["x:0", "CumulativeLogsumexp/axis:0"]),
        ("categorical/Multinomial/num_samples", []),
        ("categorical/Multinomial", ["x:0", "categorical/Multinomial/num_samples:0"])]


def test_the_host_argument_consts_hold_tensorflows_values_and_dtypes():
    g, _, _, _ = _tf1_graph()
    values = {op.name: op.get_attr("value") for op in g.get_operations() if op.type == "Const"}
    assert values["Reshape/shape"].tolist() == [3, 2] and values["Reshape/shape"].dtype.name == "int32"
    assert values["Const"].tolist() == [0, 1]  # reduce_mean without an axis: every axis, before its scope
    assert values["Const_1"].tolist() == [1, 2]  # tf.split's sizes, converted before the op's scope
    assert values["TopKV2/k"].tolist() == 1


def test_a_tf1_session_runs_the_graph_and_logs_the_consts_placement():
    g, x, m, a = _tf1_graph()
    reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), (), (), "cpu"), env={})
    err = io.StringIO()
    attach(context(), err)
    with v1.Session(graph=g, config=v1.ConfigProto(log_device_placement=True)) as sess:
        mean, argmax = sess.run([m, a], {x: [[1, 2, 3], [4, 5, 6]]})
    assert float(mean) == 3.5 and argmax.tolist() == [1, 1]
    logged = [line for line in err.getvalue().splitlines() if ": (Const): " in line]
    # TensorFlow's placer logs the generators last, in creation order
    assert logged[:6] == [f"{name}: (Const): {CPU}" for name in (
        "Reshape/shape", "transpose/perm", "transpose_1/perm", "concat/axis", "Sum/reduction_indices", "Const")]
    assert len(logged) == sum(1 for _, op_type, _ in TF1_OPERATIONS if op_type == "Const")


def _training_step():
    w = tf.Variable([[0.5], [-0.25]])
    b = tf.Variable(0.0)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.05 * gw)
        b.assign_sub(0.05 * gb)
        return loss

    return train_step, tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([[1.0], [2.0], [3.0]])


def test_a_functions_gradient_builds_tensorflows_shape_and_constant_nodes():
    train_step, x, y = _training_step()
    graph = train_step.get_concrete_function(x, y).graph
    consts = [op.name for op in graph.get_operations() if op.type == "Const"]
    # tests/tf221/captures/function_training_step_log.stdout: TensorFlow's Const nodes, in creation order
    assert consts == ["Const", "ones", "gradient_tape/Reshape/shape", "gradient_tape/Const", "gradient_tape/Const_1",
                      "gradient_tape/Const_2", "gradient_tape/add/Shape", "gradient_tape/add/Shape_1",
                      "gradient_tape/add/Sum/reduction_indices", "mul/x", "mul_1/x"]
    ops = {op.name: op for op in graph.get_operations()}
    # a variable's handle is captured in the scope of the op that first uses it, as TensorFlow names it
    assert ops["MatMul/ReadVariableOp/resource"].type == "Placeholder"
    assert [t.name for t in ops["gradient_tape/add/Reshape"].inputs] == ["gradient_tape/add/Sum:0",
                                                                           "gradient_tape/add/Shape_1:0"]
    assert [t.name for t in ops["gradient_tape/Tile"].inputs] == ["gradient_tape/Reshape:0", "gradient_tape/Const:0"]
    assert float(train_step(x, y)) == 2.4166667461395264  # the values are TensorFlow's


def test_eager_ops_build_no_nodes_and_keep_their_attrs():
    out = tf.reshape(tf.range(6), [2, 3])
    assert out.shape == (2, 3)
    assert not hasattr(out, "_op")


def test_on_a_simulated_gpu_the_consts_are_placed_there_and_int32_ones_stay_off_its_allocator(capsys):
    """TensorFlow's GPU Const kernel for int32 is HostConstantOp: placed on the GPU, its tensor in
    host memory. A reshape's function allocates on the GPU what an identity's does."""
    gpus = tuple(simulated.parse_simulate("1"))
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated"), env={})
    attach(ctx, io.StringIO())
    tf.debugging.set_log_device_placement(True)
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    gpu = ctx.devices[1].allocator

    def allocations(fn):
        fn(x)  # traced and placed
        before = gpu.num_allocs
        fn(x)
        return gpu.num_allocs - before

    reshaped = tf.function(lambda v: tf.reshape(v, [2, 2]))
    same = tf.function(lambda v: tf.identity(v))
    assert allocations(reshaped) == allocations(same)
    printed = capsys.readouterr().out.splitlines()  # the placer's printf lines
    assert "Reshape/shape: (Const): /job:localhost/replica:0/task:0/device:GPU:0" in printed
