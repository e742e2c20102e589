"""What Keras's ImageNet models share: the input shape they accept (``obtain_input_shape``), the
padding a stride-2 convolution gets (``correct_pad``), ``preprocess_input``'s three modes,
``decode_predictions`` and the pretrained weights, fetched with ``keras.utils.get_file`` into
``~/.keras/models`` (offline: Keras's own download error)."""

from __future__ import annotations

import json

import numpy as np

import devtrace as tf
from ..datasets.files import get_file
from ..engine import KerasTensor

CLASS_INDEX_PATH = "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
_CLASS_INDEX = None

# mode: (scale, offset, mean, std, bgr) — x * scale + offset, then (x - mean) / std per channel
_MODES = {"caffe": (1.0, 0.0, (103.939, 116.779, 123.68), None, True),
          "tf": (1 / 127.5, -1.0, None, None, False),
          "torch": (1 / 255.0, 0.0, (0.485, 0.456, 0.406), (0.229, 0.224, 0.225), False)}


def preprocess_input(x, data_format=None, mode="caffe"):
    """``caffe``: RGB to BGR, less ImageNet's mean; ``tf``: to [-1, 1]; ``torch``: to [0, 1], less the
    mean, over the standard deviation. A NumPy array comes back as NumPy, a tensor as a tensor."""
    if mode not in _MODES:
        raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode}")
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"devtrace does not implement keras.applications' preprocess_input("
                                  f"data_format={data_format!r}) yet")
    scale, offset, mean, std, bgr = _MODES[mode]
    if isinstance(x, (KerasTensor, tf.Tensor)):
        return _tensor_input(x, mode)
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype("float32")
    x = x * np.asarray(scale, x.dtype) + np.asarray(offset, x.dtype)
    if bgr:
        x = x[..., ::-1]
    if mean is not None:
        x = x - np.asarray(mean, x.dtype)
    if std is not None:
        x = x / np.asarray(std, x.dtype)
    return x


def _tensor_input(x, mode):
    """A tensor, or a model's symbolic input (then these are layers of the model, as Keras's:
    ``true_divide``, ``subtract`` …), composed as Keras composes it."""
    from .. import ops

    if mode == "tf":
        return x / 127.5 - 1.0
    if mode == "torch":
        x = x / 255.0
    else:  # caffe: BGR
        x = ops.stack([x[..., i] for i in (2, 1, 0)], axis=-1)
    _, _, mean, std, _ = _MODES[mode]
    x = x + ops.reshape(ops.convert_to_tensor(-np.array(mean), dtype=x.dtype), (1,) * (len(x.shape) - 1) + (3,))
    if std is not None:
        x = x / ops.convert_to_tensor(np.array(std), dtype=x.dtype)
    return x


def decode_predictions(preds, top=5):
    """Each sample's ``top`` classes as ``(class_name, class_description, score)``, best first."""
    global _CLASS_INDEX
    preds = np.asarray(preds.numpy() if isinstance(preds, tf.Tensor) else preds)
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
                         f"(samples, 1000)). Received array with shape: {preds.shape}")
    if _CLASS_INDEX is None:
        path = get_file("imagenet_class_index.json", CLASS_INDEX_PATH, cache_subdir="models",
                        file_hash="c2c37ea517e94d9795004a39431a14cb")
        with open(path) as f:
            _CLASS_INDEX = json.load(f)
    results = []
    for pred in preds:
        best = pred.argsort()[-top:][::-1]
        rows = [tuple(_CLASS_INDEX[str(i)]) + (pred[i],) for i in best]
        rows.sort(key=lambda row: row[2], reverse=True)
        results.append(rows)
    return results


def obtain_input_shape(input_shape, default_size, min_size, include_top, weights):
    """The model's input shape (channels last): the default for a classifier, any size of at least
    ``min_size`` otherwise (``None`` for the spatial sizes when not given)."""
    if input_shape is None:
        return (default_size, default_size, 3) if include_top else (None, None, 3)
    input_shape = tuple(input_shape)
    if weights == "imagenet" and include_top and input_shape != (default_size, default_size, 3):
        raise ValueError(f"When setting `include_top=True` and loading `imagenet` weights, `input_shape` should "
                         f"be {(default_size, default_size, 3)}.  Received: input_shape={input_shape}")
    if len(input_shape) != 3:
        raise ValueError(f"`input_shape` must be a tuple of three integers. Received: input_shape={input_shape}")
    if weights == "imagenet" and input_shape[-1] != 3:
        raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
    if any(d is not None and d < min_size for d in input_shape[:2]):
        raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: input_shape={input_shape}")
    return input_shape


def correct_pad(inputs, kernel_size):
    """The zero padding before a stride-2 ``valid`` convolution: one less before odd sizes."""
    size = inputs.shape[1:3]
    k = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    return ((k[0] // 2 - adjust[0], k[0] // 2), (k[1] // 2 - adjust[1], k[1] // 2))


_CLASSES_TEXT = {  # each family's own words (the others': ResNet's)
    "densenet": 'If using `weights` as `"imagenet"` with `include_top` as true, `classes` should be 1000',
    "efficientnet": 'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000',
    "inception_v3": 'If using `weights="imagenet"` with `include_top=True`, `classes` should be 1000. Received '
                    "classes={classes}",
    "mobilenet_v2": 'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000. Received '
                    "`classes={classes}`"}


def check_weights(weights, include_top, classes, family=None):
    """Keras's checks of ``weights`` and ``classes`` before a model is built."""
    import os

    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), 'imagenet' "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.  Received: "
                         f"weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        text = _CLASSES_TEXT.get(family, "If using `weights='imagenet'` with `include_top=True`, `classes` should be "
                                         "1000.  Received classes={classes}")
        raise ValueError(text.format(classes=classes))


def load_weights(model, weights, url=None, file_name=None, file_hash=None):
    """``imagenet``: Keras's file, downloaded into ``~/.keras/models`` (or the cached one); a path: that file."""
    if weights == "imagenet":
        weights = get_file(file_name, url, cache_subdir="models", file_hash=file_hash)
    if weights is not None:
        model.load_weights(weights)
