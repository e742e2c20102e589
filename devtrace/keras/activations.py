"""Keras activations by name (``'relu'``) or function, each named as Keras's is."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Keras 3's: below ``threshold`` (0) zero, or ``negative_slope`` times ``x - threshold``; capped
    at ``max_value``."""
    if negative_slope == 0.0 and max_value is None and threshold == 0:
        return tf.nn.relu(x)
    x = tf.convert_to_tensor(x)
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return tf.nn.leaky_relu(x, alpha=negative_slope)
        below = tf.nn.relu(-x + threshold) if threshold != 0 else tf.nn.relu(-x)
    if threshold != 0:
        out = tf.where(x > tf.cast(threshold, x.dtype), x, tf.zeros_like(x))
    elif max_value == 6:
        out, max_value = tf.nn.relu6(x), None
    else:
        out = tf.nn.relu(x)
    if max_value is not None:
        out = tf.clip_by_value(out, tf.cast(0.0, x.dtype), tf.cast(max_value, x.dtype))
    if negative_slope != 0.0:
        out = out - negative_slope * below
    return out


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


def celu(x, alpha=1.0):
    x = tf.convert_to_tensor(x)
    return tf.maximum(x, 0.0) + alpha * tf.math.expm1(tf.minimum(x, 0.0) / alpha)


def squareplus(x, b=4):
    x = tf.convert_to_tensor(x)
    return (x + tf.sqrt(tf.square(x) + tf.constant(b, x.dtype))) / 2


def soft_shrink(x, threshold=0.5):
    x = tf.convert_to_tensor(x)
    return tf.where(x > threshold, x - threshold, tf.where(x < -threshold, x + threshold, tf.zeros_like(x)))


def sparse_plus(x):
    x = tf.convert_to_tensor(x)
    return tf.where(x <= -1, tf.zeros_like(x), tf.where(x < 1, 0.25 * tf.pow(x + 1, 2), x))


def glu(x, axis=-1):
    x = tf.convert_to_tensor(x)
    if x.shape[axis] % 2 != 0:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={x.shape} with axis={axis}")
    first, gate = tf.split(x, 2, axis=axis)
    return first * tf.sigmoid(gate)


def tanh_shrink(x):
    x = tf.convert_to_tensor(x)
    return x - tf.tanh(x)


def threshold(x, threshold, default_value):
    x = tf.convert_to_tensor(x)
    return tf.where(x > threshold, x, default_value)


def sparse_sigmoid(x):
    x = tf.convert_to_tensor(x)
    return tf.where(x <= -1, tf.constant(0.0, x.dtype), tf.where(x >= 1, tf.constant(1.0, x.dtype), 0.5 * (x + 1)))


def hard_silu(x):
    x = tf.convert_to_tensor(x)
    return x * hard_sigmoid(x)


def hard_tanh(x):
    return tf.clip_by_value(x, -1.0, 1.0)


def hard_shrink(x, threshold=0.5):
    x = tf.convert_to_tensor(x)
    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))


def mish(x):
    x = tf.convert_to_tensor(x)
    return x * tf.tanh(tf.nn.softplus(x))


def log_sigmoid(x):
    return tf.math.log_sigmoid(x)


def sparsemax(x, axis=-1):
    """The Euclidean projection onto the simplex: ``max(x - τ, 0)``."""
    logits = tf.convert_to_tensor(x)
    ranked = tf.sort(logits, direction="DESCENDING", axis=axis)
    cumulative = tf.cumsum(ranked, axis=axis)
    shape = [1] * len(logits.shape)
    shape[axis] = -1
    r = tf.reshape(tf.range(1, tf.shape(logits)[axis] + 1, dtype=logits.dtype), shape)
    support = ranked - (cumulative - 1) / r > 0
    k = tf.reduce_sum(tf.cast(support, logits.dtype), axis=axis, keepdims=True)
    tau = (tf.reduce_sum(tf.where(support, cumulative, 0.0), axis=axis, keepdims=True) - 1) / k
    return tf.maximum(logits - tau, 0.0)


swish, hard_swish = silu, hard_silu
ALL_OBJECTS_DICT = {f.__name__: f for f in (
    relu, leaky_relu, relu6, softmax, celu, elu, selu, softplus, softsign, squareplus, soft_shrink, sparse_plus, silu,
    gelu, glu, tanh, tanh_shrink, threshold, sigmoid, sparse_sigmoid, exponential, hard_sigmoid, hard_silu, hard_tanh,
    hard_shrink, linear, mish, log_softmax, log_sigmoid, sparsemax)}
ALL_OBJECTS_DICT.update(swish=silu, hard_swish=hard_silu)


def serialize(activation):
    """Keras's: a built-in activation's name; another function's (or object's) serialized dict."""
    from . import serializable

    config = serializable.serialize(activation)
    if isinstance(config, str):
        return config
    if not isinstance(config, dict) or "config" not in config:
        raise ValueError(f"Unknown activation function '{activation}' cannot be serialized due to invalid function "
                         f"name. Make sure to use an activation name that matches the references defined in "
                         f"activations.py or use `@keras.saving.register_keras_serializable()`to register any custom "
                         f"activations. config={config}")
    if config.get("class_name") == "function" and config["config"] in ALL_OBJECTS_DICT and \
            ALL_OBJECTS_DICT[config["config"]] is activation:
        return config["config"]
    return config


def deserialize(config, custom_objects=None):
    """Keras's: an activation function from its config."""
    from . import serializable

    if isinstance(config, str):
        found = ALL_OBJECTS_DICT.get(config) or serializable.get_registered_object(config, custom_objects)
        if found is None:
            raise ValueError(f"Could not interpret activation function identifier: {config}")
        return found
    return serializable.deserialize(config, custom_objects)


def get(identifier):
    """Keras's: ``None`` is ``linear``; a dict a serialized function (or object)."""
    if identifier is None:
        return linear
    if isinstance(identifier, dict):
        from . import serializable

        obj = serializable.deserialize(identifier)
    elif isinstance(identifier, str):
        obj = ALL_OBJECTS_DICT.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


__getattr__ = _missing("keras.activations")
