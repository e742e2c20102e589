"""Keras 3's recurrent layers on devtrace (SimpleRNN, LSTM, GRU, their cells, RNN over a cell or a
stack of cells, Bidirectional, TimeDistributed): the same weights give Keras 3.15's outputs
(tests/keras_layers/captures/recurrent.json, captured with TensorFlow 2.21 by
tests/keras_layers/capture_recurrent.py), the weights have Keras's paths and shapes, masks and
initial states act as Keras's, and an LSTM runs the ops TensorFlow runs eagerly on a CPU
(captures/lstm_ops.txt, by capture_recurrent_ops.py)."""

import json
import pathlib
import re
import sys

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices.discovery import discover
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

HERE = pathlib.Path(__file__).resolve().parent / "keras_layers"
sys.path.insert(0, str(HERE))
from recurrent_cases import CASES, inputs_for, weights_for  # noqa: E402

CAPTURED = json.loads((HERE / "captures" / "recurrent.json").read_text())["cases"]
keras = tf.keras


def _short(path):
    """A weight's path without the numbers auto-naming appends (``bidirectional_3/forward_lstm_12/…``)."""
    return re.sub(r"_\d+(?=/|$)", "", path)


def _as_array(value):
    return np.asarray([np.asarray(v) for v in value]) if isinstance(value, list) else np.asarray(value)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_same_weights_give_keras_outputs(case):
    want = CAPTURED[case["id"]]
    layer = eval(case["layer"], {"keras": keras})  # noqa: S307 (the case table)
    x = inputs_for(case)
    kwargs = {}
    if "mask" in case:
        kwargs["mask"] = np.array(case["mask"], bool)
    if case.get("initial_state"):
        kwargs["initial_state"] = [np.full((case["shape"][0], n), 0.5, "float32") for n in case["initial_state"]]
    layer(x, **kwargs)
    assert [(_short(w.path), list(w.shape)) for w in layer.weights] == [(_short(p), s) for p, s in want["weights"]]
    layer.set_weights(weights_for(case, [tuple(s) for _, s in want["weights"]]))
    out = layer(x, **kwargs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    assert len(outs) == len(want["outputs"])
    for got, expected in zip(outs, want["outputs"]):
        np.testing.assert_allclose(_as_array(got), np.array(expected), atol=1e-5)


def test_orthogonal_initializer_draws_keras_values():
    ortho = keras.initializers.Orthogonal
    np.testing.assert_allclose(ortho(seed=3)((3, 5)).numpy(), CAPTURED["orthogonal_seed3_3x5"], atol=1e-6)
    np.testing.assert_allclose(ortho(gain=2.0, seed=7)((6, 4)).numpy(), CAPTURED["orthogonal_seed7_6x4_gain2"],
                               atol=1e-6)


def _loop_body(ops):
    """The ops between the steps' ``Unpack`` and the outputs' ``Pack``, without the loop's own
    counter ops (TensorFlow's ``Range``, ``Max``, ``Less``, ``LogicalAnd`` and the ``AddV2`` that
    steps the counter) and TensorFlow's first, probing step (its output's shape and dtype)."""
    body = ops[ops.index("Unpack") + 1:ops.index("Pack")]
    if "Range" in body:  # TensorFlow: constants, the probe step on input[0], then the loop
        body = body[body.index("Range"):]
    out, i = [], 0
    while i < len(body):
        if body[i:i + 3] == ["AddV2", "Less", "LogicalAnd"]:
            i += 3
            continue
        if body[i] in ("Range", "Max", "Less", "LogicalAnd", "_EagerConst", "StridedSlice"):
            i += 1
            continue
        out.append(body[i])
        i += 1
    return out


def test_an_lstm_runs_the_ops_tensorflow_runs_for_it():
    tf_ops = (HERE / "captures" / "lstm_ops.txt").read_text().split()
    ctx = reset_context(discover(simulate="1"), env={})
    layer = keras.layers.LSTM(3, use_cudnn=False)  # on a GPU the default runs cuDNN (tests/test_keras_cudnn.py)
    x = np.ones((2, 4, 5), "float32")
    layer(x)
    start = len(ctx.trace.events)
    layer(x)
    ops = [e.op for e in ctx.trace.events[start:] if isinstance(e, ev.OpPlaced)]
    step = ["ReadVariableOp", "MatMul", "ReadVariableOp", "MatMul", "AddV2", "ReadVariableOp", "BiasAdd", "Split",
            "Sigmoid", "Sigmoid", "Mul", "Tanh", "Mul", "AddV2", "Sigmoid", "Tanh", "Mul"]
    assert _loop_body(ops) == _loop_body(tf_ops) == step * 4
    assert [o for o in ops[ops.index("Pack"):] if o != "_EagerConst"] == \
        [o for o in tf_ops[tf_ops.index("Pack"):] if o != "_EagerConst"] == ["Pack", "StridedSlice", "Transpose"]
    assert ops[ops.index("Unpack") - 1] == "Transpose"


def test_embedding_mask_zero_masks_the_lstm_as_an_explicit_mask_does():
    ids = np.array([[3, 1, 4, 0, 0], [2, 7, 0, 0, 0]])
    embed = keras.layers.Embedding(10, 4, mask_zero=True)
    lstm = keras.layers.LSTM(3, return_sequences=True)
    seq = lstm(embed(ids))
    explicit = lstm(embed.embeddings.numpy()[ids], mask=ids != 0)
    np.testing.assert_allclose(seq.numpy(), explicit.numpy(), atol=1e-6)
    np.testing.assert_array_equal(seq.numpy()[0, 3], seq.numpy()[0, 2])  # a masked step repeats the last output


def test_a_seq2seq_model_passes_encoder_states_as_the_decoders_initial_state():
    enc_in, dec_in = keras.Input((None, 3)), keras.Input((None, 3))
    _, h, c = keras.layers.LSTM(4, return_state=True)(enc_in)
    assert [t.shape for t in (h, c)] == [(None, 4), (None, 4)]
    dec = keras.layers.LSTM(4, return_sequences=True)(dec_in, initial_state=[h, c])
    out = keras.layers.TimeDistributed(keras.layers.Dense(3, activation="softmax"))(dec)
    model = keras.Model([enc_in, dec_in], out)
    a = np.random.RandomState(0).rand(4, 5, 3).astype("float32")
    enc, dec_layer, td = model.layers[-3], model.layers[-2], model.layers[-1]
    _, h1, c1 = enc(a)
    np.testing.assert_allclose(model([a, a]).numpy(), td(dec_layer(a, initial_state=[h1, c1])).numpy(), atol=1e-6)
    model.compile("rmsprop", "categorical_crossentropy")
    history = model.fit([a, a], a, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_stateful_lstm_carries_its_state_until_reset():
    layer = keras.layers.LSTM(2, stateful=True)
    x = np.ones((1, 3, 2), "float32")
    first, second = layer(x).numpy(), layer(x).numpy()
    assert not np.allclose(first, second)
    layer.reset_states()
    np.testing.assert_allclose(layer(x).numpy(), first, atol=1e-7)


def test_rnn_errors_are_keras_texts():
    with pytest.raises(ValueError, match="^Argument `cell` should have a `call` method"):
        keras.layers.RNN(object())
    with pytest.raises(ValueError, match="^Invalid merge mode. Received: max"):
        keras.layers.Bidirectional(keras.layers.LSTM(2), merge_mode="max")
    with pytest.raises(NotImplementedError, match=r"keras.layers.LSTM\(activity_regularizer=...\)"):
        keras.layers.LSTM(2, activity_regularizer="l2")
