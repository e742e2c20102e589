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


def binary_crossentropy(target, output, from_logits=False):
    """Element by element (no mean over the last axis, unlike the loss)."""
    from .. import config

    target, output = _t(target), _t(output)
    target = tf.cast(target, output.dtype)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    p = tf.clip_by_value(output, config.epsilon(), 1.0 - config.epsilon())
    return -(target * tf.math.log(p) + (1.0 - target) * tf.math.log(1.0 - p))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .. import keywords, losses

    keywords.unimplemented("keras.ops.categorical_crossentropy", axis=(axis, -1))
    return losses.CategoricalCrossentropy(from_logits).call(_t(target), _t(output))


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .. import keywords, losses

    keywords.unimplemented("keras.ops.sparse_categorical_crossentropy", axis=(axis, -1))
    return losses.SparseCategoricalCrossentropy(from_logits).call(_t(target), _t(output))


def leaky_relu(x, negative_slope=0.2):
    return tf.nn.leaky_relu(_t(x), alpha=negative_slope)


def elu(x, alpha=1.0):
    x = _t(x)
    out = tf.nn.elu(x)
    return out if alpha == 1 else tf.where(x > 0, out, alpha * out)


def selu(x):
    return tf.nn.selu(_t(x))


def hard_sigmoid(x):
    x = _t(x)
    return tf.nn.relu6(x + tf.constant(3.0, x.dtype)) / tf.constant(6.0, x.dtype)


def hard_silu(x):
    x = _t(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def log_sigmoid(x):
    return tf.math.log_sigmoid(_t(x))


def moments(x, axes, keepdims=False, synchronized=False):
    from .. import keywords

    keywords.unimplemented("keras.ops.moments", synchronized=(synchronized, False))
    mean, variance = tf.nn.moments(_t(x), axes, keepdims=keepdims)
    return mean, variance


def normalize(x, axis=-1, order=2, epsilon=None):
    from .. import keywords

    keywords.unimplemented("keras.ops.normalize", order=(order, 2))
    x = _t(x)
    return tf.nn.l2_normalize(x, axis=axis, epsilon=1e-12 if epsilon is None else epsilon * epsilon)


__all__ = ["binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy", "gelu", "log_softmax", "one_hot", "relu", "relu6", "sigmoid", "silu", "softmax", "softplus", "softsign",
           "swish", "leaky_relu", "elu", "selu", "hard_sigmoid", "hard_silu", "hard_swish", "log_sigmoid", "moments",
           "normalize"]
__getattr__ = _missing("keras.ops.nn")
