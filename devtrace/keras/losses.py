"""Keras losses: per-sample losses reduced over the batch (by default their mean, Keras's
``sum_over_batch_size``; ``reduction`` as Keras takes it)."""

from __future__ import annotations

import devtrace as tf
from .serializable import Configurable
from . import config, identifiers, keywords
from .ops import core as kcore, numpy as knp
from devtrace.util.namespace import missing


REDUCTIONS = ("sum_over_batch_size", "sum", "none", None)


class Loss(Configurable):
    name = "loss"
    reduction = "sum_over_batch_size"

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        """A subclass's (``call(y_true, y_pred)`` gives the per-sample losses): named after its class
        unless named."""
        from .engine import snake

        keywords.unimplemented("keras.losses.Loss", dtype=(dtype, (None, "float32")))
        self._configure(reduction, name or snake(type(self).__name__), "keras.losses.Loss")

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def _valid(self, y_true, y_pred):
        """The per-sample losses' mask (Keras's ``_keras_mask`` on them), or ``None``."""
        return None

    def get_config(self) -> dict:
        """Keras's: ``name`` and ``reduction`` first; a built-in loss's own arguments after them (a
        user's subclass adds its own by overriding this)."""
        config = {"name": self.name, "reduction": self.reduction}
        if type(self).__module__.startswith("devtrace."):
            config.update((k, v) for k, v in super().get_config().items() if k not in ("name", "reduction", "dtype"))
        return config

    def _configure(self, reduction, name, cls_name):
        if reduction in ("mean", "mean_with_sample_weight"):
            keywords.unimplemented(cls_name, reduction=(reduction, REDUCTIONS))
        if reduction not in REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. "
                             f"Received: reduction={reduction}")
        self.reduction = reduction
        if name is not None:
            self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The per-sample losses reduced as ``reduction`` says: by default their mean; weighted,
        their sum times the weights over their count (Keras's ``sum_over_batch_size``)."""
        y_true, y_pred = same_rank(_float32(y_true), _float32(y_pred))  # Keras converts both to the loss's dtype
        values = self.call(y_true, y_pred)
        valid = self._valid(y_true, y_pred)
        if valid is not None:  # Keras's apply_mask: averaged over the valid entries only
            mask = tf.cast(valid, values.dtype)
            if self.reduction == "sum_over_batch_size":
                mask = mask * tf.math.divide_no_nan(tf.cast(tf.size(mask), values.dtype), tf.reduce_sum(mask))
            sample_weight = mask if sample_weight is None else \
                tf.multiply(*same_rank(tf.cast(tf.convert_to_tensor(sample_weight), values.dtype), mask))
        if sample_weight is not None:
            weights = tf.cast(tf.convert_to_tensor(sample_weight), values.dtype)
            values, weights = same_rank(values, weights)  # (n, 1) losses and (n,) weights: (n, 1) both
            values = values * weights
        if self.reduction in ("none", None):
            return values
        if self.reduction == "sum":
            return tf.reduce_sum(values)
        return tf.reduce_mean(values)


def _float32(value):
    value = tf.convert_to_tensor(value)
    return value if value.dtype == tf.float32 else tf.cast(value, tf.float32)


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

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        self._configure(reduction, name, "keras.losses.MeanSquaredError")

    def call(self, y_true, y_pred):
        return tf.reduce_mean(tf.square(y_pred - tf.cast(y_true, y_pred.dtype)), axis=-1)


class MeanAbsoluteError(Loss):
    name = "mean_absolute_error"

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        self._configure(reduction, name, "keras.losses.MeanAbsoluteError")

    def call(self, y_true, y_pred):
        return tf.reduce_mean(tf.abs(y_pred - tf.cast(y_true, y_pred.dtype)), axis=-1)


class BinaryCrossentropy(Loss):
    name = "binary_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_crossentropy", dtype=None):
        keywords.unimplemented("keras.losses.BinaryCrossentropy", axis=(axis, -1))
        self.from_logits, self.label_smoothing = from_logits, float(label_smoothing)
        self._configure(reduction, name, "keras.losses.BinaryCrossentropy")

    def call(self, y_true, y_pred):
        y_true = tf.cast(y_true, y_pred.dtype)
        if self.label_smoothing:  # Keras's: the targets pulled towards 0.5
            y_true = y_true * (1.0 - self.label_smoothing) + 0.5 * self.label_smoothing
        if self.from_logits:
            return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred), axis=-1)
        p = tf.clip_by_value(y_pred, config.epsilon(), 1.0 - config.epsilon())
        return tf.reduce_mean(-(y_true * tf.math.log(p) + (1.0 - y_true) * tf.math.log(1.0 - p)), axis=-1)


class SparseCategoricalCrossentropy(Loss):
    name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size", axis=-1,
                 name="sparse_categorical_crossentropy", dtype=None):
        keywords.unimplemented("keras.losses.SparseCategoricalCrossentropy", axis=(axis, -1))
        self.from_logits, self.ignore_class = from_logits, ignore_class
        self._configure(reduction, name, "keras.losses.SparseCategoricalCrossentropy")

    def call(self, y_true, y_pred):
        if y_pred.shape.rank is not None and y_pred.shape.rank > 2:  # per position (a segmentation map)
            if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
                y_true = tf.squeeze(y_true, -1)
            labels = tf.cast(y_true, tf.int32)
        else:  # a vector of labels as it is (TensorFlow's graph has no Reshape then); others flattened
            labels = tf.cast(y_true if y_true.shape.rank == 1 else tf.reshape(y_true, [-1]), tf.int32)
        valid = None
        if self.ignore_class is not None:  # Keras's: an ignored label's loss is 0 (and masked)
            valid = tf.not_equal(labels, self.ignore_class)
            labels = tf.where(valid, labels, tf.zeros_like(labels))
            y_pred = tf.where(tf.expand_dims(valid, -1), y_pred, tf.zeros_like(y_pred))
        logits = y_pred if self.from_logits else tf.math.log(tf.clip_by_value(y_pred, config.epsilon(), 1.0))
        values = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        return values if valid is None else tf.where(valid, values, tf.zeros_like(values))

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("axis", None)  # Keras's config leaves the axis out
        return config

    def _valid(self, y_true, y_pred):
        if self.ignore_class is None:
            return None
        labels = tf.squeeze(y_true, -1) if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1 \
            else y_true
        return tf.reshape(tf.not_equal(tf.cast(labels, tf.int32), self.ignore_class), tf.shape(y_pred)[:-1])


class CategoricalCrossentropy(Loss):
    name = "categorical_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="categorical_crossentropy", dtype=None):
        keywords.unimplemented("keras.losses.CategoricalCrossentropy", axis=(axis, -1))
        self.from_logits, self.label_smoothing = from_logits, float(label_smoothing)
        self._configure(reduction, name, "keras.losses.CategoricalCrossentropy")

    def call(self, y_true, y_pred):
        if self.label_smoothing:  # Keras's: the targets pulled towards 1/num_classes
            y_true = tf.cast(y_true, y_pred.dtype)
            y_true = y_true * (1.0 - self.label_smoothing) + self.label_smoothing / tf.cast(
                tf.shape(y_true)[-1], y_pred.dtype)
        if self.from_logits:
            return tf.nn.softmax_cross_entropy_with_logits(labels=tf.cast(y_true, y_pred.dtype), logits=y_pred)
        p = tf.clip_by_value(y_pred / tf.reduce_sum(y_pred, axis=-1, keepdims=True), config.epsilon(), 1.0)
        return -tf.reduce_sum(tf.cast(y_true, p.dtype) * tf.math.log(p), axis=-1)


class Huber(Loss):
    name = "huber_loss"

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        self.delta = float(delta)
        self._configure(reduction, name, "keras.losses.Huber")

    def call(self, y_true, y_pred):
        error = y_pred - tf.cast(y_true, y_pred.dtype)
        magnitude = tf.abs(error)
        quadratic = 0.5 * tf.square(error)
        linear = self.delta * magnitude - 0.5 * self.delta ** 2
        return tf.reduce_mean(tf.where(magnitude <= self.delta, quadratic, linear), axis=-1)


def _bce_probabilities(y_true, p):
    """Keras's ``binary_crossentropy`` of probabilities: clipped to ``[ε, 1 - ε]``, ``ε`` added in the logs."""
    eps = config.epsilon()
    p = tf.clip_by_value(p, eps, 1.0 - eps)
    return -(y_true * tf.math.log(p + eps) + (1.0 - y_true) * tf.math.log(1.0 - p + eps))


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                              label_smoothing=0.0, axis=-1):
    """Binary cross-entropy down-weighting the well-classified samples by ``(1 - p_t) ** gamma``."""
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = tf.sigmoid(y_pred)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = tf.pow(1.0 - p_t, gamma) * _bce_probabilities(y_true, y_pred)
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return tf.reduce_mean(focal, axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                                   axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / float(y_true.shape[-1])
    if from_logits:
        y_pred = tf.nn.softmax(y_pred, axis=axis)
    output = y_pred / tf.reduce_sum(y_pred, axis=axis, keepdims=True)
    output = tf.clip_by_value(output, config.epsilon(), 1.0 - config.epsilon())
    cce = -y_true * tf.math.log(output)
    return tf.reduce_sum(tf.pow(1.0 - output, gamma) * alpha * cce, axis=axis)


class BinaryFocalCrossentropy(Loss):
    name = "binary_focal_crossentropy"

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                 axis=-1, reduction="sum_over_batch_size", name="binary_focal_crossentropy", dtype=None):
        self.apply_class_balancing, self.alpha, self.gamma = apply_class_balancing, alpha, gamma
        self.from_logits, self.label_smoothing, self.axis = from_logits, label_smoothing, axis
        self._configure(reduction, name, "keras.losses.BinaryFocalCrossentropy")

    def call(self, y_true, y_pred):
        return binary_focal_crossentropy(y_true, y_pred, self.apply_class_balancing, self.alpha, self.gamma,
                                         self.from_logits, self.label_smoothing, self.axis)


class CategoricalFocalCrossentropy(Loss):
    name = "categorical_focal_crossentropy"

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_focal_crossentropy", dtype=None):
        self.alpha, self.gamma, self.from_logits = alpha, gamma, from_logits
        self.label_smoothing, self.axis = label_smoothing, axis
        self._configure(reduction, name, "keras.losses.CategoricalFocalCrossentropy")

    def call(self, y_true, y_pred):
        return categorical_focal_crossentropy(y_true, y_pred, self.alpha, self.gamma, self.from_logits,
                                              self.label_smoothing, self.axis)


class LossFunctionWrapper(Loss):
    """A per-sample loss function (``tf.keras.losses.MSE``) given to ``compile``: averaged over the batch."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        self.fn, self._fn_kwargs = fn, kwargs
        self._configure(reduction, name or getattr(fn, "__name__", "loss"), "keras.losses.LossFunctionWrapper")

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def __repr__(self):
        return f"<LossFunctionWrapper({self.fn}, kwargs={self._fn_kwargs})>"


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


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """Keras's: ``y_true``'s shape is read first, as it is (a Python list has none: Keras's
    AttributeError)."""
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[axis] == 1:
        y_true = tf.squeeze(y_true, axis)
    return SparseCategoricalCrossentropy(from_logits, ignore_class, axis=axis).call(tf.convert_to_tensor(y_true),
                                                                                    tf.convert_to_tensor(y_pred))


def huber(y_true, y_pred, delta=1.0):
    return Huber(delta).call(*_per_sample(y_true, y_pred))


MSE = mse = mean_squared_error
MAE = mae = mean_absolute_error

# ---- Keras 3's further per-sample losses (hinge family, Poisson, KL divergence, log-cosh, MAPE, MSLE,
# cosine similarity), and tf.keras.losses.Reduction (legacy names tf.keras keeps and keras does not) ----

def _pair(y_true, y_pred):
    y_true, y_pred = tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = tf.cast(y_pred, tf.float32)
    return same_rank(tf.cast(y_true, y_pred.dtype), y_pred)


def _hinge_labels(y_true):
    """Labels given as 0/1 are taken as -1/1 (Keras's ``convert_binary_labels_to_hinge``)."""
    binary = tf.reduce_all(tf.logical_or(tf.equal(y_true, 0), tf.equal(y_true, 1)))
    return tf.where(binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return tf.reduce_mean(tf.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return tf.reduce_mean(tf.square(tf.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    pos = tf.reduce_sum(y_true * y_pred, axis=-1)
    neg = tf.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return tf.maximum(neg - pos + 1.0, 0.0)


def _as_keras(y_true, y_pred):
    """Keras's functions' conversion: ``y_pred`` as it is (integers stay integers), ``y_true`` in its
    dtype, and ``epsilon`` too (0 in an integer dtype)."""
    y_pred = kcore.convert_to_tensor(y_pred)
    return kcore.convert_to_tensor(y_true, y_pred.dtype), y_pred, kcore.convert_to_tensor(config.epsilon(), y_pred.dtype)


def poisson(y_true, y_pred):
    """Keras's: integer inputs stay integers (their product with the float log fails as Keras's)."""
    y_true, y_pred, epsilon = _as_keras(y_true, y_pred)
    return knp.mean(y_pred - y_true * knp.log(y_pred + epsilon), axis=-1)


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true, y_pred = tf.clip_by_value(y_true, config.epsilon(), 1.0), tf.clip_by_value(y_pred, config.epsilon(), 1.0)
    return tf.reduce_sum(y_true * tf.math.log(y_true / y_pred), axis=-1)


def log_cosh(y_true, y_pred):
    """Keras's: ``x + softplus(-2x) - log 2`` of ``x = y_pred - y_true``; an integer ``x`` times
    ``-2.0`` fails as Keras's does."""
    y_true, y_pred, _ = _as_keras(y_true, y_pred)
    y_true, y_pred = same_rank(y_true, y_pred)
    log2 = kcore.convert_to_tensor(knp.log(2.0), y_pred.dtype)
    x = y_pred - y_true
    return knp.mean(x + tf.nn.softplus(x * -2.0) - log2, axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """Keras's: integer inputs divide as TensorFlow's ``/`` does (float64), by an epsilon of 0."""
    y_true, y_pred, epsilon = _as_keras(y_true, y_pred)
    y_true, y_pred = same_rank(y_true, y_pred)
    diff = tf.abs((y_true - y_pred) / tf.maximum(tf.abs(y_true), epsilon))
    return 100.0 * knp.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    first = tf.math.log(tf.maximum(y_pred, config.epsilon()) + 1.0)
    second = tf.math.log(tf.maximum(y_true, config.epsilon()) + 1.0)
    return tf.reduce_mean(tf.square(first - second), axis=-1)


def _l2_normalize(x, axis):
    return x * tf.math.rsqrt(tf.maximum(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True), 1e-12))


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    return -tf.reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


def _loss_class(fn, default_name):
    class Wrapped(Loss):
        name = default_name

        def __init__(self, reduction="sum_over_batch_size", name=default_name, dtype=None):
            self._configure(reduction, name, f"keras.losses.{type(self).__name__}")

        def call(self, y_true, y_pred):
            return fn(y_true, y_pred)

    return Wrapped


def _named(cls, name):
    cls.__name__ = cls.__qualname__ = name
    return cls


Hinge = _named(_loss_class(hinge, "hinge"), "Hinge")
SquaredHinge = _named(_loss_class(squared_hinge, "squared_hinge"), "SquaredHinge")
CategoricalHinge = _named(_loss_class(categorical_hinge, "categorical_hinge"), "CategoricalHinge")
Poisson = _named(_loss_class(poisson, "poisson"), "Poisson")
KLDivergence = _named(_loss_class(kl_divergence, "kl_divergence"), "KLDivergence")
LogCosh = _named(_loss_class(log_cosh, "log_cosh"), "LogCosh")
MeanAbsolutePercentageError = _named(_loss_class(mean_absolute_percentage_error, "mean_absolute_percentage_error"),
                                     "MeanAbsolutePercentageError")
MeanSquaredLogarithmicError = _named(_loss_class(mean_squared_logarithmic_error, "mean_squared_logarithmic_error"),
                                     "MeanSquaredLogarithmicError")


class CosineSimilarity(_loss_class(cosine_similarity, "cosine_similarity")):
    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity", dtype=None):
        super().__init__(reduction, name, dtype)
        self.axis = axis

    def call(self, y_true, y_pred):
        return cosine_similarity(y_true, y_pred, self.axis)


class Reduction:
    """``tf.keras.losses.Reduction``: the reductions' legacy names."""
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


def _overlap(y_true, y_pred, axis):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = tf.cast(y_true, y_pred.dtype)
    return y_true, y_pred, tf.reduce_sum(y_true * y_pred, axis=axis)


def dice(y_true, y_pred, axis=None):
    """``1 - 2|y_true * y_pred| / (|y_true| + |y_pred|)``, the sums over ``axis`` (all by default)."""
    y_true, y_pred, intersection = _overlap(y_true, y_pred, axis)
    total = tf.reduce_sum(y_true, axis=axis) + tf.reduce_sum(y_pred, axis=axis) + config.epsilon()
    return 1 - tf.divide(2.0 * intersection, total)


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """Dice with false positives weighted ``alpha`` and false negatives ``beta``."""
    y_true, y_pred, intersection = _overlap(y_true, y_pred, axis)
    fp = tf.reduce_sum((1 - y_pred) * y_true, axis=axis)
    fn = tf.reduce_sum(y_pred * (1 - y_true), axis=axis)
    return 1 - tf.divide(intersection, intersection + fp * alpha + fn * beta + config.epsilon())


class Dice(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, reduction=reduction, name=name, dtype=dtype, axis=axis)
        self.axis = axis


class Tversky(LossFunctionWrapper):
    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky", axis=None, dtype=None):
        super().__init__(tversky, reduction=reduction, name=name, dtype=dtype, alpha=alpha, beta=beta, axis=axis)
        self.alpha, self.beta, self.axis = alpha, beta, axis


MAPE = mape = mean_absolute_percentage_error
MSLE = msle = mean_squared_logarithmic_error
KLD = kld = kl_divergence
ALL_OBJECTS_DICT = identifiers.table(
    Loss, LossFunctionWrapper, KLDivergence, Poisson, BinaryCrossentropy, BinaryFocalCrossentropy,
    CategoricalCrossentropy, CategoricalFocalCrossentropy, SparseCategoricalCrossentropy, MeanSquaredError,
    MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity, LogCosh, Huber,
    Hinge, SquaredHinge, CategoricalHinge, kl_divergence, poisson, binary_crossentropy, binary_focal_crossentropy,
    categorical_crossentropy, categorical_focal_crossentropy, sparse_categorical_crossentropy, mean_squared_error,
    mean_absolute_error, mean_absolute_percentage_error, mean_squared_logarithmic_error, cosine_similarity, log_cosh,
    huber, hinge, squared_hinge, categorical_hinge, Dice, Tversky, dice, tversky, snake_classes=False,
    aliases={"bce": binary_crossentropy, "BCE": binary_crossentropy, "kld": kl_divergence, "KLD": kl_divergence,
             "mae": mean_absolute_error, "MAE": mean_absolute_error, "mse": mean_squared_error,
             "MSE": mean_squared_error, "mape": mean_absolute_percentage_error,
             "MAPE": mean_absolute_percentage_error, "msle": mean_squared_logarithmic_error,
             "MSLE": mean_squared_logarithmic_error})


def get(identifier):
    """Keras's ``losses.get``: a name of a function gives the function (``"mse"``), of a class an
    instance (``"MeanSquaredError"``)."""
    return identifiers.lookup("loss", identifier, ALL_OBJECTS_DICT)


__getattr__ = missing("keras.losses")
