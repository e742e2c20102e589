"""``keras.datasets`` reads Keras's own cache files and returns what Keras 3.15 returns on them
(``tests/keras3/datasets.json``, captured from real Keras by ``tests/keras3/datasets_capture.py`` on
the stand-in files of ``tests/keras3/fake_datasets.py``); offline with no cached file, Keras's error."""

import json
import os
import socket
import sys
import urllib.error

import pytest

import devtrace as tf
from devtrace.keras.datasets import files

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
import fake_datasets  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "keras3", "datasets.json")) as _f:
    CAPTURED = json.load(_f)


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    path = tmp_path_factory.mktemp("keras_home")
    fake_datasets.make(str(path))
    return str(path)


@pytest.mark.parametrize("i", range(len(fake_datasets.CASES)),
                         ids=[f"{n}-{'-'.join(map(str, k.values())) or 'defaults'}" for n, k in fake_datasets.CASES])
def test_load_data_returns_what_keras_returns_on_its_cache_files(home, monkeypatch, i):
    monkeypatch.setenv("KERAS_HOME", home)
    name, kwargs = fake_datasets.CASES[i]
    assert fake_datasets.call(tf.keras.datasets, name, kwargs) == CAPTURED["cases"][i]


def test_word_indices_and_label_names(home, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", home)
    assert [tf.keras.datasets.imdb.get_word_index(), tf.keras.datasets.reuters.get_word_index()] \
        == CAPTURED["word_index"]
    assert list(tf.keras.datasets.reuters.get_label_names()) == CAPTURED["label_names"]


def test_no_cached_file_offline_raises_keras_error(tmp_path, monkeypatch, capsys):
    def offline(url, target, *args):
        raise urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))

    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(files.urllib.request, "urlretrieve", offline)
    with pytest.raises(Exception) as raised:
        tf.keras.datasets.mnist.load_data()
    assert [type(raised.value).__name__, str(raised.value)] == CAPTURED["offline"]
    assert capsys.readouterr().out == \
        "Downloading data from https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz\n"
    assert not os.path.exists(tmp_path / "datasets" / "mnist.npz")


def test_keras_home_defaults_to_dot_keras_in_home(tmp_path, monkeypatch):
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    fake_datasets.make(str(tmp_path / ".keras"))
    (x, y), _ = tf.keras.datasets.mnist.load_data()
    assert x.shape == (6, 28, 28) and x.dtype.name == "uint8"
