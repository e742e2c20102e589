"""Keras 3's one-batch entry points, ``train_on_batch`` / ``test_on_batch`` / ``predict_on_batch``:
the metrics reset, one step on the whole batch as given, the logs as ``evaluate`` returns them (a
dict with ``return_dict``, else the values in the metrics' order, one value alone)."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from .data import EpochIterator, class_weights
from .training import in_metric_order, pythonify


def _one_batch(model, x, y, sample_weight):
    size = x.shape[0] if hasattr(x, "shape") and x.shape else None
    data = EpochIterator(x, y, sample_weight, batch_size=size)
    if hasattr(model, "build_for_data") and data.x is not None and not isinstance(data.x, list):
        model.build_for_data(data.x.shape[1:])
    data.reset()
    for _, batch in data:
        return batch
    raise ValueError("Expected a batch of data, got none.")


def train_on_batch(model, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
    model._require_compiled()
    if class_weight is not None:
        if sample_weight is not None:
            raise ValueError("Arguments `sample_weight` and `class_weight` cannot be specified at the same time. "
                             f"Received: sample_weight={sample_weight}, class_weight={class_weight}")
        sample_weight = class_weights(y, class_weight)
    batch = _one_batch(model, x, y, sample_weight)
    model.reset_metrics()
    logs = pythonify(model._metrics_result_or_logs(model._train_batch(batch)))
    return logs if return_dict else in_metric_order(model, logs)


def test_on_batch(model, x, y=None, sample_weight=None, return_dict=False):
    model._require_compiled()
    batch = _one_batch(model, x, y, sample_weight)
    model.reset_metrics()
    logs = pythonify(model._metrics_result_or_logs(model._test_batch(batch)))
    return logs if return_dict else in_metric_order(model, logs)


def predict_on_batch(model, x):
    batch = _one_batch(model, x, None, None)
    return tf.nest.map_structure(np.asarray, model._predict_batch(batch))
