"""``tf.keras.utils``: ``set_random_seed`` (Python's, NumPy's and TensorFlow's global seeds, as
Keras sets them), ``to_categorical`` and ``pad_sequences``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import random

import numpy as np

import devtrace as tf
from .datasets.files import get_file  # noqa: F401 (keras.utils.get_file)
from .model_visualization import model_to_dot, plot_model  # noqa: F401


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


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """Sequences of varying lengths as one NumPy array ``(len(sequences), maxlen)``: cut and padded
    at the start (``"pre"``) or the end (``"post"``), as Keras does it (on the host)."""
    for name, given in (("padding", padding), ("truncating", truncating)):
        if given not in ("pre", "post"):
            raise ValueError(f'{name.capitalize()} type "{given}" not understood')
    lengths = [len(s) for s in sequences]
    maxlen = max(lengths, default=0) if maxlen is None else maxlen
    sample_shape = next((np.asarray(s).shape[1:] for s in sequences if len(s)), ())
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq) or not maxlen:
            continue
        kept = np.asarray(seq[-maxlen:] if truncating == "pre" else seq[:maxlen], dtype=dtype)
        if padding == "post":
            out[i, :len(kept)] = kept
        else:
            out[i, -len(kept):] = kept
    return out


__getattr__ = _missing("keras.utils")
