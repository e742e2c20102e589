"""Keras metrics: running means of a per-sample value (``Mean``, ``MeanSquaredError``, the accuracy
variants) and ``AUC`` (Keras's 200 thresholds, trapezoidal interpolation), by name or object. The
running totals are kept on the host: the per-batch values are computed by devtrace's ops."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import numpy as np

import devtrace as tf
from . import keywords, losses


class Metric:
    def __init__(self, name=None, dtype=None):
        self.name = name or _default_name(type(self).__name__)
        self.reset_state()

    def reset_state(self):
        self._total, self._count = 0.0, 0.0

    def result(self):
        return tf.constant(self._total / self._count if self._count else 0.0, tf.float32)

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()


def _default_name(cls_name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(cls_name))


class Mean(Metric):
    def update_state(self, values, sample_weight=None):
        """A weighted mean when given ``sample_weight`` (broadcast to the values: Keras's loss tracker
        passes the batch size)."""
        v = np.asarray(tf.convert_to_tensor(values).numpy(), np.float64)
        if sample_weight is None:
            self._total += float(v.sum())
            self._count += v.size
            return
        w = np.asarray(tf.convert_to_tensor(sample_weight).numpy(), np.float64)
        while w.ndim > v.ndim and w.shape[-1] == 1:
            w = w.squeeze(-1)
        w = np.broadcast_to(w.reshape(w.shape + (1,) * (v.ndim - w.ndim)), v.shape)
        self._total += float((v * w).sum())
        self._count += float(w.sum())


class MeanMetricWrapper(Mean):
    """A per-sample function ``fn(y_true, y_pred)`` averaged over every sample seen."""

    fn = None

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = losses.same_rank(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred))
        super().update_state(type(self).fn(y_true, y_pred), sample_weight)


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


class Accuracy(MeanMetricWrapper):
    fn = staticmethod(accuracy)


class BinaryAccuracy(MeanMetricWrapper):
    fn = staticmethod(binary_accuracy)


class CategoricalAccuracy(MeanMetricWrapper):
    fn = staticmethod(categorical_accuracy)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    fn = staticmethod(sparse_categorical_accuracy)

    def update_state(self, y_true, y_pred, sample_weight=None):
        Mean.update_state(self, sparse_categorical_accuracy(tf.convert_to_tensor(y_true), tf.convert_to_tensor(y_pred)),
                          sample_weight)


class MeanSquaredError(MeanMetricWrapper):
    fn = staticmethod(losses.mean_squared_error)


class MeanAbsoluteError(MeanMetricWrapper):
    fn = staticmethod(losses.mean_absolute_error)


class AUC(Metric):
    """ROC AUC from confusion counts at ``num_thresholds`` evenly spaced thresholds."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        keywords.unimplemented("keras.metrics.AUC", curve=(curve, "ROC"),
                               summation_method=(summation_method, "interpolation"), thresholds=(thresholds, None),
                               multi_label=(multi_label, False), num_labels=(num_labels, None),
                               label_weights=(label_weights, None), from_logits=(from_logits, False))
        eps = 1e-7
        inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._thresholds = np.array([0.0 - eps] + inner + [1.0 + eps])
        super().__init__(name or "auc")

    def reset_state(self):
        n = getattr(self, "_thresholds", np.zeros(0)).size
        self._tp, self._fp, self._tn, self._fn = (np.zeros(n) for _ in range(4))

    def update_state(self, y_true, y_pred, sample_weight=None):
        t = np.asarray(tf.convert_to_tensor(y_true).numpy(), np.float64).reshape(-1) > 0.5
        p = np.asarray(tf.convert_to_tensor(y_pred).numpy(), np.float64).reshape(-1)
        above = p[None, :] > self._thresholds[:, None]
        self._tp += (above & t).sum(1)
        self._fp += (above & ~t).sum(1)
        self._fn += (~above & t).sum(1)
        self._tn += (~above & ~t).sum(1)

    def result(self):
        tpr = np.divide(self._tp, self._tp + self._fn, out=np.zeros_like(self._tp), where=(self._tp + self._fn) > 0)
        fpr = np.divide(self._fp, self._fp + self._tn, out=np.zeros_like(self._fp), where=(self._fp + self._tn) > 0)
        area = np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2.0)
        return tf.constant(float(area), tf.float32)


_BY_NAME = {"binary_accuracy": BinaryAccuracy, "categorical_accuracy": CategoricalAccuracy,
            "sparse_categorical_accuracy": SparseCategoricalAccuracy, "mse": MeanSquaredError,
            "mean_squared_error": MeanSquaredError, "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
            "auc": AUC}


def get(identifier, y_true=None, y_pred=None):
    """A metric object; ``"accuracy"`` picks binary, sparse categorical or categorical accuracy from
    the shapes of the first batch, as Keras's ``compile_utils`` does."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if identifier in ("accuracy", "acc"):
        if y_pred is not None and y_pred.shape[-1] == 1:
            cls = BinaryAccuracy
        elif y_true is not None and y_pred is not None and (len(y_true.shape) < len(y_pred.shape)
                                                             or y_true.shape[-1] == 1):
            cls = SparseCategoricalAccuracy
        else:
            cls = CategoricalAccuracy
        return cls(name=identifier)
    if identifier not in _BY_NAME:
        raise ValueError(f"Could not interpret metric identifier: {identifier}")
    return _BY_NAME[identifier](name=identifier)


class CompileMetrics(Metric):
    """The metrics ``compile`` was given, as one metric (Keras's ``CompileMetrics``, named
    ``compile_metrics`` in ``model.metrics``): built from the first batch's shapes, its result the
    dict of theirs."""

    def __init__(self, identifiers):
        self._identifiers, self.metrics, self.built = list(identifiers), [], False
        super().__init__("compile_metrics")

    def reset_state(self):
        for m in getattr(self, "metrics", ()):
            m.reset_state()

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            y, pred = np.asarray(tf.convert_to_tensor(y_true).numpy()), np.asarray(tf.convert_to_tensor(y_pred).numpy())
            self.metrics = [get(m, y, pred) for m in self._identifiers]
            self.built = True
        for m in self.metrics:
            m.update_state(y_true, y_pred)

    def result(self):
        if not self.built:
            raise ValueError("Cannot get result() since the metric has not yet been built.")
        return {m.name: m.result() for m in self.metrics}


__getattr__ = _missing("keras.metrics")
