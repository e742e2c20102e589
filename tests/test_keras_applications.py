"""``keras.applications`` (issue 28): ResNet50, MobileNetV2, MobileNetV3, VGG16, EfficientNetB0, DenseNet121 and
InceptionV3 (and variants: no top, pooling, ``alpha``, other input sizes) built with ``weights=None`` have
Keras 3.15.1's layers, parameter counts, output shapes and ``summary()`` lines; ``weights="imagenet"``
offline fails with Keras's download error; ``preprocess_input`` gives Keras's values. Captured by
``tests/keras3/applications_capture.py`` into ``tests/keras3/applications.json``. The models are
built under ``--compute none`` (shapes planned, nothing computed: VGG16 alone holds 138M weights)."""

import json
import os
import socket
import sys
import urllib.error

import numpy as np
import pytest

import devtrace as tf
from devtrace.keras.datasets import files

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
from applications_cases import (COUNTED, IMAGENET, MODELS, PREPROCESS, build, counts, decode_offline,  # noqa: E402
                                imagenet_offline, preprocess, transfer)

with open(os.path.join(os.path.dirname(__file__), "keras3", "applications.json"), encoding="utf-8") as _f:
    CAPTURED = json.load(_f)


@pytest.fixture
def offline(tmp_path, monkeypatch):
    def fail(url, target, *args):
        raise urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))

    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(files.urllib.request, "urlretrieve", fail)


SLOW_BUILT = {"NASNetMobile_classes"}  # NASNet's 771 layers: the default and one variant are enough in the fast suite


@pytest.mark.parametrize("name", [n if n not in SLOW_BUILT else pytest.param(n, marks=pytest.mark.slow)
                                  for n in MODELS])
def test_built_as_keras(name, monkeypatch):
    monkeypatch.setenv("DEVTRACE_COMPUTE", "none")
    got, want = build(tf.keras, name), CAPTURED["models"][name]
    assert {k: got[k] for k in want if k != "summary"} == {k: v for k, v in want.items() if k != "summary"}
    assert got["summary"] == want["summary"]


QUICK = {"ResNet101", "VGG19", "DenseNet169", "EfficientNetB1", "ConvNeXtSmall", "EfficientNetV2B1"}


@pytest.mark.parametrize("constructor", [c if c in QUICK else pytest.param(c, marks=pytest.mark.slow) for c in COUNTED])
def test_the_family_counted_as_keras(constructor, monkeypatch):
    """The other members of each family: name, layers, parameters, input and output shapes."""
    monkeypatch.setenv("DEVTRACE_COMPUTE", "none")
    assert counts(tf.keras, constructor) == CAPTURED["counted"][constructor]


@pytest.mark.parametrize("constructor", [c if c != "NASNetMobile" else pytest.param(c, marks=pytest.mark.slow)
                                         for c in IMAGENET])
def test_imagenet_weights_offline_fail_as_keras(constructor, offline, monkeypatch, capsys):
    monkeypatch.setenv("DEVTRACE_COMPUTE", "none")
    assert imagenet_offline(tf.keras, constructor) == CAPTURED["imagenet"][constructor]
    assert capsys.readouterr().out.startswith("Downloading data from https://storage.googleapis.com/")


def test_decode_predictions_offline_fails_as_keras(offline):
    assert decode_offline(tf.keras) == CAPTURED["decode"]


@pytest.mark.parametrize("module", PREPROCESS)
def test_preprocess_input_as_keras(module):
    got, want = np.asarray(preprocess(tf.keras, module)), np.asarray(CAPTURED["preprocess"][module])
    assert got.shape == want.shape and np.allclose(got, want, atol=1e-4)


def test_an_application_devtrace_lacks_says_so():
    says = r"^devtrace does not implement tf\.keras\.applications\.InceptionResNetV2 yet$"
    with pytest.raises(AttributeError, match=says):
        tf.keras.applications.InceptionResNetV2  # noqa: B018


def test_the_transfer_learning_tutorials_model_as_keras(monkeypatch):
    """``preprocess_input`` of the symbolic input makes the model's ``true_divide`` and ``subtract``
    (in its summary, not its ``layers``), the frozen base counts no trainable variable; each
    module's ``preprocess_input`` of a tensor (``tests/keras3/transfer.json``)."""
    monkeypatch.setenv("DEVTRACE_COMPUTE", "none")
    with open(os.path.join(os.path.dirname(__file__), "keras3", "transfer.json"), encoding="utf-8") as f:
        want = json.load(f)
    assert transfer(tf.keras) == want


def test_keras_2_weights_files_load_as_keras():
    """The ImageNet weights' layout (Keras 2's ``.h5``: a group per layer): ``legacy/tiny.h5``, written
    and loaded by Keras 3.15.1 (``tests/keras3/legacy_h5_capture.py``), predicts the same here."""
    from legacy_h5_cases import INPUT, tiny

    here = os.path.join(os.path.dirname(__file__), "keras3", "legacy")
    with open(os.path.join(here, "tiny.json")) as f:
        want = json.load(f)["predict"]
    model = tiny(tf.keras)
    model.load_weights(os.path.join(here, "tiny.h5"))
    assert np.allclose(model.predict(INPUT, verbose=0), want, atol=1e-5)
