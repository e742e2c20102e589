"""Keras 3's ``FBetaScore`` and ``F1Score``: true and false positives, false negatives and the
support per class (one total with ``average="micro"``), kept in the metric's dtype as Keras's
variables keep them (on the host here); predictions above ``threshold`` are positive, or with no
threshold each row's largest."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from . import config
from .metric_base import Metric


class FBetaScore(Metric):
    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta} of "
                             f"type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(f"Invalid `threshold` argument value. It should be a Python float. Received: "
                                 f"threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError(f"Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                 f"Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._totals = None
        super().__init__(name, dtype)

    def reset_state(self):
        super().reset_state()
        if self._totals is not None:
            self._totals = {k: np.zeros_like(v) for k, v in self._totals.items()}

    def update_state(self, y_true, y_pred, sample_weight=None):
        np_dtype = tf.as_dtype(self.dtype).as_numpy_dtype
        y_true = np.asarray(tf.cast(tf.convert_to_tensor(y_true), self.dtype).numpy())
        y_pred = np.asarray(tf.cast(tf.convert_to_tensor(y_pred), self.dtype).numpy())
        if self._totals is None:
            if y_pred.ndim != 2 or y_true.ndim != 2:
                raise ValueError(f"FBetaScore expects 2D inputs with shape (batch_size, output_dim). Received input "
                                 f"shapes: y_pred.shape={tf.TensorShape(y_pred.shape)} and "
                                 f"y_true.shape={tf.TensorShape(y_true.shape)}.")
            shape = (y_pred.shape[-1],) if self.average != "micro" else ()
            self._totals = {k: np.zeros(shape, np_dtype) for k in ("tp", "fp", "fn", "support")}
        if self.threshold is None:
            positive = (y_pred >= y_pred.max(axis=-1, keepdims=True)) & (np.abs(y_pred) > 1e-9)
        else:
            positive = y_pred > self.threshold
        y_pred = positive.astype(np_dtype)
        weight = None if sample_weight is None else \
            np.asarray(tf.cast(tf.convert_to_tensor(sample_weight), self.dtype).numpy())[:, None]

        def total(values):
            return (values if weight is None else values * weight).sum(axis=self.axis).astype(np_dtype)
        self._totals["tp"] += total(y_pred * y_true)
        self._totals["fp"] += total(y_pred * (1 - y_true))
        self._totals["fn"] += total((1 - y_pred) * y_true)
        self._totals["support"] += total(y_true)

    def result(self):
        if self._totals is None:
            raise ValueError("FBetaScore has no result before its first update_state")
        eps = config.epsilon()
        t = {k: tf.constant(v) for k, v in self._totals.items()}
        precision = tf.divide(t["tp"], t["tp"] + t["fp"] + eps)
        recall = tf.divide(t["tp"], t["tp"] + t["fn"] + eps)
        score = tf.divide(precision * recall, (self.beta ** 2) * precision + recall + eps) * (1 + self.beta ** 2)
        if self.average == "weighted":
            return tf.reduce_sum(score * tf.divide(t["support"], tf.reduce_sum(t["support"]) + eps))
        if self.average is not None:
            return tf.reduce_mean(score)
        return score


    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config


__all__ = ["F1Score", "FBetaScore"]
