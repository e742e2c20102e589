"""``keras.ops.nn`` on devtrace's ``tf.nn``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf


def _t(x):
    return tf.convert_to_tensor(x)


def relu(x):
    return tf.nn.relu(_t(x))


def relu6(x):
    return tf.nn.relu6(_t(x))


def sigmoid(x):
    return tf.sigmoid(_t(x))


def silu(x):
    x = _t(x)
    return x * tf.sigmoid(x)


swish = silu


def softplus(x):
    return tf.nn.softplus(_t(x))


def softsign(x):
    return tf.nn.softsign(_t(x))


def gelu(x, approximate=True):
    return tf.nn.gelu(_t(x), approximate=approximate)


def softmax(x, axis=-1):
    return tf.nn.softmax(_t(x), axis=axis)


def log_softmax(x, axis=-1):
    return tf.nn.log_softmax(_t(x), axis=axis)


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    return tf.one_hot(tf.cast(_t(x), tf.int64), num_classes, axis=axis, dtype=dtype or tf.float32)


__all__ = ["gelu", "log_softmax", "one_hot", "relu", "relu6", "sigmoid", "silu", "softmax", "softplus", "softsign",
           "swish"]
__getattr__ = _missing("keras.ops.nn")
