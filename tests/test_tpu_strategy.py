"""tf.distribute.TPUStrategy (issue 28: a name that cannot work without a TPU raises TensorFlow's own
error): tensorflow-cpu 2.21 without a TPU name raises this ValueError (probe in the oracle venv)."""

import pytest

import devtrace as tf


def test_no_tpu_name_is_tensorflows_value_error(monkeypatch):
    monkeypatch.delenv("TPU_NAME", raising=False)
    with pytest.raises(ValueError, match=r"^Please provide a TPU Name to connect to\.$"):
        tf.distribute.TPUStrategy()


def test_a_tpu_to_connect_to_says_devtrace_has_none():
    with pytest.raises(NotImplementedError, match=r"^devtrace does not implement tf.distribute.TPUStrategy on a TPU"):
        tf.distribute.TPUStrategy(object())
