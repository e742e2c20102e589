"""Keras 3's preprocessing layers on devtrace (Rescaling, Resizing, CenterCrop, Normalization,
CategoryEncoding, Discretization, Hashing, StringLookup, IntegerLookup, TextVectorization; the
seeded augmentations RandomFlip/Rotation/Zoom/Translation/Contrast/Brightness/Crop, twice each;
GroupNormalization; keras.ops.image's color conversions, affine_transform, extract_patches, pad and crop) give
Keras 3.15's outputs and vocabularies (tests/keras_layers/captures/preprocessing.json, captured
with TensorFlow 2.21 by tests/keras_layers/capture_preprocessing.py)."""

import json
import pathlib
import sys

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices.discovery import discover
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

HERE = pathlib.Path(__file__).resolve().parent / "keras_layers"
sys.path.insert(0, str(HERE))
from preprocessing_cases import CASES  # noqa: E402

CAPTURED = json.loads((HERE / "captures" / "preprocessing.json").read_text())


def _plain(value):
    if isinstance(value, list):
        return [_plain(v) for v in value]
    array = np.asarray(value)
    if array.dtype.kind in "SO":
        return [v.decode() if isinstance(v, bytes) else v for v in array.reshape(-1).tolist()]
    return {"dtype": str(array.dtype), "value": array}


def _check(got, want):
    if isinstance(want, dict) and want["dtype"].startswith("<U"):  # one token of a vocabulary
        assert str(got["value"]) == want["value"]
    elif isinstance(want, dict):
        assert got["dtype"] == want["dtype"]
        np.testing.assert_allclose(got["value"], np.asarray(want["value"]), atol=1e-4)
    elif want and isinstance(want[0], dict):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
    else:
        assert got == want


@pytest.mark.parametrize("name", list(CASES))
def test_outputs_are_keras(name):
    _check(_plain(CASES[name](tf.keras)), CAPTURED[name])


def test_text_classification_pipeline_trains():
    """keras.io's text classification shape: TextVectorization in a Sequential before Embedding."""
    texts = np.array(["good movie", "bad movie", "great film", "awful film"])
    vectorize = tf.keras.layers.TextVectorization(max_tokens=20, output_sequence_length=3)
    vectorize.adapt(texts)
    model = tf.keras.Sequential([tf.keras.layers.Embedding(20, 4), tf.keras.layers.GlobalAveragePooling1D(),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile("adam", "binary_crossentropy")
    history = model.fit(vectorize(texts), np.array([1, 0, 1, 0]), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_lookups_run_tensorflows_table_op_on_the_cpu():
    """As Keras's TensorFlow backend: a StaticHashTable's LookupTableFindV2, CPU-only (a GPU program
    falls back for it)."""
    ctx = reset_context(discover(simulate="1"), env={})
    layer = tf.keras.layers.StringLookup(vocabulary=["a", "b"])
    start = len(ctx.trace.events)
    with tf.device("/GPU:0"):
        layer(np.array(["a", "c"]))
    finds = [e for e in ctx.trace.events[start:] if isinstance(e, ev.OpPlaced) and e.op == "LookupTableFindV2"]
    assert [e.device.split("/")[-1] for e in finds] == ["device:CPU:0"]


def test_keras_preprocessing_namespace_and_image_data_generator_settings():
    # TF 2.21 / Keras 3.15.1 (/work/tfvenv): guide data.ipynb's ImageDataGenerator(rescale=1./255, rotation_range=20)
    g = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1. / 255, rotation_range=20)
    assert (g.zoom_range, g.rescale, g.data_format, g.dtype, g.channel_axis) == (
        [1.0, 1.0], 0.00392156862745098, "channels_last", "float32", 3)
    assert tf.keras.preprocessing.sequence.pad_sequences([[1, 2], [3]]).tolist() == [[1, 2], [0, 3]]
    with pytest.raises(ValueError, match=r"^`zoom_range` should be a float or a tuple or list of two floats. "
                                         r"Received: \(1, 2, 3\)$"):
        tf.keras.preprocessing.image.ImageDataGenerator(zoom_range=(1, 2, 3))
    assert sorted(n for n in dir(tf.keras.preprocessing) if not n.startswith("_")) == [
        "image", "image_dataset_from_directory", "sequence", "text", "text_dataset_from_directory",
        "timeseries_dataset_from_array"]
    with pytest.raises(AttributeError, match="devtrace does not implement keras.preprocessing.image."
                                             "ImageDataGenerator.flow yet"):
        g.flow(np.zeros((1, 2, 2, 3)))
