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


def _same_shapes(target, output, rank_one=False):
    if rank_one and len(target.shape) < 1:
        raise ValueError("Arguments `target` and `output` must be at least rank 1. Received: "
                         f"target.shape={target.shape}, output.shape={output.shape}")
    if len(target.shape) != len(output.shape):
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). Received: "
                         f"target.shape={target.shape}, output.shape={output.shape}")
    for a, b in zip(target.shape, output.shape):
        if a is not None and b is not None and a != b:
            raise ValueError("Arguments `target` and `output` must have the same shape. Received: "
                             f"target.shape={target.shape}, output.shape={output.shape}")


def binary_crossentropy(target, output, from_logits=False):
    """Element by element (no mean over the last axis, unlike the loss); the target is not cast (an
    integer target with a float output fails in the product, as under Keras's TensorFlow backend)."""
    from .. import config

    target, output = _t(target), _t(output)
    _same_shapes(target, output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    p = tf.clip_by_value(output, config.epsilon(), 1.0 - config.epsilon())
    bce = target * tf.math.log(p)
    bce += (1 - target) * tf.math.log(1 - p)
    return -bce


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Over ``axis`` (the target not cast, as ``binary_crossentropy``)."""
    from .. import config

    target, output = _t(target), _t(output)
    _same_shapes(target, output, rank_one=True)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = output / tf.reduce_sum(output, axis, keepdims=True)
    output = tf.clip_by_value(output, config.epsilon(), 1.0 - config.epsilon())
    return -tf.reduce_sum(target * tf.math.log(output), axis)


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


def _channels_last(data_format, where):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"devtrace does not implement keras.ops.{where}(data_format=...) yet")


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    _channels_last(data_format, "conv")
    x, k = _t(inputs), _t(kernel)
    n = len(x.shape) - 2
    strides = [strides] * n if isinstance(strides, int) else list(strides)
    rates = [dilation_rate] * n if isinstance(dilation_rate, int) else list(dilation_rate)
    return tf.nn.convolution(x, k, strides, padding.upper(), dilations=rates)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    _channels_last(data_format, "depthwise_conv")
    x, k = _t(inputs), _t(kernel)
    if len(x.shape) == 3:  # 1-D: Keras runs the 2-D op on a height of one
        out = depthwise_conv(tf.expand_dims(x, 1), tf.expand_dims(k, 0), (1, strides if isinstance(strides, int)
                                                                          else strides[0]), padding)
        return tf.squeeze(out, [1])
    strides = (strides, strides) if isinstance(strides, int) else tuple(strides)
    rates = (dilation_rate, dilation_rate) if isinstance(dilation_rate, int) else tuple(dilation_rate)
    return tf.nn.depthwise_conv2d(x, k, (1,) + strides + (1,), padding.upper(), dilations=rates)


def _pool(op, inputs, pool_size, strides, padding, data_format, where):
    _channels_last(data_format, where)
    x = _t(inputs)
    n = len(x.shape) - 2
    size = [pool_size] * n if isinstance(pool_size, int) else list(pool_size)
    strides = size if strides is None else [strides] * n if isinstance(strides, int) else list(strides)
    return tf.nn.pool(x, size, op, strides=strides, padding=padding.upper())


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("MAX", inputs, pool_size, strides, padding, data_format, "max_pool")


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("AVG", inputs, pool_size, strides, padding, data_format, "average_pool")


from .nn_more import *  # noqa: E402,F401,F403 (the rest of keras.ops.nn)
from .nn_more import __all__ as _more  # noqa: E402

__all__ = _more + ["conv", "depthwise_conv", "max_pool", "average_pool", "binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy", "gelu", "log_softmax", "one_hot", "relu", "relu6", "sigmoid", "silu", "softmax", "softplus", "softsign",
           "swish", "leaky_relu", "elu", "selu", "hard_sigmoid", "hard_silu", "hard_swish", "log_sigmoid", "moments",
           "normalize"]
__getattr__ = _missing("keras.ops.nn")
