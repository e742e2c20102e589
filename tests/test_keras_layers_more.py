"""Keras 3's convolutions past Conv1D/Conv2D, attention layers and smaller layers on devtrace: the
same weights give Keras 3.15's outputs (and gradients, for the convolutions devtrace added ops for) (tests/keras_layers/captures/layers.json, captured with
TensorFlow 2.21 by tests/keras_layers/capture_layers.py from the cases in layer_cases.py), with
Keras's weight paths and shapes."""

import json
import pathlib
import re
import sys

import numpy as np
import pytest

import devtrace as tf
from devtrace.keras import engine

HERE = pathlib.Path(__file__).resolve().parent / "keras_layers"
sys.path.insert(0, str(HERE))
from layer_cases import CASES, call, gradients, inputs_for, weights_for  # noqa: E402

CAPTURED = json.loads((HERE / "captures" / "layers.json").read_text())["cases"]
keras = tf.keras


def _short(path):
    """A weight's path past its layer's own name, without the numbers auto-naming appends
    (``sequential_3/lstm_9/lstm_cell/kernel``: ``lstm/lstm_cell/kernel``)."""
    rest = path.split("/", 1)[1] if "/" in path else path
    return re.sub(r"_\d+(?=/|$)", "", rest)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_same_weights_give_keras_outputs(case):
    want = CAPTURED[case["id"]]
    layer = eval(case["layer"], {"keras": keras})  # noqa: S307 (the case table)
    xs = inputs_for(case)
    call(layer, case, xs, np)
    assert [(_short(w.path), list(w.shape)) for w in layer.weights] == \
        [(_short(p), s) for p, s in want["weights"]]
    layer.set_weights(weights_for(case, [tuple(s) for _, s in want["weights"]]))
    out = gradients(tf, layer, case, xs, np) if case.get("grad") else call(layer, case, xs, np)
    outs = out if isinstance(out, (list, tuple)) else [out]
    assert len(outs) == len(want["outputs"])
    for got, expected in zip(outs, want["outputs"]):
        np.testing.assert_allclose(np.asarray(got), np.array(expected), rtol=1e-5, atol=1e-5)


def test_symbolic_shapes_are_keras():
    assert keras.layers.Conv2DTranspose(32, 2, 2)(keras.Input((10, 8, 128))).shape == (None, 20, 16, 32)
    assert keras.layers.EinsumDense("ab,bc->ac", output_shape=64, bias_axes="c")(keras.Input((32,))).shape == \
        (None, 64)
    assert keras.layers.EinsumDense("...x,xy->...y", 64, bias_axes="y")(keras.Input((32, 128))).shape == \
        (None, 32, 64)
    assert keras.layers.Cropping2D(((1, 1), (2, 2)))(keras.Input((28, 28, 3))).shape == (None, 26, 24, 3)
    assert keras.layers.ZeroPadding1D(2)(keras.Input((5, 3))).shape == (None, 9, 3)


def test_a_transformer_block_builds_and_trains_functionally():
    x = keras.Input((5, 8))
    attn = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)(x, x)
    y = keras.layers.LayerNormalization(epsilon=1e-6)(keras.layers.Add()([x, attn]))
    out = keras.layers.Dense(2)(keras.layers.GlobalAveragePooling1D()(y))
    model = keras.Model(x, out)
    assert model.count_params() == 4 * (8 * 8 + 8) + 16 + 18
    model.compile("adam", "mse")
    data = np.random.RandomState(0).rand(4, 5, 8).astype("float32")
    history = model.fit(data, np.zeros((4, 2), "float32"), epochs=2, verbose=0)
    assert history.history["loss"][1] < history.history["loss"][0]


def test_operators_on_keras_tensors_make_keras_operation_nodes(capsys):
    """``h + x``, ``y[:, 0] * 2.0``, ``-z``: Keras's summary (captures/operators_summary.txt, by
    capture_operators.py), and the model computes what the same ops compute eagerly."""
    from capture_operators import build

    saved = dict(engine._UIDS)
    engine._UIDS.clear()  # names as in a fresh process (Keras's clear_session)
    try:
        model = build(keras)
    finally:
        engine._UIDS.clear()
        engine._UIDS.update(saved)
    model.summary()
    assert capsys.readouterr().out == (HERE / "captures" / "operators_summary.txt").read_text()
    x = np.random.RandomState(0).rand(2, 10, 4).astype("float32")
    dense = model.layers[1]
    np.testing.assert_allclose(model(x).numpy(), (-((dense(x) + x)[:, 0] * 2.0)).numpy(), atol=1e-6)
