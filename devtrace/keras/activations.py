"""Keras activations by name (``'relu'``) or function."""

from __future__ import annotations

from devtrace.namespace import missing as _missing

import devtrace as tf

_BY_NAME = {
    "relu": lambda x: tf.nn.relu(x), "sigmoid": lambda x: tf.nn.sigmoid(x), "tanh": lambda x: tf.tanh(x),
    "softmax": lambda x: tf.nn.softmax(x), "softplus": lambda x: tf.nn.softplus(x), "elu": lambda x: tf.nn.elu(x),
    "selu": lambda x: tf.nn.selu(x), "linear": lambda x: x,
}


def get(identifier):
    if identifier is None:
        return _BY_NAME["linear"]
    if callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        raise ValueError(f"Could not interpret activation function identifier: {identifier}")
    return _BY_NAME[identifier]


relu, sigmoid, tanh, softmax, linear = (_BY_NAME[n] for n in ("relu", "sigmoid", "tanh", "softmax", "linear"))


__getattr__ = _missing("keras.activations")
