"""``tf.keras.utils``: ``set_random_seed`` (Python's, NumPy's and TensorFlow's global seeds, as
Keras sets them) and ``to_categorical``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import random

import numpy as np

import devtrace as tf
from .datasets.files import get_file  # noqa: F401 (keras.utils.get_file)


def set_random_seed(seed):
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    random.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)


def to_categorical(x, num_classes=None):
    labels = np.asarray(x, dtype="int64").reshape(-1)
    num_classes = int(num_classes or labels.max() + 1)
    out = np.zeros((labels.size, num_classes), dtype="float32")
    out[np.arange(labels.size), labels] = 1.0
    shape = np.shape(x)
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    return out.reshape(tuple(shape) + (num_classes,))


__getattr__ = _missing("keras.utils")
