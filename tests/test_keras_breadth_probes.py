"""Keras 3 / TensorFlow 2.21 behaviour that new guide-style programs (helper h-kio3's probes p21–p40,
/work/helpers/kio/probes) found devtrace lacking: each expected value is what TensorFlow 2.21 with
Keras 3.15 printed running the same lines (``/work/tfvenv/bin/python``, the probe's output)."""

import numpy as np
import pytest

import devtrace as tf

keras = tf.keras
ops = keras.ops


def _np(x):
    return ops.convert_to_numpy(x)


def test_multi_head_attention_projects_to_an_output_shape():
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=4, output_shape=5)
    out, scores = mha(np.ones((1, 4, 6), "float32"), np.ones((1, 7, 6), "float32"), return_attention_scores=True)
    assert (tuple(out.shape), tuple(scores.shape)) == ((1, 4, 5), (1, 2, 4, 7))
    assert [tuple(w.shape) for w in mha.weights] == [(6, 2, 3), (2, 3), (6, 2, 3), (2, 3), (6, 2, 4), (2, 4),
                                                     (2, 4, 5), (5,)]
    assert np.allclose(_np(scores)[0, 0, 0], 1 / 7, atol=1e-4)


def test_batch_normalization_on_a_middle_axis():
    bn = keras.layers.BatchNormalization(axis=1, center=False, scale=False)
    x = np.arange(24, dtype="float32").reshape(2, 3, 4)
    y = _np(bn(x, training=True))
    assert y.shape == (2, 3, 4) and [tuple(w.shape) for w in bn.weights] == [(3,), (3,)]
    assert np.allclose(y.mean(axis=(0, 2)), 0, atol=1e-5)  # normalized per channel of axis 1


def test_dilated_grouped_and_causal_convolutions():
    x1, x2 = np.ones((2, 10, 3), "float32"), np.ones((2, 8, 8, 3), "float32")
    causal = keras.layers.Conv1D(4, 3, padding="causal", dilation_rate=2)
    assert tuple(causal(x1).shape) == (2, 10, 4) and causal.count_params() == 40
    grouped = keras.layers.Conv2D(6, 3, groups=3, padding="same")
    assert tuple(grouped(x2).shape) == (2, 8, 8, 6) and grouped.count_params() == 60
    assert tuple(grouped.kernel.shape) == (3, 3, 1, 6)
    x = tf.reshape(tf.range(20.0), (1, 10, 2))
    assert tf.nn.conv1d(x, tf.ones((3, 2, 4)), 1, "VALID", dilations=2).numpy()[0, :, 0].tolist() == \
        [27.0, 39.0, 51.0, 63.0, 75.0, 87.0]  # dilations were ignored: 8 steps, not 6
    same = tf.nn.conv2d(tf.ones((1, 6, 6, 1)), tf.ones((3, 3, 1, 1)), 1, "SAME", dilations=[1, 2, 2, 1])
    assert same.numpy()[0, :, :, 0].tolist()[:3] == [[4, 4, 6, 6, 4, 4]] * 2 + [[6, 6, 9, 9, 6, 6]]


def test_resizing_pads_to_the_aspect_ratio_and_pools_in_3d():
    img = np.arange(2 * 6 * 6 * 3, dtype="float32").reshape(2, 6, 6, 3) / 216
    out = _np(keras.layers.Resizing(3, 4, pad_to_aspect_ratio=True)(img))
    assert out.shape == (2, 3, 4, 3) and round(float(out.mean()), 4) == 0.3733
    assert tuple(keras.layers.MaxPooling3D(2)(np.ones((1, 4, 4, 4, 2), "float32")).shape) == (1, 2, 2, 2, 2)
    assert keras.layers.GlobalAveragePooling1D().supports_masking


def test_summary_expands_a_nested_sequential_built_on_the_outer_input(capsys):
    inner = keras.Sequential([keras.layers.Dense(2, name="dense"), keras.layers.Dense(2, name="dense_1")],
                             name="inner")  # named as TensorFlow's run auto-named them (the probe's first Dense)
    outer = keras.Sequential([keras.Input((3,)), inner, keras.layers.Dense(1, name="dense_2")], name="outer")
    assert outer.count_params() == 17  # the inner layers have weights before any data runs
    outer.summary(expand_nested=True)
    lines = capsys.readouterr().out.splitlines()
    assert lines[4:10] == [
        "│ inner (Sequential)              │ (None, 2)              │            14 │",
        "├─────────────────────────────────┼────────────────────────┼───────────────┤",
        "│    └ dense (Dense)              │ (None, 2)              │             8 │",
        "├─────────────────────────────────┼────────────────────────┼───────────────┤",
        "│    └ dense_1 (Dense)            │ (None, 2)              │             6 │",
        "├─────────────────────────────────┼────────────────────────┼───────────────┤"]
    assert lines[12] == " Total params: 17 (68.00 B)"


def test_an_eager_tensor_array_clears_what_it_read():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in range(3):
        ta = ta.write(i, tf.fill([2], float(i)))
    assert str(ta.element_shape) == "(2,)"
    assert ta.read(1).numpy().tolist() == [1.0, 1.0]
    assert ta.concat().numpy().tolist() == [0.0, 0.0, 0.0, 0.0, 2.0, 2.0]  # TensorFlow's: read, then zeros
    assert ta.read(1).numpy().tolist() == [0.0, 0.0]
    kept = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, [1.0])
    assert [kept.read(0).numpy().tolist(), kept.read(0).numpy().tolist(), kept.read(1).numpy().tolist()] == \
        [[1.0], [1.0], [0.0]]


def test_small_surface_pieces():
    assert str(tf.TensorArray(tf.float32, size=2, element_shape=[3]).element_shape) == "(3,)"
    assert keras.metrics.Mean(dtype="float64").dtype == "float64" and keras.metrics.AUC().dtype == "float32"
    dense = keras.layers.Dense(3, name="dd")
    config = keras.layers.serialize(dense)
    assert sorted(config) == ["class_name", "config", "module", "registered_name"]
    assert (config["class_name"], config["module"]) == ("Dense", "keras.layers")
    again = keras.layers.deserialize(config)
    assert (type(again).__name__, again.name) == ("Dense", "dd")
    assert keras.applications.mobilenet_v2.__name__ == "keras.applications.mobilenet_v2"


def test_a_loss_weights_per_sample_losses_of_shape_n_by_1():
    class Abs(keras.losses.Loss):
        def call(self, y_true, y_pred):
            return ops.abs(y_true - y_pred)  # (n, 1): not reduced over the last axis

    loss = Abs()(np.array([[0.0], [1.0], [2.0]], "float32"), np.array([[0.1], [2.0], [0.0]], "float32"),
                 sample_weight=np.array([1.0, 0.0, 2.0]))
    assert float(loss) == pytest.approx((0.1 + 4.0) / 3, rel=1e-6)


X = np.arange(12, dtype="float32").reshape(3, 4) / 10 - 0.5
Y = np.arange(4, dtype="float32") + 1


@pytest.mark.parametrize("call, shape, dtype, values", [
    (lambda: ops.matmul(X, Y), (3,), "float32", [-3.0, 1.0, 5.0]),
    (lambda: ops.eye(3, k=1), (3, 3), "float32", [[0, 1, 0], [0, 0, 1], [0, 0, 0]]),
    (lambda: ops.segment_sum(Y, np.array([0, 0, 1, 1])), (2,), "float32", [3.0, 7.0]),
    (lambda: ops.segment_max(Y, np.array([0, 1, 1, 2]), num_segments=3), (3,), "float32", [1.0, 3.0, 4.0]),
    (lambda: ops.erfinv(np.array([-0.5, 0.0, 0.6], "float32")), (3,), "float32", [-0.4769, 0.0, 0.5951]),
    (lambda: ops.nan_to_num(np.array([np.nan, -np.inf, 1.0])), (3,), "float64", [0.0, np.finfo(np.float64).min, 1.0]),
    (lambda: ops.diag(Y), (4, 4), "float32", np.diag([1.0, 2, 3, 4]).tolist()),
    (lambda: ops.trace(np.arange(9.0).reshape(3, 3)), (), "float64", 12.0),
    (lambda: ops.cross(np.array([1.0, 0, 0]), np.array([0, 1.0, 0])), (3,), "float64", [0.0, 0.0, 1.0]),
    (lambda: ops.bincount(np.array([0, 1, 1, 3])), (4,), "int32", [1, 2, 0, 1]),
    (lambda: ops.digitize(Y, np.array([1.5, 3.5])), (4,), "int32", [0, 1, 1, 2]),
    (lambda: ops.cond(True, lambda: 1.0, lambda: 2.0), (), "float64", 1.0),
    (lambda: ops.full((2, 2), 7), (2, 2), "float32", [[7.0, 7.0], [7.0, 7.0]]),
    (lambda: ops.conv(np.ones((1, 5, 1), "float32"), np.ones((3, 1, 1), "float32"), padding="same"), (1, 5, 1),
     "float32", [[[2.0], [3.0], [3.0], [3.0], [2.0]]]),
    (lambda: ops.max_pool(np.arange(8.0, dtype="float32").reshape(1, 8, 1), 2), (1, 4, 1), "float32",
     [[[1.0], [3.0], [5.0], [7.0]]]),
    (lambda: ops.depthwise_conv(np.ones((1, 4, 4, 2), "float32"), np.ones((2, 2, 2, 1), "float32")).shape, (4,),
     "int64", [1, 3, 3, 2]),
    (lambda: ops.fft((np.array([1.0, 2.0, 3.0, 4.0]), np.zeros(4)))[0], (4,), "float64", [10.0, -2.0, -2.0, -2.0]),
    (lambda: ops.rfft(np.array([1.0, 2.0, 3.0, 4.0]))[1], (3,), "float32", [0.0, 2.0, 0.0]),
    (lambda: ops.extract_sequences(np.arange(6.0), 3, 2), (2, 3), "float64", [[0.0, 1.0, 2.0], [2.0, 3.0, 4.0]]),
])
def test_keras_ops_as_keras_tensorflow_backend(call, shape, dtype, values):
    out = ops.convert_to_numpy(call())
    assert (out.shape, out.dtype.name) == (shape, dtype)
    assert np.allclose(out, values, atol=1e-4)


def test_tensorflow_op_details_the_probes_found():
    assert np.isnan(tf.math.digamma([-2.0, 0.0]).numpy()).all()  # poles: NaN, not ±huge
    with pytest.raises(ValueError, match=r"^'images' must have either 3 or 4 dimensions\.$"):
        tf.image.resize(tf.zeros((2,)), (2, 2))
    assert tf.strings.substr(["ünïcödé"], 1, 3, unit="UTF8_CHAR").numpy().tolist() == ["nïc".encode()]
    split = tf.strings.split(["abc", "a b c", " x  y ", ""], maxsplit=1)
    assert split.to_list() == [[b"abc", b""], [b"a", b"b c"], [b"x", b"y "], []]
    assert tf.strings.split(["abc"], maxsplit=2).to_list() == [[b"abc"]]
    assert tf.signal.rfft(np.array([1.0, 2.0, 3.0, 4.0])).dtype == tf.complex64  # float32 preferred


def test_keras_random_categorical_and_a_scheduled_rate():
    draws = keras.random.categorical(np.log(np.array([[0.1, 0.9]])), 4, seed=5)
    assert ops.dtype(draws) == "int32"
    opt = keras.optimizers.SGD(keras.optimizers.schedules.ExponentialDecay(0.01, 2, 0.5))
    opt.iterations.assign(4)
    assert float(opt.learning_rate) == pytest.approx(0.0025)  # the schedule at iterations, not the last step's


def test_adam_squares_an_embedding_gradients_slices_before_summing_repeats():
    """Keras's sparse-aware ``ops.square``: a row looked up twice adds two squares to Adam's second
    moment, not the square of their sum (TensorFlow: row 2 0.71716 after two steps, row 3 0.8)."""
    emb = keras.layers.Embedding(10, 2, embeddings_initializer="ones")
    opt = keras.optimizers.Adam(0.1)
    for _ in range(2):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(emb(np.array([[2, 3, 2]])) * np.array([1.0, 2.0], "float32"))
        grads = tape.gradient(y, emb.trainable_weights)
        assert type(grads[0]).__name__ == "IndexedSlices"
        opt.apply_gradients(zip(grads, emb.trainable_weights))
    assert np.allclose(emb.embeddings.numpy()[1:4], [[1.0, 1.0], [0.71716, 0.71716], [0.8, 0.8]], atol=1e-5)


def test_up_sampling_bilinear_resizes():
    x = np.arange(8, dtype="float32").reshape(1, 2, 2, 2)
    out = keras.layers.UpSampling2D(2, interpolation="bilinear")(x).numpy()[0, :, :, 0]
    assert out.tolist() == [[0.0, 0.5, 1.5, 2.0], [1.0, 1.5, 2.5, 3.0], [3.0, 3.5, 4.5, 5.0], [4.0, 4.5, 5.5, 6.0]]


@pytest.mark.parametrize("kwargs, values", [
    ({}, [0.0, 0.0, 0.0, 0.3, 0.7, 3.0, 8.0]),
    ({"max_value": 6.0}, [0.0, 0.0, 0.0, 0.3, 0.7, 3.0, 6.0]),  # ReLU(6.0) was ReLU(trainable=6.0)
    ({"max_value": 1.0, "threshold": 0.5}, [0.0, 0.0, 0.0, 0.0, 0.7, 1.0, 1.0]),
    ({"negative_slope": 0.1}, [-0.2, -0.05, 0.0, 0.3, 0.7, 3.0, 8.0]),
    ({"negative_slope": 0.1, "threshold": 0.5, "max_value": 2.0}, [-0.25, -0.1, -0.05, -0.02, 0.7, 2.0, 2.0]),
])
def test_relu_layer_keywords(kwargs, values):
    layer = keras.layers.ReLU(**kwargs)
    assert np.allclose(layer(np.array([-2.0, -0.5, 0.0, 0.3, 0.7, 3.0, 8.0], "float32")).numpy(), values, atol=1e-6)
    assert keras.layers.ReLU(6.0).max_value == 6.0


@pytest.mark.parametrize("constructor, text", [
    ("MobileNetV2", 'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000. Received '
                    "`classes=10`"),
    ("DenseNet121", 'If using `weights` as `"imagenet"` with `include_top` as true, `classes` should be 1000'),
    ("EfficientNetB0", 'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000'),
    ("InceptionV3", 'If using `weights="imagenet"` with `include_top=True`, `classes` should be 1000. Received '
                    "classes=10"),
    ("ResNet50", "If using `weights='imagenet'` with `include_top=True`, `classes` should be 1000.  Received classes=10"),
    ("MobileNetV3Small", 'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000.  '
                         "Received classes=10"),
])
def test_imagenet_weights_with_other_classes_fail_in_each_familys_words(constructor, text):
    with pytest.raises(ValueError) as caught:
        getattr(keras.applications, constructor)(weights="imagenet", classes=10)
    assert str(caught.value) == text


def test_layers_reject_inputs_as_keras_does():
    with pytest.raises(ValueError) as caught:
        keras.layers.Conv2D(3, 5)(np.ones((1, 3, 3, 1), "float32"))
    assert str(caught.value) == ("Computed output size would be zero or negative. Received `inputs shape=(1, 3, 3, 1)`, "
                                 "`kernel shape=(5, 5, 1, 3)`, `dilation_rate=[1 1]`, `strides=(1, 1)`, `padding=valid`.")
    dense = keras.layers.Dense(2, name="dd")
    with pytest.raises(ValueError, match=r"^Input 0 with name 'None' of layer 'dd' is incompatible with the layer: "
                                         r"expected min_ndim=2, found ndim=1\. Full shape received: \(2,\)$"):
        dense(np.ones((2,), "float32"))


def test_multi_head_attention_config_keys_as_keras():
    config = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3).get_config()
    assert sorted(k for k in config if k not in ("name", "dtype")) == [
        "activity_regularizer", "attention_axes", "bias_constraint", "bias_initializer", "bias_regularizer", "dropout",
        "kernel_constraint", "kernel_initializer", "kernel_regularizer", "key_dim", "num_heads", "output_shape", "seed",
        "sliding_window", "trainable", "use_bias", "use_gate", "value_dim"]


def test_parsed_examples_have_static_shapes_in_a_dataset_map():
    def example(v):
        return tf.train.Example(features=tf.train.Features(feature={
            "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[v])),
            "s": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0]))})).SerializeToString()

    ds = tf.data.Dataset.from_tensor_slices([example(1), example(2)])
    spec = {"a": tf.io.FixedLenFeature([], tf.int64), "s": tf.io.FixedLenFeature([2], tf.float32)}
    single = ds.map(lambda r: tf.io.parse_single_example(r, spec)).element_spec
    assert {k: tuple(v.shape) for k, v in single.items()} == {"a": (), "s": (2,)}
    batched = ds.batch(2).map(lambda r: tf.io.parse_example(r, spec)).element_spec
    assert {k: tuple(v.shape) for k, v in batched.items()} == {"a": (None,), "s": (None, 2)}
    sequence = {"a": tf.io.FixedLenFeature([], tf.int64),
                "s": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True)}
    batched = ds.batch(2).map(lambda r: tf.io.parse_example(r, sequence)).element_spec
    assert tuple(batched["s"].shape) == (None, None)


class Sampling(keras.layers.Layer):
    """keras.io's VAE sampling layer: a draw of the batch's shape, no compute_output_shape."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs):
        z_mean, z_log_var = inputs
        epsilon = keras.random.normal(shape=(ops.shape(z_mean)[0], ops.shape(z_mean)[1]), seed=self.seed_generator)
        return z_mean + ops.exp(0.5 * z_log_var) * epsilon


def test_a_layer_drawing_the_batchs_shape_has_its_symbolic_output_shape():
    z_mean, z_log_var = keras.Input((2,)), keras.Input((2,))
    z = Sampling()([z_mean, z_log_var])
    assert tuple(z.shape) == (None, 2)  # was the inputs' shapes: [(None, 2), (None, 2)]
    model = keras.Model([z_mean, z_log_var], z)
    assert model.predict([np.zeros((3, 2), "float32")] * 2, verbose=0).shape == (3, 2)


def test_a_dataset_keeps_a_dicts_key_order():
    d = {"b": np.array([1, 2]), "a": np.array([3.0, 4.0]), "c": np.array(["x", "y"])}
    ds = tf.data.Dataset.from_tensor_slices(d)
    assert list(ds.element_spec) == list(next(iter(ds))) == ["b", "a", "c"]  # TensorFlow's; was sorted
    mapped = ds.map(lambda x: x)
    assert list(mapped.element_spec) == list(next(iter(mapped))) == list(next(iter(ds.batch(2)))) == ["b", "a", "c"]


def test_channels_first_convolutions():
    x = np.arange(1 * 3 * 6 * 6, dtype="float32").reshape(1, 3, 6, 6) / 100
    conv = keras.layers.Conv2D(2, 3, strides=2, padding="same", data_format="channels_first", kernel_initializer="ones",
                               bias_initializer="ones")
    y = conv(x).numpy()
    assert y.shape == (1, 2, 3, 3) and tuple(conv.compute_output_shape((None, 3, 6, 6))) == (None, 2, 3, 3)
    assert np.allclose(y[0, 0, :2, :2], [[12.61, 13.15], [15.85, 16.39]], atol=1e-4)
    assert [tuple(w.shape) for w in conv.weights] == [(3, 3, 3, 2), (2,)]
    conv1d = keras.layers.Conv1D(2, 3, data_format="channels_first", kernel_initializer="ones")
    assert tuple(conv1d(np.ones((1, 3, 5), "float32")).shape) == (1, 2, 3)
    model = keras.Sequential([keras.Input((3, 8, 8)), keras.layers.Conv2D(4, 3, data_format="channels_first"),
                              keras.layers.Flatten()])
    assert (model.output_shape, model.count_params()) == ((None, 144), 112)


_GLOROT = {"module": "keras.initializers", "class_name": "GlorotUniform",
           "config": {"seed": None, "input_axes": None, "output_axes": None}, "registered_name": None}
_ZEROS = {"module": "keras.initializers", "class_name": "Zeros", "config": {}, "registered_name": None}


def test_layer_configs_as_keras_writes_them():
    """Keras 3.15's get_config (p34; tests/keras3/layer_configs_capture.py): resolved initializers and
    constraints as dicts, every key its class writes, conv sizes as tuples, in Keras's key order."""
    d = tf.keras.layers.Dense(3, activation="relu", kernel_regularizer=tf.keras.regularizers.L2(0.01),
                              kernel_constraint="max_norm", name="dd").get_config()
    assert list(d) == ["name", "trainable", "dtype", "units", "activation", "use_bias", "kernel_initializer",
                       "bias_initializer", "kernel_regularizer", "bias_regularizer", "kernel_constraint",
                       "bias_constraint", "quantization_config"]
    assert d["kernel_initializer"] == _GLOROT and d["bias_initializer"] == _ZEROS
    assert d["kernel_constraint"] == {"module": "keras.constraints", "class_name": "MaxNorm",
                                      "config": {"max_value": 2, "axis": 0}, "registered_name": None}
    assert d["kernel_regularizer"] == {"module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.01},
                                       "registered_name": None}
    c = tf.keras.layers.Conv2D(4, 3).get_config()
    assert (c["kernel_size"], c["strides"], c["dilation_rate"], c["data_format"], c["activation"]) == \
        ((3, 3), (1, 1), (1, 1), "channels_last", "linear")
    assert tf.keras.layers.MaxPooling2D().get_config()["strides"] == (2, 2)
    lstm = tf.keras.layers.LSTM(5).get_config()
    assert "use_cudnn" not in lstm and lstm["return_sequences"] is False and lstm["recurrent_initializer"] == {
        "module": "keras.initializers", "class_name": "Orthogonal", "config": {"seed": None, "gain": 1.0},
        "registered_name": None}
    assert sorted(tf.keras.layers.Flatten().get_config()) == ["data_format", "dtype", "name", "trainable"]
    assert tf.keras.layers.Dense.from_config(d).units == 3


def test_timeseries_windows_have_an_unknown_length_in_the_element_spec():
    """p35: TF 2.21 prints (None, None, 2) windows, (None, 2) targets, cardinality 5."""
    d = np.arange(40, dtype="float32").reshape(20, 2)
    spec = keras.utils.timeseries_dataset_from_array(d, d[3:], sequence_length=3, batch_size=4).element_spec
    assert repr(spec) == ("(TensorSpec(shape=(None, None, 2), dtype=tf.float32, name=None), "
                          "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None))")
    ds = keras.utils.timeseries_dataset_from_array(d, None, sequence_length=3, batch_size=None)
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)"
    assert int(ds.cardinality()) == 18 and next(iter(ds)).numpy().tolist() == [[0, 1], [2, 3], [4, 5]]


def test_a_recompile_without_loss_or_metrics_keeps_the_last_ones():
    """p36: Keras 3's compile() replaces the loss and the metrics only when given (TF 2.21 printed these)."""
    x = np.linspace(0, 1, 16, dtype="float32").reshape(8, 2)
    y = x.sum(1, keepdims=True)
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile("sgd", loss="mse", metrics=["mae"])
    m.compile("sgd")
    assert m.evaluate(x, y, verbose=0) == [0.0, 0.0] and m.loss == "mse"
    assert [t.name for t in m.metrics] == ["loss", "compile_metrics"]
    m.compile("sgd", metrics=[])
    assert m.evaluate(x, y, verbose=0) == 0.0 and m.metrics_names == ["loss", "compile_metrics"]


def test_an_uncompiled_model_has_no_optimizer(tmp_path):
    """p37: Keras 3 sets ``optimizer`` in compile(); before it (and after load_model(compile=False)) the
    attribute is missing (TF 2.21: AttributeError "'Sequential' object has no attribute 'optimizer'")."""
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(AttributeError, match="^'Sequential' object has no attribute 'optimizer'$"):
        m.optimizer  # noqa: B018
    assert m.loss is None
    m.save(tmp_path / "a.keras")
    assert not hasattr(keras.models.load_model(tmp_path / "a.keras", compile=False), "optimizer")
    m.compile("adam", "mse")
    assert type(m.optimizer).__name__ == "Adam"


_WRAPPED = "{{function_node __wrapped__ParseExampleV2_Tdense_%d_num_sparse_%d_ragged_split_types_0_ragged_value_types_0" \
    "_sparse_types_%d_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


@pytest.mark.parametrize("batched", [False, True])
def test_parse_example_errors_in_tensorflows_words(batched):
    """p31: TF 2.21's eager ParseExampleV2 errors (its wrapped function's name, no `name:` after [Op:…])."""
    ex = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))})).SerializeToString()
    parse = (lambda f: tf.io.parse_example([ex], f)) if batched else (lambda f: tf.io.parse_single_example(ex, f))
    name = "Name: <unknown>, " if batched else ""
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        parse({"missing": tf.io.FixedLenFeature([], tf.int64), "b": tf.io.FixedLenFeature([], tf.float32),
               "s": tf.io.VarLenFeature(tf.string)})
    assert str(e.value) == _WRAPPED % (2, 1, 1) + \
        f"{name}Feature: b (data type: float) is required but could not be found. [Op:ParseExampleV2]"
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        parse({"a": tf.io.FixedLenFeature([], tf.float32)})
    where = "Name: <unknown>, Key: a, Index: 0." if batched else "Key: a."
    assert str(e.value) == _WRAPPED % (1, 0, 0) + \
        f"{where}  Data types don't match. Data type: int64 but expected type: float [Op:ParseExampleV2]"
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        parse({"a": tf.io.VarLenFeature(tf.float32)})
    assert str(e.value) == _WRAPPED % (0, 1, 1) + \
        f"{where}  Data types don't match. Expected type: float, Actual type: int64 [Op:ParseExampleV2]"


def test_hashed_crossing_as_keras():
    """p39: keras.layers.HashedCrossing's values under TF 2.21 (tf.sparse.cross_hashed's FarmHash)."""
    y = keras.layers.HashedCrossing(num_bins=5)((np.array([1, 2, 3]), np.array(["a", "b", "c"])))
    assert y.dtype == tf.int64 and _np(y).tolist() == [0, 4, 3]
    y = keras.layers.HashedCrossing(num_bins=4, output_mode="one_hot")((np.array([[1], [2]]), np.array([[4], [5]])))
    assert y.dtype == tf.float32 and _np(y).tolist() == [[0, 1, 0, 0], [0, 0, 1, 0]]
    y = keras.layers.HashedCrossing(num_bins=7)((np.array(3), np.array("x")))
    assert y.shape == () and int(y) == 5
    layer = keras.layers.HashedCrossing(num_bins=3, name="hc")
    assert layer.get_config() == {"num_bins": 3, "output_mode": "int", "sparse": False, "name": "hc", "dtype": "int64"}
    out = layer((keras.Input(shape=(), dtype="int64"), keras.Input(shape=(), dtype="string")))
    assert (out.shape, out.dtype) == ((None,), "int64")


def test_train_on_batch_before_any_fit():
    """A model's first step is train_on_batch (no fit before it): TF 2.21 gives these losses."""
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    losses = [m.train_on_batch(np.ones((2, 2)), np.ones((2, 1))) for _ in range(2)]
    np.testing.assert_allclose(losses, [0.4309879243373871, 0.3808209300041199], rtol=1e-6)


def test_conv_lstm_2d_as_keras():
    """p39: keras.layers.ConvLSTM2D's weights, outputs and a training step's loss under TF 2.21 (seed 3)."""
    keras.utils.set_random_seed(3)
    layer = keras.layers.ConvLSTM2D(2, 3)
    x = np.linspace(-1, 1, 75, dtype="float32").reshape(1, 3, 5, 5, 1)
    y = layer(x)
    assert y.shape == (1, 3, 3, 2) and layer.count_params() == 224
    assert [tuple(w.shape) for w in layer.weights] == [(3, 3, 1, 8), (3, 3, 2, 8), (8,)]
    np.testing.assert_allclose(_np(y).ravel()[:6], [-0.0293, -0.0255, -0.0351, -0.0331, -0.0625, -0.0067], atol=1e-4)
    out = keras.layers.ConvLSTM2D(3, (2, 2), padding="same", return_sequences=True, return_state=True)(
        keras.Input((4, 6, 6, 2)))
    assert [t.shape for t in out] == [(None, 4, 6, 6, 3), (None, 6, 6, 3), (None, 6, 6, 3)]
    m = keras.Sequential([keras.Input((3, 5, 5, 1)), keras.layers.ConvLSTM2D(2, 3), keras.layers.Flatten(),
                          keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    assert round(float(m.train_on_batch(x, np.ones((1, 1)))), 4) == 1.2805


def test_cropping_2d_crops_nothing_by_default_and_configs_write_pairs():
    """Keras 3.15's Cropping2D() crops ((0, 0), (0, 0)) (Cropping1D/3D: 1); configs write the resolved pairs."""
    x = np.arange(32, dtype="float32").reshape(2, 4, 4, 1)
    assert keras.layers.Cropping2D()(x).shape == (2, 4, 4, 1)
    assert keras.layers.Cropping1D()(np.ones((1, 5, 2))).shape == (1, 3, 2)
    assert keras.layers.ZeroPadding2D((1, 2)).get_config()["padding"] == ((1, 1), (2, 2))
    assert keras.layers.Cropping2D(((1, 0), 2)).get_config()["cropping"] == ((1, 0), (2, 2))
    assert keras.layers.Cropping1D().get_config()["cropping"] == (1, 1)
