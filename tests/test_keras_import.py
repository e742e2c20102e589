"""``import keras`` answered by devtrace (issue 29 item 1): Keras 3 is TensorFlow 2.21's ``tf.keras``,
so ``keras.X`` is devtrace's ``tf.keras.X``, the namespaces' real differences kept
(``tests/keras3/import.json``, captured from Keras 3.15 / TensorFlow 2.21 by
``tests/keras3/import_capture.py``); a backend other than TensorFlow stops the import in one line."""

import importlib
import json
import os
import sys

import pytest

from conftest import devtrace

from devtrace import as_tensorflow

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
from import_probes import PROBES  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "keras3", "import.json")) as _f:
    CAPTURED = json.load(_f)


@pytest.fixture
def installed(monkeypatch, tmp_path):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.delenv("KERAS_BACKEND", raising=False)
    as_tensorflow.install()
    yield tmp_path
    as_tensorflow.uninstall()


def _evaluate(expression, keras, tf):
    try:
        value = eval(expression, {"keras": keras, "tf": tf})
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return [type(e).__name__, str(e)]
    return repr(value) if isinstance(value, (bool, str)) else "<object>"


@pytest.mark.parametrize("expression", PROBES)
def test_keras_and_tf_keras_as_in_tensorflow_2_21(installed, expression):
    import keras
    import tensorflow as tf

    assert _evaluate(expression, keras, tf) == CAPTURED[expression]


def test_import_forms_give_devtraces_objects(installed):
    import keras
    import keras.datasets.mnist
    from keras import layers
    from keras.layers import Dense
    from keras.datasets import imdb

    import devtrace

    assert layers.Dense is Dense is devtrace.keras.layers.Dense
    assert keras.datasets.mnist.load_data is devtrace.keras.datasets.mnist.load_data
    assert imdb.get_word_index is devtrace.keras.datasets.imdb.get_word_index
    assert importlib.import_module("keras") is keras


def test_a_module_keras_lacks_and_one_devtrace_lacks(installed):
    with pytest.raises(ModuleNotFoundError, match=r"^No module named 'keras.nope'$"):
        importlib.import_module("keras.nope")
    with pytest.raises(ModuleNotFoundError, match=r"^devtrace does not implement keras.src.backend yet$"):
        importlib.import_module("keras.src.backend")


def test_devtrace_answers_keras_even_where_a_keras_package_is_installed(installed, tmp_path, monkeypatch):
    fake = tmp_path / "site" / "keras"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('the real keras was imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    import keras

    assert keras.__version__ == CAPTURED["keras.__version__"].strip("'")


@pytest.mark.parametrize("how", ["unset", "env", "config"])
def test_tensorflow_backend_however_chosen(installed, monkeypatch, how):
    if how == "env":
        monkeypatch.setenv("KERAS_BACKEND", "tensorflow")
    if how == "config":
        (installed / "keras.json").write_text('{"backend": "tensorflow", "floatx": "float32"}')
    import keras

    assert keras.layers.Dense(2).units == 2


@pytest.mark.parametrize("how", ["env", "config"])
def test_another_backend_says_devtrace_answers_only_tensorflow(tmp_path, how):
    program = tmp_path / "p.py"
    program.write_text("import keras\nprint('not reached')\n")
    env = {"KERAS_HOME": str(tmp_path / "home")}
    os.makedirs(env["KERAS_HOME"])
    if how == "env":
        env["KERAS_BACKEND"] = "jax"
        where = "KERAS_BACKEND"
    else:
        with open(os.path.join(env["KERAS_HOME"], "keras.json"), "w") as f:
            f.write('{"backend": "torch"}')
        where = os.path.join(env["KERAS_HOME"], "keras.json")
    r = devtrace("run", str(program), env=env)
    backend = "jax" if how == "env" else "torch"
    assert r.returncode == 1 and "not reached" not in r.stdout
    assert r.stderr.splitlines()[-1] == (f"Error: p.py raised BackendError: devtrace answers only Keras's TensorFlow "
                                         f"backend; this program asks for backend '{backend}' ({where})")


def test_uninstall_forgets_keras(installed):
    import keras  # noqa: F401

    as_tensorflow.uninstall()
    assert "keras" not in sys.modules or not hasattr(sys.modules["keras"], "__devtrace__")
    as_tensorflow.install()
