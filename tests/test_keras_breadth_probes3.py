"""Keras 3 / TensorFlow 2.21 behaviour that helper h-kio6's probes p77–p88 (/work/helpers/kio/probes)
found devtrace lacking: each expected value is what TensorFlow 2.21 with Keras 3.15 printed running
the same lines (``/work/tfvenv/bin/python``, the probe's output in out/tf/)."""

import numpy as np

import devtrace as tf

keras = tf.keras
ops = keras.ops
layers = keras.layers


def _np(x):
    return ops.convert_to_numpy(x)


class _MinimalRNNCell(layers.Layer):
    """keras.io's custom cell: ``states[0]`` is the previous output (Keras passes a list)."""

    def __init__(self, units, **kw):
        super().__init__(**kw)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="identity",
                                                name="recurrent_kernel")

    def call(self, inputs, states):
        h = ops.matmul(inputs, self.kernel) * 0.1 + ops.matmul(states[0], self.recurrent_kernel) * 0.5
        return h, [h]


def test_a_custom_cell_with_an_int_state_size_gets_its_states_as_a_list():
    x = np.arange(24, dtype="float32").reshape(2, 4, 3) / 10
    seq, state = layers.RNN(_MinimalRNNCell(2), return_sequences=True, return_state=True)(x)
    assert np.allclose(_np(seq)[:, :, 0], [[0.03, 0.135, 0.2775, 0.4388], [0.39, 0.675, 0.9075, 1.1138]], atol=1e-4)
    assert np.allclose(_np(state)[:, 1], [0.4388, 1.1138], atol=1e-4)
    back = layers.RNN(_MinimalRNNCell(2), go_backwards=True)(x)
    assert np.allclose(_np(back)[:, 0], [0.18, 0.855], atol=1e-4)
    stacked = layers.RNN([_MinimalRNNCell(2), _MinimalRNNCell(2)])(x)
    assert tuple(stacked.shape) == (2, 2)


def test_eager_name_scopes_take_any_name_graphs_check_root_and_nested_names():
    with tf.name_scope("__foo") as scope:
        assert (scope, tf.Variable(1.0, name="v").name) == ("__foo/", "__foo/v:0")
    with tf.name_scope("a b") as scope:
        assert scope == "a b/"
    with tf.Graph().as_default():
        try:
            with tf.name_scope("_x"):
                raise AssertionError("no error")
        except ValueError as e:
            assert str(e) == ("'_x' is not a valid root scope name. A root scope name has to match the following "
                              "pattern: ^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$")
        with tf.name_scope("outer"):
            with tf.name_scope("_inner") as scope:
                assert scope == "outer/_inner/"
            try:
                with tf.name_scope("a b"):
                    raise AssertionError("no error")
            except ValueError as e:
                assert str(e) == ("'a b' is not a valid scope name. A scope name has to match the following "
                                  "pattern: ^[A-Za-z0-9_.\\\\/>-]*$")


def test_a_layer_class_with_a_leading_underscore_is_named_and_called_like_keras():
    class _Foo(layers.Layer):
        def call(self, x):
            return x * 2

    layer = _Foo()
    assert layer.name == "__foo"
    assert _np(layer(ops.ones((1, 2)))).tolist() == [[2.0, 2.0]]
