"""Keras losses: per-sample losses averaged over the batch (Keras's default reduction)."""

from __future__ import annotations

import devtrace as tf
from . import keywords
from devtrace.util.namespace import missing


class Loss:
    name = "loss"

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The per-sample losses' mean; weighted, their sum times the weights over their count
        (Keras's ``sum_over_batch_size``)."""
        y_true, y_pred = same_rank(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred))
        values = self.call(y_true, y_pred)
        if sample_weight is None:
            return tf.reduce_mean(values)
        weights = tf.cast(tf.convert_to_tensor(sample_weight), values.dtype)
        if len(weights.shape) > len(values.shape) and weights.shape[-1] == 1:
            weights = tf.squeeze(weights, -1)
        return tf.reduce_mean(values * weights)


def same_rank(y_true, y_pred):
    """Targets of shape ``(n,)`` against predictions ``(n, 1)`` (and the reverse) compared element by
    element, as Keras does — never broadcast to ``(n, n)``."""
    rt, rp = len(y_true.shape), len(y_pred.shape)
    if rt == rp + 1 and y_true.shape[-1] == 1:
        return (y_true, tf.expand_dims(y_pred, -1)) if rp == 1 else (tf.squeeze(y_true, -1), y_pred)
    if rp == rt + 1 and y_pred.shape[-1] == 1:
        return (tf.expand_dims(y_true, -1), y_pred) if rt == 1 else (y_true, tf.squeeze(y_pred, -1))
    return y_true, y_pred


class MeanSquaredError(Loss):
    name = "mean_squared_error"

    def call(self, y_true, y_pred):
        return tf.reduce_mean(tf.square(y_pred - tf.cast(y_true, y_pred.dtype)), axis=-1)


class MeanAbsoluteError(Loss):
    name = "mean_absolute_error"

    def call(self, y_true, y_pred):
        return tf.reduce_mean(tf.abs(y_pred - tf.cast(y_true, y_pred.dtype)), axis=-1)


class BinaryCrossentropy(Loss):
    name = "binary_crossentropy"

    def __init__(self, from_logits=False):
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        y_true = tf.cast(y_true, y_pred.dtype)
        if self.from_logits:
            return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred), axis=-1)
        p = tf.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)
        return tf.reduce_mean(-(y_true * tf.math.log(p) + (1.0 - y_true) * tf.math.log(1.0 - p)), axis=-1)


class SparseCategoricalCrossentropy(Loss):
    name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False):
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        labels = tf.cast(tf.reshape(y_true, [-1]), tf.int32)
        logits = y_pred if self.from_logits else tf.math.log(tf.clip_by_value(y_pred, 1e-7, 1.0))
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


class CategoricalCrossentropy(Loss):
    name = "categorical_crossentropy"

    def __init__(self, from_logits=False):
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        if self.from_logits:
            return tf.nn.softmax_cross_entropy_with_logits(labels=tf.cast(y_true, y_pred.dtype), logits=y_pred)
        p = tf.clip_by_value(y_pred / tf.reduce_sum(y_pred, axis=-1, keepdims=True), 1e-7, 1.0)
        return -tf.reduce_sum(tf.cast(y_true, p.dtype) * tf.math.log(p), axis=-1)


class Huber(Loss):
    name = "huber_loss"

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        keywords.unimplemented("keras.losses.Huber", reduction=(reduction, "sum_over_batch_size"))
        self.delta, self.name = float(delta), name

    def call(self, y_true, y_pred):
        error = y_pred - tf.cast(y_true, y_pred.dtype)
        magnitude = tf.abs(error)
        quadratic = 0.5 * tf.square(error)
        linear = self.delta * magnitude - 0.5 * self.delta ** 2
        return tf.reduce_mean(tf.where(magnitude <= self.delta, quadratic, linear), axis=-1)


_BY_NAME = {"mse": MeanSquaredError, "mean_squared_error": MeanSquaredError, "mae": MeanAbsoluteError,
            "mean_absolute_error": MeanAbsoluteError, "binary_crossentropy": BinaryCrossentropy,
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "categorical_crossentropy": CategoricalCrossentropy, "huber": Huber, "huber_loss": Huber}


class LossFunctionWrapper(Loss):
    """A per-sample loss function (``tf.keras.losses.MSE``) given to ``compile``: averaged over the batch."""

    def __init__(self, fn):
        self.fn, self.name = fn, getattr(fn, "__name__", "loss")

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred)


def mean_squared_error(y_true, y_pred):
    """Per-sample: the mean over the last axis (Keras's ``MSE``)."""
    return MeanSquaredError().call(*same_rank(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred)))


def mean_absolute_error(y_true, y_pred):
    return MeanAbsoluteError().call(*same_rank(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred)))


def _per_sample(y_true, y_pred):
    return same_rank(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred))


def binary_crossentropy(y_true, y_pred, from_logits=False):
    return BinaryCrossentropy(from_logits).call(*_per_sample(y_true, y_pred))


def categorical_crossentropy(y_true, y_pred, from_logits=False):
    return CategoricalCrossentropy(from_logits).call(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred))


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False):
    return SparseCategoricalCrossentropy(from_logits).call(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred))


def huber(y_true, y_pred, delta=1.0):
    return Huber(delta).call(*_per_sample(y_true, y_pred))


MSE = mse = mean_squared_error
MAE = mae = mean_absolute_error


def get(identifier):
    if isinstance(identifier, Loss):
        return identifier
    if callable(identifier) and not isinstance(identifier, str):
        return identifier() if isinstance(identifier, type) and issubclass(identifier, Loss) \
            else LossFunctionWrapper(identifier)
    if identifier not in _BY_NAME:
        raise ValueError(f"Could not interpret loss identifier: {identifier}")
    return _BY_NAME[identifier]()


__getattr__ = missing("keras.losses")
