"""``tf.keras.utils``: ``set_random_seed`` (Python's, NumPy's and TensorFlow's global seeds, as
Keras sets them), ``to_categorical``, ``normalize``, ``pad_sequences``, ``get_file``, ``PyDataset`` and
the dataset makers (``dataset_utils``), the image helpers (``image_utils``) and the custom-object
registry (``serializable``)."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import random

import numpy as np

import devtrace as tf
from .dataset_utils import (image_dataset_from_directory, split_dataset, text_dataset_from_directory,  # noqa: F401
                            timeseries_dataset_from_array)
from .backend import clear_session  # noqa: F401
from .data import pack as pack_x_y_sample_weight, unpack as unpack_x_y_sample_weight  # noqa: F401
from .datasets.files import get_file  # noqa: F401 (keras.utils.get_file)
from .feature_space import FeatureSpace  # noqa: F401
from .model_visualization import model_to_dot, plot_model  # noqa: F401
from .py_dataset import PyDataset, Sequence  # noqa: F401
from .image_utils import array_to_img, img_to_array, load_img, save_img  # noqa: F401
from .serializable import (CustomObjectScope, custom_object_scope, deserialize as deserialize_keras_object,  # noqa: F401
                           get_custom_objects, get_registered_name, get_registered_object,
                           register_keras_serializable, serialize as serialize_keras_object)


def is_keras_tensor(x) -> bool:
    from .engine import KerasTensor

    return isinstance(x, KerasTensor)


def set_random_seed(seed):
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    random.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)


def to_categorical(x, num_classes=None):
    """Keras's: a tensor's one-hot rows as a float32 tensor; anything else's as a float64 array."""
    if tf.is_tensor(x):
        labels = tf.cast(x, tf.int64)
        if labels.shape.rank > 1 and labels.shape[-1] == 1:
            labels = tf.squeeze(labels, -1)
        if num_classes is None:
            num_classes = int(tf.reduce_max(labels)) + 1
        return tf.one_hot(labels, num_classes)
    labels = np.asarray(x, dtype="int64").reshape(-1)
    num_classes = int(num_classes or labels.max() + 1)
    out = np.zeros((labels.size, num_classes))
    out[np.arange(labels.size), labels] = 1.0
    shape = np.shape(x)
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    return out.reshape(tuple(shape) + (num_classes,))


def normalize(x, axis=-1, order=2):
    """``x`` over its ``order``-norm along ``axis`` (a zero norm left as 1), as Keras does."""
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis or -1)
    if order != 2:
        raise NotImplementedError("devtrace does not implement keras.utils.normalize(order=...) of a tensor yet")
    x = tf.convert_to_tensor(x)
    return x * tf.math.rsqrt(tf.maximum(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True), 1e-12))


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
