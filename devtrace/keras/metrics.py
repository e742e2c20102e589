"""Keras metrics: running means of a per-sample value (``Mean``, the losses as metrics, the accuracy
variants, top-k accuracies), confusion counts with ``Precision``/``Recall``, and ``AUC`` (Keras's
200 thresholds, trapezoidal interpolation), by name or object. The running totals are kept on the
host: the per-batch values are computed by devtrace's ops."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import numpy as np

import devtrace as tf
from . import identifiers, keywords, losses
from .metric_base import Mean, Metric, _default_name, _result  # noqa: F401 (keras.metrics.Mean, Metric)


class MeanMetricWrapper(Mean):
    """A per-sample function ``fn(y_true, y_pred, **kwargs)`` averaged over every sample seen."""

    fn = None  # a subclass's own function (Accuracy's …)

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        self._fn, self._fn_kwargs = fn, kwargs
        super().__init__(name, dtype)

    def _floats(self, y_true, y_pred):
        """Predictions in floats (int32 ones would average in integers), the targets in theirs."""
        y_true, y_pred = losses.same_rank(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred))
        if not y_pred.dtype.is_floating:
            y_pred = tf.cast(y_pred, tf.float32)
        return tf.cast(y_true, y_pred.dtype), y_pred

    raw = False  # the function converts its arguments as Keras's own does: given them as they are, as Keras gives them

    def update_state(self, y_true, y_pred, sample_weight=None):
        fn = getattr(self, "_fn", None) or type(self).fn
        args = (y_true, y_pred) if self.raw else self._floats(y_true, y_pred)
        super().update_state(fn(*args, **getattr(self, "_fn_kwargs", {})), sample_weight)


class _Wrapped(MeanMetricWrapper):
    """Keras's metric classes over one function: ``(name, dtype)`` as theirs."""

    def __init__(self, name=None, dtype=None):
        Mean.__init__(self, name, dtype)


def _matches(a, b):
    return tf.cast(tf.equal(a, b), tf.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    return _matches(tf.cast(y_true, tf.float32), tf.cast(y_pred > threshold, tf.float32))


def categorical_accuracy(y_true, y_pred):
    return _matches(tf.argmax(y_true, axis=-1), tf.argmax(y_pred, axis=-1))


def sparse_categorical_accuracy(y_true, y_pred):
    labels = tf.cast(tf.reshape(y_true, [-1]), tf.int64)
    return _matches(labels, tf.argmax(tf.reshape(y_pred, [-1, y_pred.shape[-1]]), axis=-1))


def accuracy(y_true, y_pred):
    return _matches(tf.cast(y_true, y_pred.dtype), y_pred)


class Accuracy(_Wrapped):
    fn = staticmethod(accuracy)


class BinaryAccuracy(_Wrapped):
    fn = staticmethod(binary_accuracy)

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(name, dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        Mean.update_state(self, binary_accuracy(*self._floats(y_true, y_pred), threshold=self.threshold),
                          sample_weight)


class CategoricalAccuracy(_Wrapped):
    fn = staticmethod(categorical_accuracy)


class SparseCategoricalAccuracy(_Wrapped):
    fn = staticmethod(sparse_categorical_accuracy)

    def update_state(self, y_true, y_pred, sample_weight=None):
        Mean.update_state(self, sparse_categorical_accuracy(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred)),
                          sample_weight)


class MeanSquaredError(_Wrapped):
    fn = staticmethod(losses.mean_squared_error)


class MeanAbsoluteError(_Wrapped):
    fn = staticmethod(losses.mean_absolute_error)


def _weights_like(sample_weight, size) -> np.ndarray:
    """One weight a value: the sample weights broadcast over each sample's values, flattened."""
    w = np.asarray(tf.convert_to_tensor(sample_weight).numpy(), np.float64).reshape(-1)
    return np.repeat(w, size // w.size) if w.size and size % w.size == 0 else np.broadcast_to(w, (size,))


def _no_nan(x, y):
    """``x / y``, 0 where ``y`` is 0 (Keras's ``divide_no_nan``)."""
    return np.divide(x, y, out=np.zeros(np.broadcast(x, y).shape), where=y != 0)


class AUC(Metric):
    """ROC AUC from confusion counts at ``num_thresholds`` evenly spaced thresholds."""

    _auto_name = True

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        if curve not in ("ROC", "PR"):
            keywords.unimplemented("keras.metrics.AUC", curve=(curve, "ROC"))
        keywords.unimplemented("keras.metrics.AUC",
                               summation_method=(summation_method, "interpolation"), thresholds=(thresholds, None),
                               multi_label=(multi_label, False), num_labels=(num_labels, None),
                               label_weights=(label_weights, None), from_logits=(from_logits, False))
        eps = 1e-7
        inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._thresholds = np.array([0.0 - eps] + inner + [1.0 + eps])
        self.curve = curve
        super().__init__(name, dtype)

    def reset_state(self):
        n = getattr(self, "_thresholds", np.zeros(0)).size
        self._tp, self._fp, self._tn, self._fn = (np.zeros(n) for _ in range(4))

    def update_state(self, y_true, y_pred, sample_weight=None):
        t = np.asarray(tf.convert_to_tensor(y_true).numpy(), np.float64).reshape(-1) > 0.5
        p = np.asarray(tf.convert_to_tensor(y_pred).numpy(), np.float64).reshape(-1)
        w = np.ones_like(p) if sample_weight is None else _weights_like(sample_weight, p.size)
        above = p[None, :] > self._thresholds[:, None]
        self._tp += ((above & t) * w).sum(1)
        self._fp += ((above & ~t) * w).sum(1)
        self._fn += ((~above & t) * w).sum(1)
        self._tn += ((~above & ~t) * w).sum(1)

    def _pr_auc(self) -> float:
        """Keras's interpolated area under the precision-recall curve (Davis & Goadrich: true and
        predicted positives linear between thresholds)."""
        tp, fp, fn = self._tp, self._fp, self._fn
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        slope = _no_nan(dtp, np.maximum(p[:-1] - p[1:], 0))
        intercept = tp[1:] - slope * p[1:]
        ratio = np.where((p[:-1] > 0) & (p[1:] > 0), _no_nan(p[:-1], np.maximum(p[1:], 0)), 1.0)
        return float(np.sum(_no_nan(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0))))

    def result(self):
        if self.curve == "PR":
            return _result(self._pr_auc())
        tpr = np.divide(self._tp, self._tp + self._fn, out=np.zeros_like(self._tp), where=(self._tp + self._fn) > 0)
        fpr = np.divide(self._fp, self._fp + self._tn, out=np.zeros_like(self._fp), where=(self._fp + self._tn) > 0)
        area = np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2.0)
        return _result(float(area))


# ---- Keras 3's further metrics: running means of the losses, RootMeanSquaredError, top-k accuracies,
# confusion counts with Precision and Recall at a threshold (0.5 by default) ----

def _wrapper(fn, cls_name, default_name, raw=False):
    def __init__(self, name=default_name, dtype=None):
        Mean.__init__(self, name, dtype)

    return type(cls_name, (_Wrapped,), {"fn": staticmethod(fn), "__init__": __init__, "__module__": __name__,
                                        "raw": raw})


Hinge = _wrapper(losses.hinge, "Hinge", "hinge")
SquaredHinge = _wrapper(losses.squared_hinge, "SquaredHinge", "squared_hinge")
CategoricalHinge = _wrapper(losses.categorical_hinge, "CategoricalHinge", "categorical_hinge")
KLDivergence = _wrapper(losses.kl_divergence, "KLDivergence", "kl_divergence")
Poisson = _wrapper(losses.poisson, "Poisson", "poisson", raw=True)
LogCoshError = _wrapper(losses.log_cosh, "LogCoshError", "logcosh", raw=True)
MeanAbsolutePercentageError = _wrapper(losses.mean_absolute_percentage_error, "MeanAbsolutePercentageError",
                                       "mean_absolute_percentage_error", raw=True)
MeanSquaredLogarithmicError = _wrapper(losses.mean_squared_logarithmic_error, "MeanSquaredLogarithmicError",
                                       "mean_squared_logarithmic_error")


class _FromLogits(_Wrapped):
    loss = None

    def __init__(self, name=None, dtype=None, from_logits=False):
        super().__init__(name, dtype)
        self.from_logits = from_logits

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = self._floats(y_true, y_pred)
        Mean.update_state(self, type(self).loss(from_logits=self.from_logits).call(y_true, y_pred), sample_weight)


class BinaryCrossentropy(_FromLogits):
    loss = losses.BinaryCrossentropy


class CategoricalCrossentropy(_FromLogits):
    loss = losses.CategoricalCrossentropy


class SparseCategoricalCrossentropy(_FromLogits):
    loss = losses.SparseCategoricalCrossentropy

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Keras's function on the values as given (a Python list of labels fails there, as in Keras)."""
        Mean.update_state(self, losses.sparse_categorical_crossentropy(y_true, y_pred, self.from_logits), sample_weight)


class CosineSimilarity(_Wrapped):
    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(name, dtype)
        self.axis = axis

    def update_state(self, y_true, y_pred, sample_weight=None):
        Mean.update_state(self, -losses.cosine_similarity(y_true, y_pred, self.axis), sample_weight)


class RootMeanSquaredError(Mean):
    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = MeanMetricWrapper._floats(self, y_true, y_pred)
        super().update_state(tf.square(y_pred - y_true), sample_weight)

    def result(self):
        return tf.sqrt(super().result())


def _in_top_k(labels, y_pred, k):
    predictions = np.asarray(tf.convert_to_tensor(y_pred).numpy(), np.float64)
    predictions = predictions.reshape(-1, predictions.shape[-1])
    labels = np.asarray(labels).reshape(-1)
    target = predictions[np.arange(labels.size), labels]
    return ((predictions > target[:, None]).sum(-1) < k).astype(np.float32)


class TopKCategoricalAccuracy(Mean):
    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        self.k = k
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        labels = np.asarray(tf.convert_to_tensor(y_true).numpy()).argmax(-1)
        super().update_state(_in_top_k(labels, y_pred, self.k), sample_weight)


class SparseTopKCategoricalAccuracy(Mean):
    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False):
        self.k, self.from_sorted_ids = k, from_sorted_ids
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """``from_sorted_ids``: ``y_pred`` holds each sample's predicted class ids, best first."""
        labels = np.asarray(tf.convert_to_tensor(y_true).numpy()).astype(np.int64).reshape(-1)
        if self.from_sorted_ids:
            ids = np.asarray(tf.convert_to_tensor(y_pred).numpy()).reshape(labels.size, -1)[:, :self.k]
            matches = (ids == labels[:, None]).any(-1).astype(np.float32)
        else:
            matches = _in_top_k(labels, y_pred, self.k)
        super().update_state(matches, sample_weight)


class _Confusion(Metric):
    """Weighted counts of (label, prediction > threshold) outcomes."""

    _auto_name = True

    def __init__(self, thresholds=None, name=None, dtype=None, top_k=None, class_id=None):
        """``top_k``: only each sample's k highest scores can be positive (the threshold then -inf by
        default); ``class_id``: the counts of that one class (the last axis)."""
        self.top_k, self.class_id = top_k, class_id
        self.thresholds = thresholds if thresholds is not None else (0.5 if top_k is None else -np.inf)
        super().__init__(name, dtype)

    def reset_state(self):
        self._counts = np.zeros((2, 2))  # [label][predicted]

    def update_state(self, y_true, y_pred, sample_weight=None):
        labels = np.asarray(tf.convert_to_tensor(y_true).numpy(), np.float64) > 0.5
        scores = np.asarray(tf.convert_to_tensor(y_pred).numpy(), np.float64)
        if self.top_k is not None:  # the k highest of each row kept (ties: the first), the others -inf
            order = np.argsort(-scores, axis=-1, kind="stable")[..., :self.top_k]
            kept = np.full_like(scores, -np.inf)
            np.put_along_axis(kept, order, np.take_along_axis(scores, order, axis=-1), axis=-1)
            scores = kept
        if self.class_id is not None:
            labels, scores = labels[..., self.class_id], scores[..., self.class_id]
        predicted = scores > np.asarray(self.thresholds, np.float64).reshape(-1)[0]
        weights = np.ones_like(scores)
        if sample_weight is not None:  # one weight a sample: over its values
            w = np.asarray(tf.convert_to_tensor(sample_weight).numpy(), np.float64)
            weights = np.broadcast_to(w.reshape(w.shape + (1,) * (scores.ndim - w.ndim)), scores.shape)
        for t in (0, 1):
            for p in (0, 1):
                self._counts[t, p] += weights[(labels == bool(t)) & (predicted == bool(p))].sum()

    def _count(self, t, p):
        return float(self._counts[t, p])


def _count_metric(cls_name, t, p):
    def result(self):
        return _result(self._count(t, p))

    return type(cls_name, (_Confusion,), {"result": result, "__module__": __name__})


TruePositives = _count_metric("TruePositives", 1, 1)
FalsePositives = _count_metric("FalsePositives", 0, 1)
TrueNegatives = _count_metric("TrueNegatives", 0, 0)
FalseNegatives = _count_metric("FalseNegatives", 1, 0)


class Precision(_Confusion):
    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, name, dtype, top_k, class_id)

    def result(self):
        tp, fp = self._count(1, 1), self._count(0, 1)
        return _result(tp / (tp + fp) if tp + fp else 0.0)


class Recall(_Confusion):
    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, name, dtype, top_k, class_id)

    def result(self):
        tp, fn = self._count(1, 1), self._count(1, 0)
        return _result(tp / (tp + fn) if tp + fn else 0.0)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    labels = np.asarray(tf.convert_to_tensor(y_true).numpy()).argmax(-1)
    return tf.constant(_in_top_k(labels, y_pred, k))


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    keywords.unimplemented("keras.metrics.sparse_top_k_categorical_accuracy", from_sorted_ids=(from_sorted_ids, False))
    labels = np.asarray(tf.convert_to_tensor(y_true).numpy()).astype(np.int64).reshape(-1)
    return tf.constant(_in_top_k(labels, y_pred, k))


# keras.metrics' loss functions are keras.losses' own
binary_crossentropy, binary_focal_crossentropy = losses.binary_crossentropy, losses.binary_focal_crossentropy
categorical_crossentropy, categorical_focal_crossentropy = (losses.categorical_crossentropy,
                                                            losses.categorical_focal_crossentropy)
sparse_categorical_crossentropy, categorical_hinge = losses.sparse_categorical_crossentropy, losses.categorical_hinge
hinge, squared_hinge, huber, kl_divergence = losses.hinge, losses.squared_hinge, losses.huber, losses.kl_divergence
log_cosh, poisson = losses.log_cosh, losses.poisson
mean_absolute_error, mean_squared_error = losses.mean_absolute_error, losses.mean_squared_error
mean_absolute_percentage_error = losses.mean_absolute_percentage_error
mean_squared_logarithmic_error = losses.mean_squared_logarithmic_error


from .metrics_more import (BinaryIoU, ConcordanceCorrelation, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU,  # noqa: E402
                           PearsonCorrelation, PrecisionAtRecall, R2Score, RecallAtPrecision, SensitivityAtSpecificity,
                           SpecificityAtSensitivity, concordance_correlation, pearson_correlation)
from .metrics_fscore import F1Score, FBetaScore  # noqa: E402

_CLASS_NAMES = ("Metric", "Mean", "Sum", "MeanMetricWrapper", "MeanSquaredError", "RootMeanSquaredError",
                "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "CosineSimilarity",
                "LogCoshError", "R2Score", "AUC", "FalseNegatives", "FalsePositives", "Precision", "PrecisionAtRecall",
                "Recall", "RecallAtPrecision", "SensitivityAtSpecificity", "SpecificityAtSensitivity",
                "TrueNegatives", "TruePositives", "ConcordanceCorrelation", "PearsonCorrelation", "Hinge",
                "SquaredHinge", "CategoricalHinge", "KLDivergence", "Poisson", "BinaryCrossentropy",
                "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "Accuracy", "BinaryAccuracy",
                "CategoricalAccuracy", "SparseCategoricalAccuracy", "TopKCategoricalAccuracy",
                "SparseTopKCategoricalAccuracy", "F1Score", "FBetaScore", "IoU", "BinaryIoU", "MeanIoU", "OneHotIoU",
                "OneHotMeanIoU")
ALL_OBJECTS_DICT = identifiers.table(*(globals()[n] for n in _CLASS_NAMES if n in globals()), aliases={
    "bce": BinaryCrossentropy, "BCE": BinaryCrossentropy, "mse": MeanSquaredError, "MSE": MeanSquaredError,
    "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError, "mape": MeanAbsolutePercentageError,
    "MAPE": MeanAbsolutePercentageError, "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError})


def get(identifier):
    """Keras's ``metrics.get``: a name gives a new metric of its class (``"mse"``: a
    ``MeanSquaredError`` named ``mean_squared_error``); ``compile`` names its metrics itself
    (``compile_utils.get_metric``)."""
    return identifiers.lookup("metric", identifier, ALL_OBJECTS_DICT)


__getattr__ = _missing("keras.metrics")
