"""Keras activations by name (``'relu'``) or function, each named as Keras's is."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf


def relu(x):
    return tf.nn.relu(x)


def sigmoid(x):
    return tf.nn.sigmoid(x)


def tanh(x):
    return tf.tanh(x)


def softmax(x, axis=-1):
    return tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return tf.nn.log_softmax(x, axis=axis)


def softplus(x):
    return tf.nn.softplus(x)


def softsign(x):
    return tf.nn.softsign(x)


def elu(x):
    return tf.nn.elu(x)


def selu(x):
    return tf.nn.selu(x)


def exponential(x):
    return tf.exp(x)


def relu6(x):
    return tf.nn.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return tf.nn.leaky_relu(x, alpha=negative_slope)


def hard_sigmoid(x):
    """Keras 3's: ``relu6(x + 3) / 6``."""
    return tf.nn.relu6(tf.convert_to_tensor(x) + 3.0) / 6.0


def silu(x):
    x = tf.convert_to_tensor(x)
    return x * tf.nn.sigmoid(x)


def gelu(x, approximate=False):
    """``x * Φ(x)`` through ``Erf`` (or Keras's tanh approximation)."""
    x = tf.convert_to_tensor(x)
    if approximate:
        inner = 0.7978845608028654 * (x + 0.044715 * tf.pow(x, 3))
        return 0.5 * x * (1.0 + tf.tanh(inner))
    return 0.5 * x * (1.0 + tf.math.erf(x / 1.4142135623730951))


def linear(x):
    return x


swish = silu
_BY_NAME = {f.__name__: f for f in (relu, sigmoid, tanh, softmax, log_softmax, softplus, softsign, elu, selu,
                                    exponential, relu6, leaky_relu, hard_sigmoid, silu, gelu, linear)}
_BY_NAME["swish"] = silu


def get(identifier):
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        raise ValueError(f"Could not interpret activation function identifier: {identifier}")
    return _BY_NAME[identifier]


__getattr__ = _missing("keras.activations")
