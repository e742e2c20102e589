"""A tf.function traced with an unknown (None) dimension builds its gradients as TensorFlow 2.21 does:
from the inputs' shapes when it runs (``Shape``, ``BroadcastGradientArgs``, a full reduction's
``Tile``, a ``Mean``'s ``GatherV2``/``Prod``), the values TensorFlow's. Expected values: TensorFlow 2.21's."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.ops.array.broadcast_grad import broadcast_gradient_args

# TensorFlow 2.21's gradient nodes (``gradient_tape/`` dropped) of ``_broadcasting_loss``'s function
TF_NODES = [
    ("Reshape/shape", "Const"), ("Reshape", "Reshape"), ("Shape", "Shape"), ("Tile", "Tile"),
    ("Shape_1", "Shape"), ("Size", "Const"), ("add", "AddV2"), ("mod", "FloorMod"), ("GatherV2/axis", "Const"),
    ("GatherV2", "GatherV2"), ("Const", "Const"), ("Prod", "Prod"), ("Cast", "Cast"), ("truediv", "RealDiv"),
    ("truediv/RealDiv", "RealDiv"), ("truediv/Neg", "Neg"), ("truediv/RealDiv_1", "RealDiv"),
    ("truediv/RealDiv_2", "RealDiv"), ("truediv/mul", "Mul"), ("truediv/Shape", "Shape"),
    ("truediv/Shape_1", "Shape"), ("truediv/BroadcastGradientArgs", "BroadcastGradientArgs"),
    ("truediv/Sum", "Sum"), ("truediv/Reshape", "Reshape"), ("truediv/Sum_1", "Sum"),
    ("truediv/Reshape_1", "Reshape"), ("mul/Mul", "Mul"), ("mul/Mul_1", "Mul"), ("mul/Shape", "Shape"),
    ("mul/Shape_1", "Shape"), ("mul/BroadcastGradientArgs", "BroadcastGradientArgs"), ("mul/Sum", "Sum"),
    ("mul/Reshape", "Reshape"), ("mul/Sum_1", "Sum"), ("mul/Reshape_1", "Reshape"), ("sub/Neg", "Neg"),
    ("sub/Shape", "Shape"), ("sub/Shape_1", "Shape"), ("sub/BroadcastGradientArgs", "BroadcastGradientArgs"),
    ("sub/Sum", "Sum"), ("sub/Reshape", "Reshape"), ("sub/Sum_1", "Sum"), ("sub/Reshape_1", "Reshape"),
    ("add/Shape", "Shape"), ("add/Shape_1", "Shape"), ("add/BroadcastGradientArgs", "BroadcastGradientArgs"),
    ("add/Sum", "Sum"), ("add/Reshape", "Reshape"), ("add/Sum_1", "Sum"), ("add/Reshape_1", "Reshape"),
]


def _broadcasting_loss():
    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None, 1])])
    def f(x, c):
        with tf.GradientTape() as tape:
            tape.watch([x, c])
            loss = tf.reduce_mean((x - c) * (x + c) / (c + 2.0))
        return tape.gradient(loss, [x, c])
    return f


def test_unknown_batch_gradient_nodes_are_tensorflows():
    f = _broadcasting_loss()
    graph = f.get_concrete_function().graph
    nodes = [(o.name[len("gradient_tape/"):], o.type) for o in graph.get_operations()
             if o.name.startswith("gradient_tape/")]
    assert nodes == TF_NODES


def test_unknown_batch_gradient_values_are_tensorflows():
    gx, gc = _broadcasting_loss()(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant([[1.0], [-1.0]]))
    np.testing.assert_allclose(gx.numpy(), [[0.11111111, 0.22222222, 0.33333334], [1.3333334, 1.6666667, 2.0]],
                               rtol=1e-6)
    np.testing.assert_allclose(gc.numpy(), [[-0.537037], [-11.333334]], rtol=1e-6)


def test_unknown_batch_gradient_follows_each_calls_batch():
    f = _broadcasting_loss()
    for n in (1, 4):
        x, c = tf.ones([n, 3]), tf.ones([n, 1])
        gx, gc = f(x, c)
        assert gx.shape == (n, 3) and gc.shape == (n, 1)


@pytest.mark.parametrize("s0, s1, r0, r1", [
    ([2, 1], [2, 1], [], []), ([1], [1], [], []), ([2, 3], [3], [], [0]), ([1, 3], [2, 1], [0], [1]),
    ([], [2, 3], [0, 1], []), ([1, 1], [1], [0, 1], [0, 1]), ([5, 1, 3], [1, 4, 1], [1], [0, 2]),
    ([0, 3], [1, 3], [], [0]),
])
def test_broadcast_gradient_args(s0, s1, r0, r1):
    out = broadcast_gradient_args(tf.constant(s0, tf.int32), tf.constant(s1, tf.int32))
    assert [t.numpy().tolist() for t in out] == [r0, r1]
    assert out[0].dtype == tf.int32


def test_broadcast_gradient_args_int64_and_incompatible_shapes():
    assert broadcast_gradient_args(tf.constant([2, 3], tf.int64), tf.constant([3], tf.int64))[0].dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\] "
                                                             r"\[Op:BroadcastGradientArgs\]"):
        broadcast_gradient_args(tf.constant([2]), tf.constant([3]))


# TensorFlow 2.21's gradient nodes of an ExpandDims of a [None, 2] input and a Reshape of an unknown-rank one
TF_RESHAPE_NODES = [
    ("Reshape/shape", "Const"), ("Reshape", "Reshape"), ("Shape", "Shape"), ("Tile", "Tile"),
    ("Reshape_1/shape", "Const"), ("Reshape_1", "Reshape"), ("Shape_1", "Shape"), ("Tile_1", "Tile"),
    ("mul/Mul", "Mul"), ("Shape_2", "Shape"), ("Reshape_2", "Reshape"), ("Shape_3", "Shape"),
    ("Reshape_3", "Reshape"),
]


def test_reshape_and_expand_dims_gradients_of_unknown_shapes():
    @tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec(None)])
    def f(x, z):
        with tf.GradientTape() as tape:
            tape.watch([x, z])
            y = tf.reduce_sum(tf.expand_dims(x, 0) * 3.0) + tf.reduce_sum(tf.reshape(z, [2, -1]))
        return tape.gradient(y, [x, z])
    gx, gz = f(tf.constant([[1.0, 2.0], [4.0, 5.0]]), tf.constant([1.0, 2.0]))
    assert gx.numpy().tolist() == [[3.0, 3.0], [3.0, 3.0]] and gz.numpy().tolist() == [1.0, 1.0]
    nodes = [(o.name[len("gradient_tape/"):], o.type) for o in f.get_concrete_function().graph.get_operations()
             if o.name.startswith("gradient_tape/")]
    assert nodes == TF_RESHAPE_NODES


# TensorFlow 2.21's nodes of ``_shape_tensors``'s function
TF_SHAPE_TENSOR_NODES = [
    ("x", "Placeholder"), ("y", "Placeholder"), ("Shape", "Shape"), ("Shape_1", "Shape"), ("Const", "Const"),
    ("Const_1", "Const"), ("mul/y", "Const"), ("mul", "Mul"), ("Sum", "Sum"), ("Reshape", "Reshape"),
    ("Const_2", "Const"), ("Sum_1", "Sum"), ("Reshape_1/shape", "Const"), ("Reshape_1", "Reshape"),
    ("Tile", "Tile"), ("Size", "Const"), ("Const_3", "Const"), ("add", "AddV2"), ("mod", "FloorMod"),
    ("GatherV2/axis", "Const"), ("GatherV2", "GatherV2"), ("Const_4", "Const"), ("Prod", "Prod"),
    ("Identity", "Identity"), ("Identity_1", "Identity"), ("Identity_2", "Identity"),
    ("Identity_3", "Identity"), ("Identity_4", "Identity"),
]


def _shape_tensors():
    @tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([None, 1])])
    def f(x, y):
        sx, sy = tf.shape(x), tf.shape(y)
        rx, ry = tf.constant([], tf.int32), tf.constant([1])
        g = x * 2.0
        a = tf.reshape(tf.reduce_sum(g, ry, keepdims=True), sy)
        t = tf.tile(tf.reshape(tf.reduce_sum(g), [1, 1]), sx)
        r = tf.size(sx)
        axes = (tf.constant([0, 1]) + r) % r
        p = tf.reduce_prod(tf.gather(sx, axes))
        return a, t, p, rx, ry
    return f


def test_shape_tensors_as_host_arguments_in_a_function():
    """A reshape/tile/reduction given graph tensors (a Shape, a Const) takes them as its inputs; the
    kernels read their values when the function runs."""
    f = _shape_tensors()
    a, t, p, rx, ry = f(tf.ones([3, 2]), tf.ones([3, 1]))
    assert a.numpy().tolist() == [[4.0]] * 3 and t.numpy().tolist() == [[12.0, 12.0]] * 3 and int(p) == 6
    assert rx.numpy().tolist() == [] and ry.numpy().tolist() == [1]
    concrete = f.get_concrete_function()
    assert [(o.name, o.type) for o in concrete.graph.get_operations()] == TF_SHAPE_TENSOR_NODES
    assert [o.shape.as_list() for o in concrete.structured_outputs[:3]] == [[None, 1], [None, 2], []]


# TensorFlow 2.21's gradient nodes of broadcasting ops on an input of unknown rank
TF_UNKNOWN_RANK_NODES = [
    ("mul/Mul", "Mul"), ("mul/Mul_1", "Mul"), ("mul/Shape", "Shape"), ("mul/Shape_1", "Shape"),
    ("mul/BroadcastGradientArgs", "BroadcastGradientArgs"), ("mul/Sum", "Sum"), ("mul/Reshape", "Reshape"),
    ("mul/Sum_1", "Sum"), ("mul/Reshape_1", "Reshape"), ("add/Shape", "Shape"), ("add/Shape_1", "Const"),
    ("add/BroadcastGradientArgs", "BroadcastGradientArgs"), ("add/Sum", "Sum"), ("add/Reshape", "Reshape"),
    ("add/Sum_1", "Sum"), ("add/Reshape_1", "Reshape"),
]


def test_broadcast_gradients_of_an_unknown_rank():
    @tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec([3])])
    def f(x, z):
        with tf.GradientTape() as tape:
            tape.watch([x, z])
            y = (x + z) * x
        return tape.gradient(y, [x, z])
    gx, gz = f(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant([1.0, 2.0, 3.0]))
    assert gx.numpy().tolist() == [[3.0, 6.0, 9.0], [9.0, 12.0, 15.0]] and gz.numpy().tolist() == [5.0, 7.0, 9.0]
    nodes = [(o.name[len("gradient_tape/"):], o.type) for o in f.get_concrete_function().graph.get_operations()
             if o.name.startswith("gradient_tape/")]
    assert nodes == TF_UNKNOWN_RANK_NODES


def test_shape_tensor_host_argument_in_a_session():
    """A TF1 graph: the Reshape's shape is a Shape node, read when the session runs it."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2])
        y = tf.compat.v1.placeholder(tf.float32, [None, None])
        out = tf.reshape(tf.reduce_sum(x, 1), tf.shape(y))
        assert out.shape.as_list() == [None, None]
        with tf.compat.v1.Session() as sess:
            got = sess.run(out, {x: np.ones([3, 2], np.float32), y: np.ones([3, 1], np.float32)})
    assert got.tolist() == [[2.0], [2.0], [2.0]]
