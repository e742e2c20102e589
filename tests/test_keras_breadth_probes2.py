"""Keras 3 / TensorFlow 2.21 behaviour that keras.io-style programs (helper h-kio5's probes p45–p60,
/work/helpers/kio/probes: a WGAN-GP, a text classifier with StringLookup, a Siamese network, a
collaborative-filtering model, …) found devtrace lacking. Each expected value is what TensorFlow 2.21
with Keras 3.15 printed running the same lines (``/work/tfvenv/bin/python``)."""

import numpy as np
import pytest

import devtrace as tf

keras = tf.keras
ops = keras.ops


def _np(x):
    return ops.convert_to_numpy(x)


def _r(values, digits=4) -> list:
    """The values, flattened, as Python floats rounded as the probes print them."""
    return [round(float(v), digits) for v in np.ravel(values)]


def test_string_lookup_without_an_oov_index_checks_its_inputs():
    lookup = keras.layers.StringLookup(num_oov_indices=0, vocabulary=["neg", "pos"])
    assert lookup.get_vocabulary() == ["neg", "pos"] and lookup.vocabulary_size() == 2
    assert _np(lookup(tf.constant(["pos", "neg"]))).tolist() == [1, 0]
    assert int(lookup(tf.constant("pos"))) == 1  # a scalar too
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        lookup(tf.constant(["pos", "zz", "yy"]))
    assert "Summarized data: b'When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values " \
           "[\"zz\" \"yy\"], consider setting `num_oov_indices=1`.'" in str(e.value)
    with pytest.raises(ValueError, match=r"^`num_oov_indices` must be greater than or equal to 0. "
                                         r"Received: num_oov_indices=-1$"):
        keras.layers.StringLookup(num_oov_indices=-1)
    inverse = keras.layers.StringLookup(vocabulary=["neg", "pos"], num_oov_indices=0, invert=True)
    assert _np(inverse(tf.constant([1, 0]))).tolist() == [b"pos", b"neg"]


def test_lookups_hash_unknown_tokens_into_several_oov_indices():
    three = keras.layers.StringLookup(num_oov_indices=3, vocabulary=["a", "b"])
    assert three.get_vocabulary() == ["[UNK]"] * 3 + ["a", "b"]
    assert _np(three(tf.constant(["a", "b", "c", "d", "e", "zz"]))).tolist() == [3, 4, 1, 2, 1, 1]
    salted = keras.layers.StringLookup(num_oov_indices=3, vocabulary=["a", "b"], salt=5)
    assert _np(salted(tf.constant(["c", "d", "e", "zz"]))).tolist() == [2, 2, 1, 0]
    ints = keras.layers.IntegerLookup(num_oov_indices=3, vocabulary=[10, 20])
    assert ints.get_vocabulary() == [-1, -1, -1, 10, 20]
    assert _np(ints(tf.constant([10, 7, 8, 9, 20]))).tolist() == [3, 1, 2, 0, 4]  # floormod
    farm = keras.layers.IntegerLookup(num_oov_indices=3, vocabulary=[10, 20], oov_method="farmhash")
    assert _np(farm(tf.constant([10, 7, 8, 9, 20]))).tolist() == [3, 1, 1, 2, 4]
    masked = keras.layers.IntegerLookup(num_oov_indices=0, vocabulary=[10, 20], mask_token=0)
    assert masked.get_vocabulary() == [0, 10, 20] and _np(masked(tf.constant([10, 0, 20]))).tolist() == [1, 0, 2]


def test_a_lookups_mask_token_has_no_index_outside_int_mode():
    lookup = keras.layers.StringLookup(num_oov_indices=2, vocabulary=["a", "b"], mask_token="", output_mode="one_hot")
    assert lookup.get_vocabulary() == ["[UNK]", "[UNK]", "a", "b"]
    assert _np(lookup(tf.constant(["a", "c", ""]))).tolist() == [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0]]


def test_hashing_with_a_salt_is_siphash():
    tokens = [["A"], ["B"], ["C"], ["D"], ["E"]]
    assert _np(keras.layers.Hashing(num_bins=3, salt=[133, 137])(tokens)).ravel().tolist() == [1, 2, 1, 0, 2]
    assert _np(keras.layers.Hashing(num_bins=3, salt=133)(tokens)).ravel().tolist() == [0, 0, 2, 1, 0]
    floats = keras.layers.Hashing(num_bins=3)([[1.7], [2.2]])  # Keras hashes a float's int64 value
    assert _np(floats).ravel().tolist() == _np(keras.layers.Hashing(num_bins=3)([[1], [2]])).ravel().tolist()


def test_fit_shuffles_as_keras_tensorflow_adapter_under_a_seed():
    keras.utils.set_random_seed(6)
    model = keras.Model(*(lambda i: (i, keras.layers.Dense(1)(i)))(keras.Input(shape=(4,))))
    model.compile(optimizer="adam", loss="mse")
    x = np.random.RandomState(0).random((32, 4)).astype("float32")
    y = np.random.RandomState(1).random((32, 1)).astype("float32")
    assert [round(v, 5) for v in model.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False).history["loss"]] \
        == [0.32734, 0.32009, 0.31316]
    assert [round(v, 5) for v in model.fit(x, y, epochs=3, batch_size=8, verbose=0).history["loss"]] == \
        [0.30646, 0.30014, 0.29416]


class _Seen(keras.Model):
    """Records each batch's samples (the data are their indices)."""

    def __init__(self):
        super().__init__()
        self.dense, self.seen = keras.layers.Dense(1), []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, _ = data
        tf.py_function(lambda t: self.seen.append(t.numpy().ravel().astype(int).tolist()) or 0, [x], tf.int32)
        return {}


def test_the_shuffled_orders_of_an_epoch_and_of_its_batches():
    keras.utils.set_random_seed(3)
    model = _Seen()
    model.compile("sgd", "mse")
    x = np.arange(11, dtype="float32")[:, None]
    model.fit(x, x, batch_size=4, epochs=2, verbose=0, shuffle="batch")
    model.fit(x, x, batch_size=4, epochs=1, verbose=0, shuffle=True)
    assert model.seen == [[3, 2, 1, 0], [5, 6, 7, 4], [10, 8, 9]] * 2 + [[10, 9, 8, 4], [6, 3, 7, 0], [5, 2, 1]]
    keras.utils.set_random_seed(0)
    model.seen.clear()
    model.fit(x, x, batch_size=4, epochs=1, verbose=0, shuffle=True)
    assert model.seen == [[8, 9, 4, 5], [7, 2, 0, 6], [3, 10, 1]]


def test_lambda_takes_an_output_shape_arguments_and_a_mask():
    a, b = keras.Input((6,)), keras.Input((6,))
    merged = keras.layers.Lambda(lambda v: ops.sqrt(ops.sum(ops.square(v[0] - v[1]), axis=1, keepdims=True)),
                                 output_shape=(1,))([a, b])
    assert merged.shape == (None, 1)
    scaled = keras.layers.Lambda(lambda v, k: v * k, arguments={"k": 3.0})
    assert _np(scaled(np.ones((1, 2), "float32"))).tolist() == [[3.0, 3.0]]
    shaped = keras.layers.Lambda(lambda v: v, output_shape=lambda s: (s[0], 7))
    assert shaped.compute_output_shape((None, 2)) == (None, 7)
    masking = keras.layers.Lambda(lambda v: v, mask=lambda v, m: ops.not_equal(v, 0))
    assert masking.supports_masking and not keras.layers.Lambda(lambda v: v).supports_masking
    assert _np(masking.compute_mask(np.array([[1.0, 0.0]], "float32"))).tolist() == [[True, False]]


def test_sparse_categorical_crossentropy_of_a_segmentation_map():
    y = np.array([[[1], [2]], [[0], [1]]], "uint8")  # (2, 2, 1) labels of (2, 2, 3) predictions
    p = np.full((2, 2, 3), 1 / 3, "float32")
    assert tuple(keras.losses.sparse_categorical_crossentropy(y, p).shape) == (2, 2)
    assert round(float(keras.losses.SparseCategoricalCrossentropy()(y, p)), 6) == 1.098612
    model = keras.Sequential([keras.Input((2, 3)), keras.layers.Softmax()])
    model.compile("sgd", "sparse_categorical_crossentropy", metrics=["accuracy"])
    assert [round(v, 6) for v in model.evaluate(p, y, verbose=0)] == [1.098612, 0.25]
    logits = tf.constant([[[1.0, 2.0, 3.0], [0.5, 0.2, 0.1]]])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([[1, 2]]), logits=logits)
    assert np.allclose(loss.numpy(), [[1.4076059, 1.2800989]])
    with pytest.raises(ValueError, match=r"^`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                                         r"labels.shape=\(2, 2\) of rank 2 and logits.shape=\(2, 3\) of rank 2$"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.zeros((2, 2), tf.int32), logits=tf.zeros((2, 3)))


def test_sparse_categorical_crossentropy_ignores_a_class():
    y, p = np.array([1, 0, 1]), np.array([[0.1, 0.9], [0.5, 0.5], [0.3, 0.7]])
    loss = keras.losses.SparseCategoricalCrossentropy(ignore_class=0)
    assert round(float(loss(np.array([[1, 0]]), np.array([[[0.1, 0.9], [0.5, 0.5]]]))), 5) == 0.10536
    assert round(float(loss(y, p)), 5) == 0.23102  # the mean over the two labels kept
    assert np.round(_np(keras.losses.sparse_categorical_crossentropy(y, p, ignore_class=0)), 5).tolist() == \
        [0.10536, 0.0, 0.35667]
    assert round(float(loss(y, p, sample_weight=np.array([1.0, 2.0, 3.0]))), 5) == 0.58769
    summed = keras.losses.SparseCategoricalCrossentropy(ignore_class=0, reduction="sum")
    assert round(float(summed(y, p)), 5) == 0.46204
    assert float(loss(np.array([0, 0]), np.array([[0.1, 0.9], [0.5, 0.5]]))) == 0.0
    assert loss.get_config() == {"name": "sparse_categorical_crossentropy", "reduction": "sum_over_batch_size",
                                 "from_logits": False, "ignore_class": 0}


def test_transposed_convolutions_take_an_output_padding():
    x = np.arange(2 * 3 * 3 * 2, dtype="float32").reshape(2, 3, 3, 2) / 10
    seen = []
    for padding in ("valid", "same"):
        for output_padding in (None, 1, (0, 1)):
            layer = keras.layers.Conv2DTranspose(2, 3, strides=2, padding=padding, output_padding=output_padding,
                                                 kernel_initializer="ones")
            y = layer(x)
            seen.append((tuple(y.shape), round(float(np.sum(_np(y))), 1), layer.get_config()["output_padding"]))
    assert seen == [((2, 7, 7, 2), 1134.0, None), ((2, 8, 8, 2), 1134.0, (1, 1)), ((2, 7, 8, 2), 1134.0, (0, 1)),
                    ((2, 6, 6, 2), 844.8, None), ((2, 6, 6, 2), 844.8, (1, 1)), ((2, 5, 6, 2), 772.8, (0, 1))]
    one_d = keras.layers.Conv1DTranspose(1, 4, strides=3, output_padding=2, kernel_initializer="ones")
    assert _np(one_d(np.ones((1, 2, 1), "float32"))).ravel().tolist() == [1, 1, 1, 2, 1, 1, 1, 0, 0]
    with pytest.raises(ValueError, match=r"^`output_padding` must be strictly less than `strides` for all dimensions. "
                                         r"At dimension 0, `output_padding` is 2 but `strides` is 2. Received: "
                                         r"output_padding=\(2, 2\), strides=\(2, 2\)$"):
        keras.layers.Conv2DTranspose(2, 3, strides=2, output_padding=2)


def _classifier():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    return model


_X = np.random.RandomState(0).rand(20, 3).astype("float32")
_Y = (_X.sum(axis=1, keepdims=True) > 1.5).astype("float32")


def test_a_compute_loss_override_without_training_is_called_without_it():
    class Distiller(keras.Model):  # keras.io's knowledge distillation: compute_loss(..., allow_empty=False)
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x)

        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, allow_empty=False):
            return ops.mean(ops.square(y_pred))

    model = Distiller()
    model.compile(optimizer="sgd")
    assert len(model.fit(_X, _Y, epochs=1, verbose=0).history["loss"]) == 1
    assert isinstance(model.evaluate(_X, _Y, verbose=0), float)


def test_predict_hands_callbacks_numpy_outputs():
    seen = []

    class Outputs(keras.callbacks.Callback):
        def on_predict_batch_end(self, batch, logs=None):
            seen.append((batch, sorted(logs), type(logs["outputs"]).__name__, logs["outputs"].shape))

    _classifier().predict(_X, batch_size=8, callbacks=[Outputs()], verbose=0)
    assert seen == [(0, ["outputs"], "ndarray", (8, 1)), (1, ["outputs"], "ndarray", (8, 1)),
                    (2, ["outputs"], "ndarray", (4, 1))]


def test_fit_evaluate_predict_on_python_generators():
    model = _classifier()

    def forever():
        while True:
            yield _X[:4], _Y[:4]

    with pytest.warns(UserWarning, match=r"^`shuffle=True` was passed, but will be ignored since the data `x` was "
                                         r"provided as a generator. The generator is expected to yield already-"
                                         r"shuffled data.$"):
        history = model.fit(forever(), steps_per_epoch=3, epochs=2, verbose=0)
    assert sorted(history.history) == ["accuracy", "loss"] and len(history.history["loss"]) == 2
    assert sorted(model.evaluate(forever(), steps=2, verbose=0, return_dict=True)) == ["accuracy", "loss"]
    assert model.predict(((a,) for a in [_X[:3], _X[3:5]]), verbose=0).shape == (5, 1)
    with pytest.raises(ValueError, match=r"^When passing a Python generator to a Keras model, the generator must "
                                         r"return a tuple, either \(input,\) or \(inputs, targets\) or \(inputs, "
                                         r"targets, sample_weights\). Received: \[\["):
        model.predict((a for a in [_X[:3]]), verbose=0)
    with pytest.raises(ValueError, match=r"^When providing `x` as a generator, `y` should not be passed. Instead, the "
                                         r"targets should be included as part of the generator.$"):
        model.fit(forever(), np.zeros(3))


def test_one_loss_of_a_dict_output_model_adds_no_per_output_loss():
    inputs = keras.Input((3,))
    hidden = keras.layers.Dense(4, activation="relu")(inputs)
    model = keras.Model(inputs, {"a": hidden, "b": keras.layers.Dense(1, activation="sigmoid")(hidden)})
    model.compile(loss={"b": "binary_crossentropy"}, metrics={"b": ["mae"]}, optimizer="sgd")
    logs = model.evaluate(_X, {"a": np.zeros((20, 4), "float32"), "b": _Y}, verbose=0, return_dict=True)
    assert sorted(logs) == ["b_mae", "loss"]


def test_resize_with_pad_offsets_by_the_unrounded_resized_size():
    image = (np.arange(6 * 10 * 3) % 251).astype("uint8").reshape(6, 10, 3)
    assert np.round(tf.image.resize_with_pad(image, 4, 4).numpy()[:, :, 0], 3).tolist() == \
        [[32.25, 39.75, 47.25, 54.75], [122.25, 129.75, 137.25, 144.75], [0.0] * 4, [0.0] * 4]
    tall = tf.image.resize_with_pad(np.ones((10, 7, 1), "float32"), 6, 6).numpy()[:, :, 0]
    assert tall.tolist() == [[1.0] * 4 + [0.0] * 2] * 6  # TensorFlow's: (6 - 4.2) / 2 floors to no left padding


def test_image_dataset_from_directory_crops_or_pads_to_the_aspect_ratio(tmp_path, capsys):
    image_module = pytest.importorskip("PIL.Image")
    (tmp_path / "a").mkdir()
    image_module.fromarray((np.arange(6 * 10 * 3) % 251).astype("uint8").reshape(6, 10, 3)).save(tmp_path / "a" / "x.png")
    rows = {}
    for fit in ("crop_to_aspect_ratio", "pad_to_aspect_ratio"):
        ds = keras.utils.image_dataset_from_directory(str(tmp_path), labels=None, image_size=(4, 4), shuffle=False,
                                                      batch_size=None, verbose=False, **{fit: True})
        rows[fit] = np.round(next(iter(ds)).numpy()[:, :, 0], 3).tolist()
    assert rows["crop_to_aspect_ratio"] == [[14.25, 18.75, 23.25, 27.75], [59.25, 63.75, 68.25, 72.75],
                                            [104.25, 108.75, 113.25, 117.75], [149.25, 153.75, 158.25, 162.75]]
    assert rows["pad_to_aspect_ratio"][0] == [32.25, 39.75, 47.25, 54.75] and rows["pad_to_aspect_ratio"][3] == [0.0] * 4
    with pytest.raises(ValueError, match=r"^Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to "
                                         r"`True`.$"):
        keras.utils.image_dataset_from_directory(str(tmp_path), crop_to_aspect_ratio=True, pad_to_aspect_ratio=True)
    assert capsys.readouterr().out == "Found 1 files belonging to 1 classes.\n"  # counted before the check


def test_einsum_dense_kernels_scale_by_their_input_and_output_axes():
    """Keras 3.15 clones a kernel's VarianceScaling initializer with the einsum's axes (its fans)."""
    glorot = keras.initializers.GlorotUniform(seed=3, input_axes=[0], output_axes=[1, 2])
    assert glorot.get_config() == {"seed": 3, "input_axes": [0], "output_axes": [1, 2]}
    assert _r(_np(glorot((2, 1, 2))).ravel()) == [-0.7449, 1.0762, 0.0791, 0.8354]
    assert _r(_np(keras.initializers.GlorotUniform(seed=3)((2, 1, 2))).ravel()) == \
        [-0.6082, 0.8787, 0.0646, 0.6821]
    layer = keras.layers.EinsumDense("ab,bcd->acd", output_shape=(2, 3), kernel_initializer=keras.initializers.HeNormal(seed=1))
    layer(np.ones((1, 4), "float32"))
    assert _r(_np(layer.kernel).ravel()[:4]) == [0.1018, -0.3963, 0.5074, -0.6341]
    keras.utils.set_random_seed(16)
    mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)
    mha(np.ones((1, 3, 2), "float32"), np.ones((1, 3, 2), "float32"))
    assert [_r(_np(w).ravel()[:3]) for w in mha.weights[::2]] == [
        [0.9661, 0.4962, 0.1698], [0.866, -0.9097, -0.2135], [-0.4716, -0.1297, 1.0512], [0.2291, -0.6757, -0.6784]]


def test_multi_head_attention_takes_the_querys_mask_and_deletes_its_inputs_masks():
    keras.utils.set_random_seed(16)
    x = np.random.RandomState(0).randn(1, 5, 4).astype("float32")
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
    m = np.ones((1, 5, 5), bool)
    m[:, :, 3:] = False
    first = [-0.8269, -0.1436]
    assert _r(_np(mha(x, x, attention_mask=m[:, :1, :]))[0, 0, :2]) == first
    ignored = mha(x, x, query_mask=np.array([[True] * 3 + [False] * 2]))  # the query's mask counts, not query_mask=
    assert np.array_equal(_np(ignored), _np(mha(x, x)))
    e = keras.layers.Embedding(10, 4, mask_zero=True)(np.array([[3, 4, 5, 0, 0]]))
    masked = _np(mha(e, e, attention_mask=m[:, :1, :]))[0, :, 0]
    assert _r(masked) == [0.0191] * 3 + [-0.008] * 2  # the padded queries attend evenly
    assert getattr(e, "_keras_mask", None) is None  # deleted by the call
    assert _r(_np(mha(e, e))[0, :, 0]) == [-0.008, -0.0081, -0.008, -0.0081, -0.0081]


def test_predict_traces_again_for_other_sequence_lengths():
    inputs = keras.Input((None,), dtype="int32")
    pooled = keras.layers.GlobalAveragePooling1D()(
        keras.layers.LSTM(3, return_sequences=True)(keras.layers.Embedding(10, 4, mask_zero=True)(inputs)))
    model = keras.Model(inputs, pooled)
    padded = model.predict(np.array([[1, 2, 0, 0]]), verbose=0)
    assert np.allclose(padded, model.predict(np.array([[1, 2]]), verbose=0), atol=1e-6)
    pooling = keras.Sequential([keras.Input((None, 2)), keras.layers.GlobalMaxPooling1D(), keras.layers.Dense(1)])
    pooling.compile("sgd", "mse")
    assert pooling.predict(np.ones((2, 3, 2)), verbose=0).shape == pooling.predict(np.ones((2, 5, 2)), verbose=0).shape
    pooling.fit(np.ones((2, 3, 2)), np.ones((2, 1)), verbose=0)
    assert len(pooling.fit(np.ones((2, 4, 2)), np.ones((2, 1)), verbose=0).history["loss"]) == 1


@keras.utils.register_keras_serializable(package="P", name="sq")
def _squared(x):
    return x * x


def test_a_registered_functions_config_is_its_registered_name():
    assert keras.utils.serialize_keras_object(_squared) == {"module": "builtins", "class_name": "function",
                                                             "config": "P>sq", "registered_name": "function"}
    assert keras.layers.Dense(2, activation=_squared).get_config()["activation"]["config"] == "P>sq"
    assert keras.utils.deserialize_keras_object(keras.utils.serialize_keras_object(_squared)) is _squared
    assert keras.activations.serialize(keras.activations.relu) == "relu"
    assert keras.activations.deserialize("relu") is keras.activations.relu
    assert keras.activations.deserialize(keras.activations.serialize(_squared)) is _squared


class DistanceLayer(keras.layers.Layer):
    """keras.io's Siamese network: a call of three positional tensors returning a tuple."""

    def call(self, anchor, positive, negative):
        return ops.sum(tf.square(anchor - positive), -1), ops.sum(tf.square(anchor - negative), -1)


def test_a_layer_of_several_positional_tensors_returning_a_tuple():
    a, p, n = (keras.Input((6,), name=name) for name in ("anchor", "positive", "negative"))
    distances = DistanceLayer()(a, p, n)
    assert type(distances) is tuple and [d.shape for d in distances] == [(None,), (None,)]
    model = keras.Model(inputs=[a, p, n], outputs=distances)
    assert len(model.outputs) == 2 and len(model.layers) == 4
    out = model([np.ones((2, 6), "float32"), np.zeros((2, 6), "float32"), np.ones((2, 6), "float32")])
    assert type(out) is tuple and [tuple(o.shape) for o in out] == [(2,), (2,)]
    assert _r(out[0]) == [6.0, 6.0] and _r(out[1]) == [0.0, 0.0]


def test_a_list_holding_tensors_is_packed_and_differentiable():
    v = tf.Variable([1.0, 2.0])
    for convert in (lambda t: tf.reduce_sum(tf.convert_to_tensor([t, 3.0])), lambda t: tf.reduce_sum([t]),
                    lambda t: ops.sum([t])):
        with tf.GradientTape() as tape:
            loss = convert(tf.reduce_sum(v * v))
        assert tape.gradient(loss, v).numpy().tolist() == [2.0, 4.0]  # was None: the list became a constant

    @tf.function
    def traced():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.convert_to_tensor([tf.reduce_sum(v * v), 3.0]))
        return tape.gradient(loss, v)
    assert traced().numpy().tolist() == [2.0, 4.0]
    assert tf.convert_to_tensor([[tf.constant(1), 2], [3, 4]]).numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^cannot compute Pack as input #1\(zero-based\) was "
                                                             r"expected to be a float tensor but is a int32 tensor "
                                                             r"\[Op:Pack\] name: packed$"):
        tf.convert_to_tensor([tf.constant(1.0), tf.constant(1)])


def test_a_regularizer_summed_in_a_compute_loss_override_trains_as_keras():
    class LossModel(keras.Model):
        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            return ops.mean(ops.square(y_pred - y)) + ops.sum(self.losses)

    keras.utils.set_random_seed(6)
    inputs = keras.Input(shape=(4,))
    hidden = keras.layers.Dense(3, kernel_regularizer=keras.regularizers.l2(0.01))(inputs)
    model = LossModel(inputs, keras.layers.Dense(1)(hidden))
    model.compile(optimizer=keras.optimizers.SGD(0.1))
    x = np.random.RandomState(0).random((32, 4)).astype("float32")
    y = np.random.RandomState(1).random((32, 1)).astype("float32")
    history = model.fit(x, y, epochs=2, batch_size=16, verbose=0, shuffle=False)
    assert _r(history.history["loss"], 5) == [0.29013, 0.18288]


def test_a_subclassed_models_layers_show_the_batch_their_traced_step_has(capsys):
    class Recommender(keras.Model):
        def __init__(self):
            super().__init__()
            self.users = keras.layers.Embedding(12, 5)
            self.bias = keras.layers.Embedding(12, 1)

        def call(self, inputs):
            return ops.nn.sigmoid(ops.sum(self.users(inputs[:, 0]), axis=1, keepdims=True) + self.bias(inputs[:, 1]))

    model = Recommender()
    model.compile(loss="binary_crossentropy", optimizer="adam")
    ids = np.random.RandomState(0).randint(0, 12, size=(54, 2))
    model.fit(ids, np.ones((54, 1), "float32"), batch_size=8, epochs=1, verbose=0)  # 54 samples: no static batch
    model.summary()
    rows = [line for line in capsys.readouterr().out.splitlines() if "(Embedding)" in line]
    assert [row.split("│")[2].strip() for row in rows] == ["(None, 5)", "(None, 1)"]


def test_a_subclassed_models_own_seed_generator_comes_before_its_layers_variables():
    keras.backend.clear_session()  # names are unique per session: a fresh one, as a new program's
    class Noisy(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1)
            self.seed_generator = keras.random.SeedGenerator(1337)

        def call(self, x):
            return self.d(x + keras.random.normal(ops.shape(x), seed=self.seed_generator))

    model = Noisy()
    model(np.ones((2, 4), "float32"))
    paths = [v.path for v in model.variables]
    assert paths[0] == "seed_generator/seed_generator_state" and [p.rsplit("/", 1)[1] for p in paths[1:]] == \
        ["kernel", "bias"]
