"""Keyword arguments are never swallowed (issue 29 item 4): one Keras 3 takes and devtrace does not
implement fails naming it — unless given its default — and one Keras rejects fails with Keras's own
text (those are compared with Keras 3.15 by the TF 2.21 probe ``tests/tf221/programs/keras_keywords.py``)."""

import numpy as np
import pytest

from conftest import devtrace

import devtrace as tf

keras = tf.keras


def _model():
    m = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
    m.compile(optimizer="sgd", loss="mse")
    return m


def _under(setter, value, make):
    """``make()`` with a Keras setting changed, the setting restored after (a process-wide one)."""
    from devtrace.keras import config

    setter(value)
    try:
        return make()
    finally:
        config.reset()


@pytest.mark.parametrize("call, text", [
    (lambda: _model().compile(jit_compile=True), "Model.compile(jit_compile=...)"),
    (lambda: _model().compile(loss="mse", steps_per_execution=4), "Model.compile(steps_per_execution=...)"),
    (lambda: _model().summary(layer_range=["a", "b"]), "Model.summary(layer_range=...)"),
    (lambda: keras.layers.Dense(2, activity_regularizer="l2"), "keras.layers.Dense(activity_regularizer=...)"),
    (lambda: keras.layers.Conv2D(2, 3, bias_regularizer="l2"), "keras.layers.Conv2D(bias_regularizer=...)"),
    (lambda: keras.optimizers.Adam(amsgrad=True), "keras.optimizers.Adam(amsgrad=...)"),
    (lambda: keras.optimizers.RMSprop(centered=True), "keras.optimizers.RMSprop(centered=...)"),
    (lambda: keras.Input(shape=(2,), ragged=True), "keras.Input(ragged=...)"),
    (lambda: keras.metrics.AUC(curve="PRGAIN"), "keras.metrics.AUC(curve=...)"),
    (lambda: keras.losses.Huber(reduction="mean"), "keras.losses.Huber(reduction=...)"),
    (lambda: _under(keras.config.set_floatx, "float64", lambda: keras.layers.Dense(2)),
     "keras.layers.Dense under keras.config.set_floatx('float64')"),
    (lambda: _under(keras.config.set_image_data_format, "channels_first", lambda: keras.layers.Conv2D(2, 3)),
     "keras.layers.Conv2D under keras.config.set_image_data_format('channels_first')"),
    (lambda: keras.layers.UpSampling2D(data_format="channels_first"), "keras.layers.UpSampling2D(data_format=...)"),
    (lambda: keras.ops.quantile([1.0, 2.0], 0.5, method="lower"), "keras.ops.quantile(method=...)"),
])
def test_a_keyword_devtrace_does_not_implement_fails_naming_it(call, text):
    with pytest.raises(NotImplementedError, match=r"^devtrace does not implement " + __import__("re").escape(text)
                       + " yet$"):
        call()


def test_a_layer_made_under_another_floatx_or_image_data_format_fails_naming_the_setting():
    """keras.config takes Keras's values (floatx() and image_data_format() say them back); devtrace's
    layers keep float32 and channels_last, so a layer that would follow the setting fails naming it."""
    from devtrace.keras import config

    try:
        keras.config.set_floatx("float64")
        assert keras.config.floatx() == "float64"
        with pytest.raises(NotImplementedError, match=r"^devtrace does not implement keras.layers.Dense under "
                                                      r"keras.config.set_floatx\('float64'\) yet$"):
            keras.layers.Dense(2)
        keras.config.set_floatx("float32")
        keras.config.set_image_data_format("channels_first")
        assert keras.config.image_data_format() == "channels_first"
        with pytest.raises(NotImplementedError, match=r"^devtrace does not implement keras.layers.Conv2D under "
                                                      r"keras.config.set_image_data_format\('channels_first'\) yet$"):
            keras.layers.Conv2D(2, 3)
        keras.layers.Conv2D(2, 3, data_format="channels_last")
        keras.layers.Dense(2)  # no data_format: the setting does not concern it
        with pytest.raises(ValueError, match=r"^Unknown `floatx` value: float8. Expected one of"):
            keras.config.set_floatx("float8")
    finally:
        config.reset()


def test_keywords_given_their_defaults_change_nothing_and_pass():
    m = keras.Sequential([keras.Input(shape=(2,), sparse=False),
                          keras.layers.Dense(1, kernel_constraint=None, lora_rank=None, activity_regularizer=None)])
    m.compile(optimizer=keras.optimizers.SGD(0.1, clipnorm=None, use_ema=False), loss="mse", jit_compile="auto",
              steps_per_execution=1, loss_weights=None)
    keras.layers.Conv2D(2, 3, dilation_rate=(1, 1), data_format="channels_last")
    keras.layers.MaxPooling2D(data_format=None)
    h = m.fit(np.zeros((4, 2), "float32"), np.zeros((4, 1), "float32"), verbose=0)
    assert list(h.history) == ["loss"]


def test_input_dim_is_keras_input_shape():
    m = keras.Sequential([keras.layers.Dense(3, input_dim=2)])
    assert m.layers[0]._batch_input_shape == (None, 2)


def test_under_devtrace_run_one_line_names_the_keyword(tmp_path):
    program = tmp_path / "p.py"
    program.write_text("import keras\nm = keras.Sequential([keras.layers.Dense(1)])\n"
                       "m.compile(optimizer='sgd', loss='mse', jit_compile=True)\n")
    r = devtrace("run", str(program), env={"KERAS_HOME": str(tmp_path)})
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == ("Error: p.py raised NotImplementedError: devtrace does not implement "
                                         "Model.compile(jit_compile=...) yet")
