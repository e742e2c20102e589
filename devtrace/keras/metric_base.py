"""Keras's ``Metric`` (a running total and count on the host) and ``Mean``, the base of the others."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from .serializable import Configurable


class Metric(Configurable):
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
