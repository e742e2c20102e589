"""Keras 3's LSTM and GRU on a GPU (issue 29): the TensorFlow backend runs one ``CudnnRNNV3`` op when
the layer's configuration allows cuDNN (``keras/src/backend/tensorflow/rnn.py``: tanh and sigmoid, a
bias, no recurrent dropout, not unrolled, a GRU with ``reset_after``), its weights packed into cuDNN's
``params`` by the ops Keras runs; the values and gradients are the per-step loop's (which
tests/test_keras_recurrent.py holds to Keras 3.15's values), and the gradient op is
``CudnnRNNBackpropV3``. TensorFlow's CPU oracle cannot run these GPU-only ops, so the ops are read
from Keras's source."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices.discovery import discover
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

keras = tf.keras
X = np.random.default_rng(0).normal(size=(3, 5, 4)).astype("float32")


@pytest.fixture
def gpu():
    ctx = reset_context(discover(simulate="1"), env={})
    yield ctx
    reset_context(discover(), env={})


def _ops(ctx, start):
    return [(e.op, e.device.rsplit(":", 2)[-2][-3:]) for e in ctx.trace.events[start:] if isinstance(e, ev.OpPlaced)]


def _weights(layer):
    layer.set_weights([np.linspace(-0.6, 0.6, w.size).reshape(w.shape).astype("float32") for w in layer.get_weights()])


def _run(cls, x=X, **kwargs):
    """The outputs of a layer with fixed weights and the gradients of the first one's squares."""
    layer = cls(2, **kwargs)
    layer(x)
    _weights(layer)
    if layer.stateful:  # the first call's state came from the initial (random) weights
        layer.reset_states()
    with tf.GradientTape() as tape:
        out = layer(x)
        first = out[0] if isinstance(out, list) else out
        loss = tf.reduce_sum(first * first)
    grads = tape.gradient(loss, layer.trainable_weights)
    return [o.numpy() for o in (out if isinstance(out, list) else [out])], [g.numpy() for g in grads]


@pytest.mark.parametrize("cls,kwargs", [(keras.layers.LSTM, {}), (keras.layers.GRU, {}),
                                        (keras.layers.LSTM, {"return_sequences": True, "return_state": True}),
                                        (keras.layers.GRU, {"return_sequences": True}),
                                        (keras.layers.GRU, {"return_state": True, "stateful": True})],
                         ids=["lstm", "gru", "lstm_sequences_state", "gru_sequences", "gru_stateful"])
def test_cudnn_gives_the_loops_values_and_gradients(gpu, cls, kwargs):
    start = len(gpu.trace.events)
    fused, fused_grads = _run(cls, **kwargs)
    ops = _ops(gpu, start)
    assert ("CudnnRNNV3", "GPU") in ops and ("CudnnRNNBackpropV3", "GPU") in ops
    loop, loop_grads = _run(cls, use_cudnn=False, **kwargs)
    for a, b in zip(fused + fused_grads, loop + loop_grads):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_an_lstm_on_a_gpu_runs_the_ops_keras_runs_for_cudnn(gpu):
    layer = keras.layers.LSTM(3)
    layer(X)
    start = len(gpu.trace.events)
    layer(X)
    ops = [op for op, _ in _ops(gpu, start) if op != "_EagerConst"]
    packing = ["Split", "Split", "ZerosLike", "ConcatV2", "Split"] + ["Transpose", "Reshape"] * 8 + ["Reshape"] * 8
    assert ops[ops.index("ReadVariableOp"):] == (
        ["ReadVariableOp"] * 3 + ["Shape", "StridedSlice", "Shape", "StridedSlice", "Fill", "ExpandDims", "ExpandDims"]
        + packing + ["ConcatV2", "CudnnRNNV3", "StridedSlice", "Squeeze", "Squeeze", "ExpandDims"])


def test_a_gru_packs_its_gates_in_cudnns_order(gpu):
    layer = keras.layers.GRU(3, return_sequences=True)
    layer(X)
    start = len(gpu.trace.events)
    layer(X)
    ops = [op for op, _ in _ops(gpu, start) if op != "_EagerConst"]
    assert ops[ops.index("ExpandDims"):ops.index("CudnnRNNV3") + 1] == (
        ["ExpandDims", "Split", "Split", "Reshape", "Split"] + ["Transpose", "Reshape"] * 6 + ["Reshape"] * 6
        + ["ConcatV2", "CudnnRNNV3"])


@pytest.mark.parametrize("kwargs", [{"activation": "relu"}, {"recurrent_dropout": 0.1}, {"unroll": True},
                                    {"use_bias": False}, {"use_cudnn": False}])
def test_a_configuration_cudnn_cannot_run_loops(gpu, kwargs):
    start = len(gpu.trace.events)
    keras.layers.LSTM(2, **kwargs)(X)
    assert "CudnnRNNV3" not in [op for op, _ in _ops(gpu, start)]


def test_a_gru_without_reset_after_loops(gpu):
    start = len(gpu.trace.events)
    keras.layers.GRU(2, reset_after=False)(X)
    assert "CudnnRNNV3" not in [op for op, _ in _ops(gpu, start)]


def test_use_cudnn_true_without_a_gpu_is_kerass_error():
    with pytest.raises(ValueError, match=r"use_cudnn=True was specified, but cuDNN is not supported for this layer "
                                         r"configuration with this backend\. Pass use_cudnn='auto' to fallback to a "
                                         r"non-cuDNN implementation\."):
        keras.layers.LSTM(2, use_cudnn=True)(X)


def test_fit_on_a_gpu_trains_as_the_loop_does(gpu):
    y = np.arange(6, dtype="float32").reshape(3, 2) / 6
    losses = []
    for use_cudnn in ("auto", False):
        model = keras.Sequential([keras.Input((5, 4)), keras.layers.GRU(3, use_cudnn=use_cudnn), keras.layers.Dense(2)])
        _weights(model)
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
        losses.append(model.fit(X, y, epochs=3, verbose=0, shuffle=False).history["loss"])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-5)


def test_mixed_float16_lstm_on_a_gpu_is_float16(gpu):
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        start = len(gpu.trace.events)
        (fused,), _ = _run(keras.layers.LSTM)
        assert "CudnnRNNV3" in [op for op, _ in _ops(gpu, start)]
        (loop,), _ = _run(keras.layers.LSTM, use_cudnn=False)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    assert fused.dtype == np.float16
    np.testing.assert_allclose(fused.astype("float32"), loop.astype("float32"), atol=2e-3)


def test_a_right_padded_mask_becomes_sequence_lengths(gpu):
    """Keras's cuDNN path: the mask asserted right-padded, its counts the lengths; cuDNN outputs zeros
    past a sequence's end (the loop repeats the last output there), the final states are the same."""
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]], bool)
    for cls in (keras.layers.LSTM, keras.layers.GRU):
        layer = cls(2, return_sequences=True, return_state=True)
        layer(X)
        _weights(layer)
        start = len(gpu.trace.events)
        fused = layer(X, mask=mask)
        ops = [op for op, _ in _ops(gpu, start)]
        assert "Assert" not in ops and "CudnnRNNV3" in ops and ops.index("All") < ops.index("CudnnRNNV3")
        loop = cls(2, return_sequences=True, return_state=True, use_cudnn=False)
        loop(X)
        _weights(loop)
        looped = loop(X, mask=mask)
        for a, b in zip(fused[1:], looped[1:]):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
        seq, want = fused[0].numpy(), looped[0].numpy()
        np.testing.assert_allclose(seq[mask], want[mask], rtol=1e-5, atol=1e-6)
        assert not seq[~mask].any()


def test_a_mask_not_right_padded_falls_back_to_the_loop(gpu):
    mask = np.array([[0, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1]], bool)
    layer = keras.layers.LSTM(2, return_sequences=True)
    layer(X)
    start = len(gpu.trace.events)
    out = layer(X, mask=mask)
    ops = [op for op, _ in _ops(gpu, start)]
    assert "All" in ops and "CudnnRNNV3" not in ops and "Unpack" in ops
    loop = keras.layers.LSTM(2, return_sequences=True, use_cudnn=False)
    loop(X)
    loop.set_weights(layer.get_weights())
    np.testing.assert_allclose(out.numpy(), loop(X, mask=mask).numpy(), rtol=1e-6)


@pytest.mark.parametrize("cls", [keras.layers.LSTM, keras.layers.GRU])
def test_go_backwards_reverses_within_the_lengths(gpu, cls):
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 1, 0, 0, 0]], bool)
    outs = []
    for use_cudnn in ("auto", False):
        layer = cls(2, go_backwards=True, return_state=True, use_cudnn=use_cudnn)
        layer(X)
        _weights(layer)
        outs.append([o.numpy() for o in layer(X, mask=mask)] + [o.numpy() for o in layer(X)])
    for a, b in zip(*outs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_training_dropout_masks_the_inputs_as_the_loop_does(gpu):
    outs = []
    for use_cudnn in ("auto", False):
        layer = keras.layers.GRU(2, dropout=0.5, seed=3, use_cudnn=use_cudnn)
        layer(X)
        _weights(layer)
        outs.append(layer(X, training=True).numpy())
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-5, atol=1e-6)
