"""keras.utils.plot_model without pydot: Keras's ImportError in a program (tests/tf221's keras_backend
capture), and in a notebook the same line printed and nothing drawn, so the notebook's next cells run
(keras/src/utils/model_visualization.py's IPython branch)."""

import sys
import types

import pytest

import devtrace as tf


@pytest.fixture
def no_pydot(monkeypatch):
    monkeypatch.setitem(sys.modules, "pydot", None)  # `import pydot` raises ImportError
    monkeypatch.setitem(sys.modules, "pydot_ng", None)


def _model():
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])


def test_in_a_notebook_the_line_is_printed_and_nothing_drawn(no_pydot, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "IPython.core.magics.namespace", types.ModuleType("namespace"))
    assert tf.keras.utils.plot_model(_model(), show_shapes=True) is None
    assert capsys.readouterr().out == "You must install pydot (`pip install pydot`) for `plot_model` to work.\n"


def test_in_a_program_it_is_keras_import_error(no_pydot):
    with pytest.raises(ImportError, match=r"^You must install pydot \(`pip install pydot`\) for `plot_model` to work\.$"):
        tf.keras.utils.plot_model(_model())
