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


def _three_steps(opt):
    w = keras.Variable(np.array([1.0, -2.0, 3.0], "float32"), name="w")
    for i in range(3):
        opt.apply_gradients([(ops.convert_to_tensor(np.array([0.5, -1.5, 2.5], "float32") * (i + 1)), w)])
    return _np(w).tolist(), int(_np(opt.iterations))


def test_optimizers_update_as_keras_after_three_steps():
    expected = {
        "AdamW": ([0.69424, -1.67931, 2.66439], keras.optimizers.AdamW(0.1, weight_decay=0.05)),
        "Lion": ([0.7, -1.7, 2.7], keras.optimizers.Lion(0.1)),
        "Nadam": ([0.70677, -1.70677, 2.70677], keras.optimizers.Nadam(0.1)),
        "Adamax": ([0.75468, -1.75468, 2.75468], keras.optimizers.Adamax(0.1)),
        "Ftrl": ([0.2131, -1.31797, 2.35254], keras.optimizers.Ftrl(0.1, l1_regularization_strength=0.01,
                                                                    l2_regularization_strength=0.01)),
        "SGD nesterov": ([0.27205, 0.18385, -0.63975], keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True)),
        "global_clipnorm": ([0.94929, -1.84787, 2.74645], keras.optimizers.SGD(0.1, global_clipnorm=1.0)),
        "Adadelta": ([0.99462, -1.99462, 2.99462], keras.optimizers.Adadelta(1.0)),
        "ema": ([0.75594, -1.75594, 2.75594], keras.optimizers.Adam(0.1, use_ema=True, ema_momentum=0.5,
                                                                    ema_overwrite_frequency=2)),
        "Lamb": ([0.40924, -1.40924, 2.40924], keras.optimizers.Lamb(0.1)),
    }
    for name, (values, opt) in expected.items():
        got, steps = _three_steps(opt)
        assert np.allclose(got, values, atol=2e-5), (name, got)
        assert steps == 3, name


def test_gradient_accumulation_updates_every_nth_step_with_the_mean():
    got, steps = _three_steps(keras.optimizers.SGD(0.1, gradient_accumulation_steps=2))
    assert np.allclose(got, [0.925, -1.775, 2.625]) and steps == 1


def test_optimizer_config_and_serialize_as_keras():
    cfg = keras.optimizers.AdamW(0.01).get_config()
    assert (cfg["weight_decay"], cfg["use_ema"], cfg["gradient_accumulation_steps"]) == (0.004, False, None)
    assert keras.optimizers.SGD(0.1, use_ema=True, clipnorm=2.0).get_config()["use_ema"] is True
    sched = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True)
    assert keras.optimizers.serialize(keras.optimizers.Adam(learning_rate=sched))["config"]["learning_rate"] == {
        "module": "keras.optimizers.schedules", "class_name": "ExponentialDecay",
        "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5, "staircase": True,
                   "name": "ExponentialDecay"}, "registered_name": None}


def test_fit_with_an_ema_optimizer_ends_on_the_averages():
    inp = keras.Input((3,))
    model = keras.Model(inp, layers.Dense(1, kernel_initializer="ones")(inp))
    model.compile(keras.optimizers.Adam(0.05, use_ema=True), "mse")
    x = np.arange(12, dtype="float32").reshape(4, 3) / 10
    history = model.fit(x, np.ones((4, 1), "float32"), epochs=3, verbose=0)
    assert np.allclose(history.history["loss"], [1.435, 1.1816, 0.9697], atol=1e-4)
    assert np.allclose(_np(model.layers[1].kernel).ravel(), 0.9485, atol=1e-4)


def _signal():
    return np.random.default_rng(0).standard_normal((2, 64)).astype("float32")


def test_keras_ops_stft_and_istft():
    sig = _signal()
    re, im = ops.stft(sig, sequence_length=16, sequence_stride=8, fft_length=16)
    assert (tuple(re.shape), tuple(im.shape)) == ((2, 9, 9), (2, 9, 9))
    assert (round(float(ops.sum(re)), 4), round(float(ops.sum(im)), 4)) == (0.7868, -0.3707)
    re2, im2 = ops.stft(sig, 16, 8, 16, window="hamming", center=False)
    assert tuple(re2.shape) == (2, 7, 9) and round(float(ops.mean(re2 ** 2 + im2 ** 2)), 4) == 5.8889
    back = ops.istft((re, im), sequence_length=16, sequence_stride=8, fft_length=16, length=64)
    assert tuple(back.shape) == (2, 64) and np.abs(_np(back) - sig)[:, 8:-8].max() < 1e-5


def test_mel_spectrogram_values_config_and_symbolic_shape():
    mel = layers.MelSpectrogram(fft_length=32, sequence_stride=8, sequence_length=16, sampling_rate=800,
                                num_mel_bins=8, max_freq=400)
    y = _np(mel(_signal()))
    assert y.shape == (2, 8, 9) and round(float(y.mean()), 3) == 7.012
    assert sorted(mel.get_config()) == ["dtype", "fft_length", "mag_exp", "max_freq", "min_freq", "min_power", "name",
                                        "num_mel_bins", "power_to_db", "ref_power", "sampling_rate", "sequence_length",
                                        "sequence_stride", "top_db", "trainable", "window"]
    out = layers.MelSpectrogram(fft_length=32, sequence_stride=8, sequence_length=16, num_mel_bins=8)(
        keras.Input((64,)))
    assert tuple(out.shape) == (None, 8, 9)


def test_export_archive_endpoint_and_loaded_variables(tmp_path):
    inp = keras.Input((3,), name="feats")
    model = keras.Model(inp, layers.Dense(2, kernel_initializer="ones", name="d")(inp))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint(name="predict", fn=lambda t: model(t, training=False),
                         input_signature=[tf.TensorSpec((None, 3), tf.float32)])
    archive.write_out(str(tmp_path / "arch"), verbose=False)
    restored = tf.saved_model.load(str(tmp_path / "arch"))
    assert restored.predict(tf.constant(x)).numpy().tolist() == [[3.0, 3.0], [12.0, 12.0]]
    assert len(restored.variables) == 2
    assert sorted(restored.signatures.keys()) == ["predict", "serving_default"]
    try:
        keras.export.ExportArchive().add_endpoint("f", lambda t: t)
        raise AssertionError("no error")
    except ValueError as e:
        assert str(e).startswith("If the `fn` argument provided is not a `tf.function`, you must provide an "
                                 "`input_signature` argument")


class _Doubler(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(self, x):
        return x * 2


def test_a_loaded_function_with_an_input_signature_refuses_other_inputs_as_tensorflow(tmp_path):
    tf.saved_model.save(_Doubler(), str(tmp_path / "m"))
    restored = tf.saved_model.load(str(tmp_path / "m"))
    assert restored.f(tf.constant([1.0])).numpy().tolist() == [2.0]
    try:
        restored.f(tf.constant([[1.0]]))
        raise AssertionError("no error")
    except TypeError as e:
        assert str(e) == (
            "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1, 1), dtype=tf.float32, "
            "name=None) to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`. Received args: (<tf.Tensor: "
            "shape=(1, 1), dtype=float32, numpy=array([[1.]], dtype=float32)>,) and kwargs: {} for signature: "
            "(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None)).")


def test_optimizer_variables_in_keras_order():
    a = keras.Variable(np.ones(2, "float32"), name="a")
    b = keras.Variable(np.ones(3, "float32"), name="b")
    adam = keras.optimizers.Adam(0.1, use_ema=True, gradient_accumulation_steps=2)
    adam.build([a, b])  # Keras: iteration, learning_rate, averages, accumulators, then (m, v) per variable
    assert [tuple(v.shape) for v in adam.variables] == [(), (), (2,), (3,), (2,), (3,), (2,), (2,), (3,), (3,)]
    nadam = keras.optimizers.Nadam(0.1)
    nadam.build([a, b])  # … and Nadam's u_product last
    assert [tuple(v.shape) for v in nadam.variables] == [(), (), (2,), (2,), (3,), (3,), ()]


def test_summary_counts_nadams_u_product_among_optimizer_params():
    inp = keras.Input((3,))
    model = keras.Model(inp, layers.Dense(2)(inp))
    model.compile(keras.optimizers.Nadam(), "mse")
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    lines = []
    model.summary(print_fn=lambda line, **kw: lines.append(line))
    assert " Optimizer params: 19 (80.00 B)" in "\n".join(lines).splitlines()


def test_optimizers_get_by_name_as_keras_table():
    assert [type(keras.optimizers.get(n)).__name__ for n in ("lion", "nadam", "adamax", "ftrl", "adadelta")] == [
        "Lion", "Nadam", "Adamax", "Ftrl", "Adadelta"]
    try:
        keras.optimizers.get("lamb")  # Keras 3.15's ALL_OBJECTS lacks Lamb
        raise AssertionError("no error")
    except ValueError as e:
        assert str(e) == "Could not interpret optimizer identifier: lamb"
