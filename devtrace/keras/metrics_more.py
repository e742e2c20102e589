"""More of Keras 3's metrics: the IoU family (a confusion matrix kept in Keras's integer dtype, so
float sample weights truncate as Keras's do), ``R2Score``, ``PearsonCorrelation`` /
``ConcordanceCorrelation`` (per-batch values averaged), and the metrics at a fixed sensitivity,
specificity, precision or recall (Keras's 200 thresholds). Totals are kept on the host."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from . import config
from .metric_base import Mean, Metric


def _array(value, dtype=np.float64):
    return np.asarray(tf.convert_to_tensor(value).numpy() if not isinstance(value, np.ndarray) else value, dtype)


class _IoUBase(Metric):
    _auto_name = True

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True, sparse_y_pred=True,
                 axis=-1):
        self.num_classes, self.ignore_class = num_classes, ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        super().__init__(name, dtype)

    def reset_state(self):
        self.total_cm = np.zeros((self.num_classes, self.num_classes), np.int64)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """The confusion matrix so far (an int64 tensor, as Keras's update returns it)."""
        t, p = _array(y_true), _array(y_pred)
        if not self.sparse_y_true:
            t = t.argmax(self.axis)
        if not self.sparse_y_pred:
            p = p.argmax(self.axis)
        t, p = t.astype(np.int64).reshape(-1), p.astype(np.int64).reshape(-1)  # Keras's int dtype truncates
        w = np.ones_like(t) if sample_weight is None else \
            np.broadcast_to(_array(sample_weight).astype(np.int64).reshape(-1), t.shape)
        keep = (t >= 0) & (t < self.num_classes) & (p >= 0) & (p < self.num_classes)
        if self.ignore_class is not None:
            keep &= t != self.ignore_class
        np.add.at(self.total_cm, (np.where(keep, t, 0), np.where(keep, p, 0)), np.where(keep, w, 0))
        return tf.constant(self.total_cm, tf.int64)

    def _iou(self, ids):
        cm = self.total_cm.astype(np.float64)
        true_positives = np.diag(cm)
        denominator = cm.sum(0) + cm.sum(1) - true_positives
        true_positives, denominator = true_positives[ids], denominator[ids]
        valid = float((denominator != 0).sum())
        iou = np.divide(true_positives, denominator, out=np.zeros_like(denominator), where=denominator != 0)
        return tf.constant(float(iou.sum()) / valid if valid else 0.0, tf.float32)


class IoU(_IoUBase):
    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name, dtype, ignore_class, sparse_y_true, sparse_y_pred, axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        return self._iou(self.target_class_ids)


class BinaryIoU(IoU):
    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name, dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        return super().update_state(y_true, (_array(y_pred) >= self.threshold).astype(np.int64), sample_weight)


class MeanIoU(IoU):
    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True, sparse_y_pred=True,
                 axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name, dtype, ignore_class, sparse_y_true,
                         sparse_y_pred, axis)


class OneHotIoU(IoU):
    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_pred=False,
                 axis=-1):
        super().__init__(num_classes, target_class_ids, name, dtype, ignore_class, False, sparse_y_pred, axis)


class OneHotMeanIoU(MeanIoU):
    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name, dtype, ignore_class, False, sparse_y_pred, axis)


class R2Score(Metric):
    """The coefficient of determination of each output (uniformly averaged, or weighted by variance)."""

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None):
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of {valid}. "
                             f"Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value >= 0. "
                             f"Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        super().__init__(name, dtype)

    def reset_state(self):
        self._sums = None
        self._samples = 0

    def update_state(self, y_true, y_pred, sample_weight=None):
        t, p = _array(y_true), _array(y_pred)
        if t.ndim == 1:
            t, p = t[:, None], p.reshape(t.shape[0], -1)
        w = np.ones_like(t) if sample_weight is None else np.broadcast_to(
            _array(sample_weight).reshape(-1, *([1] * (t.ndim - 1))), t.shape)
        sums = np.stack([(t * w).sum(0), (t * t * w).sum(0), ((t - p) ** 2 * w).sum(0), w.sum(0)])
        self._sums = sums if self._sums is None else self._sums + sums
        self._samples += t.shape[0]

    def result(self):
        if self._sums is None:
            return tf.constant(0.0, tf.float32)
        total_sum, squared, residual, count = self._sums
        mean = total_sum / count
        total = squared - total_sum * mean
        with np.errstate(divide="ignore", invalid="ignore"):
            raw = 1.0 - residual / total
        raw = np.where(np.isinf(raw), 0.0, raw)
        if self.class_aggregation == "uniform_average":
            score = raw.mean()
        elif self.class_aggregation == "variance_weighted_average":
            score = (raw * total).sum() / total.sum()
        else:
            score = raw
        if self.num_regressors:
            n, k = self._samples, self.num_regressors
            if k > n - 1 or k == n - 1:
                score = score if k > n - 1 else score
            else:
                score = 1.0 - (1.0 - score) * (n - 1) / (n - k - 1)
        return tf.constant(np.asarray(score, np.float32))


def pearson_correlation(y_true, y_pred, axis=-1):
    t, p = _array(y_true), _array(y_pred)
    t, p = t - t.mean(axis, keepdims=True), p - p.mean(axis, keepdims=True)
    t, p = t / t.std(axis, keepdims=True), p / p.std(axis, keepdims=True)
    return tf.constant((t * p).mean(axis).astype(np.float32))


def concordance_correlation(y_true, y_pred, axis=-1):
    t, p = _array(y_true), _array(y_pred)
    t_mean, p_mean = t.mean(axis, keepdims=True), p.mean(axis, keepdims=True)
    t_var, p_var = (t - t_mean).var(axis, keepdims=True), (p - p_mean).var(axis, keepdims=True)
    covariance = (t - p_mean) * (p - p_mean)
    norm = t_var + p_var + (t_mean - p_mean) ** 2
    return tf.constant((2 * covariance / (norm + config.epsilon())).mean(axis).astype(np.float32))


class PearsonCorrelation(Mean):
    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        self.axis = axis
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(pearson_correlation(y_true, y_pred, self.axis), sample_weight)


class ConcordanceCorrelation(Mean):
    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        self.axis = axis
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(concordance_correlation(y_true, y_pred, self.axis), sample_weight)


class _AtConstraint(Metric):
    """Confusion counts at Keras's thresholds (0, 1/(n-1), …, 1); ``result`` the best ``dependent``
    among the thresholds where ``constrained`` reaches ``value``."""

    argument = "value"
    _auto_name = True

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self.argument}` must be in the range [0, 1]. "
                             f"Received: {self.argument}={value}")
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. Received: num_thresholds={num_thresholds}")
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        self.thresholds = np.array([0.5] if num_thresholds == 1 else
                                   [0.0] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0])
        super().__init__(name, dtype)

    def reset_state(self):
        n = len(getattr(self, "thresholds", ()))
        self.tp, self.fp, self.tn, self.fn = (np.zeros(n) for _ in range(4))

    def update_state(self, y_true, y_pred, sample_weight=None):
        t, p = _array(y_true), _array(y_pred)
        if self.class_id is not None:
            t, p = t[..., self.class_id], p[..., self.class_id]
        t, p = t.reshape(-1) > 0.5, p.reshape(-1)
        w = np.ones_like(p) if sample_weight is None else np.broadcast_to(_array(sample_weight).reshape(-1), p.shape)
        above = p[None, :] > self.thresholds[:, None]
        self.tp += ((above & t) * w).sum(1)
        self.fp += ((above & ~t) * w).sum(1)
        self.fn += ((~above & t) * w).sum(1)
        self.tn += ((~above & ~t) * w).sum(1)

    @staticmethod
    def _ratio(a, b):
        return np.divide(a, a + b, out=np.zeros_like(a), where=(a + b) != 0)

    def _best(self, constrained, dependent):
        feasible = constrained >= self.value
        return tf.constant(float(np.max(np.where(feasible, dependent, 0.0), initial=0.0)), tf.float32)


class SensitivityAtSpecificity(_AtConstraint):
    argument = "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.specificity = specificity
        super().__init__(specificity, num_thresholds, class_id, name, dtype)

    def result(self):
        return self._best(self._ratio(self.tn, self.fp), self._ratio(self.tp, self.fn))


class SpecificityAtSensitivity(_AtConstraint):
    argument = "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.sensitivity = sensitivity
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)

    def result(self):
        return self._best(self._ratio(self.tp, self.fn), self._ratio(self.tn, self.fp))


class PrecisionAtRecall(_AtConstraint):
    argument = "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.recall = recall
        super().__init__(recall, num_thresholds, class_id, name, dtype)

    def result(self):
        return self._best(self._ratio(self.tp, self.fn), self._ratio(self.tp, self.fp))


class RecallAtPrecision(_AtConstraint):
    argument = "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        self.precision = precision
        super().__init__(precision, num_thresholds, class_id, name, dtype)

    def result(self):
        return self._best(self._ratio(self.tp, self.fp), self._ratio(self.tp, self.fn))
