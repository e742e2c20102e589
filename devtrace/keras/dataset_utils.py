"""``keras.utils``' datasets: ``image_dataset_from_directory``, ``text_dataset_from_directory``,
``timeseries_dataset_from_array`` and ``split_dataset``, as Keras 3 builds them — the files indexed
and shuffled with NumPy's ``RandomState(seed)`` as Keras does (so the same seed picks the same files
and order), Keras's lines (``Found 6 files belonging to 2 classes.``) and errors; the result a
``tf.data.Dataset`` (``class_names`` and ``file_paths`` attached). The files are read and decoded
(``tf.io.read_file``, ``tf.image.decode_image``, ``tf.image.resize``) as the dataset is made,
not lazily per element; a ``shuffle`` of the elements is ``tf.data``'s (devtrace's own order)."""

from __future__ import annotations

import os
import random

import numpy as np

import devtrace as tf

IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _say(text: str) -> None:
    print(text, flush=True)


# -- indexing a directory ------------------------------------------------------------------------------
def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None, follow_links=False,
                    verbose=True):
    """``(file_paths, labels, class_names)``: the class folders in name order (or ``class_names``'
    order), their files walked in name order, then shuffled with ``RandomState(seed)``."""
    if labels == "inferred":
        subdirs = [d.rstrip("/") for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(set(subdirs)):
                raise ValueError("The `class_names` passed did not match the names of the subdirectories of the "
                                 f"target directory. Expected: {subdirs} (or a subset of it), but received: "
                                 f"class_names={class_names}")
            subdirs = list(class_names)
    else:
        subdirs = [""]
        if class_names is not None:
            if labels is None:
                raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified.")
            raise ValueError("When argument `labels` is specified, argument `class_names` cannot be specified (the "
                             "`class_names` will be the sorted list of labels).")
    class_names = subdirs
    indices = {name: i for i, name in enumerate(class_names)}
    filenames, found_labels = [], []
    for subdir in subdirs:
        folder = os.path.join(directory, subdir)
        base = os.path.basename(folder)
        for root, _, files in sorted(os.walk(folder, followlinks=follow_links), key=lambda w: w[0]):
            for name in sorted(files):
                if name.lower().endswith(formats):
                    filenames.append(os.path.join(base, os.path.relpath(os.path.join(root, name), folder)))
                    found_labels.append(indices[base] if labels == "inferred" else 0)
    if labels == "inferred":
        labels = np.array(found_labels, dtype="int32")
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError("Expected the lengths of `labels` to match the number of files in the target "
                             f"directory. len(labels) is {len(labels)} while we found {len(filenames)} files in "
                             f"directory {directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        _say(f"Found {len(filenames)} files." if labels is None
             else f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    paths = [os.path.join(directory, name) for name in filenames]
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def check_validation_split_arg(validation_split, subset, shuffle, seed) -> None:
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` argument, to "
                         "make sure that there is no overlap between the training and validation subset.")


def training_or_validation(samples, labels, validation_split, subset):
    if not validation_split:
        return samples, labels
    held = int(validation_split * len(samples))
    if subset == "training":
        _say(f"Using {len(samples) - held} files for training.")
        return samples[:-held], (labels[:-held] if labels is not None else None)
    if subset == "validation":
        _say(f"Using {held} files for validation.")
        return samples[-held:], (labels[-held:] if labels is not None else None)
    raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')


def _labels(labels, label_mode, num_classes):
    labels = np.asarray(labels, dtype="int32")
    if label_mode == "binary":
        return labels.astype("float32").reshape(-1, 1)
    if label_mode == "categorical":
        return np.eye(num_classes, dtype="float32")[labels]
    return labels


def _check_labels_arg(labels, class_names, label_mode, what) -> None:
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(f"`labels` argument should be a list/tuple of integer labels, of the same size as the "
                             f"number of {what} files in the target directory. If you wish to infer the labels from "
                             "the subdirectory names in the target directory, pass `labels=\"inferred\"`. If you "
                             f"wish to get a dataset that only contains {what}s (no labels), pass `labels=None`. "
                             f"Received: labels={labels}")
        if class_names:
            raise ValueError(f'You can only pass `class_names` if `labels="inferred"`. Received: labels={labels}, '
                             f"and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", or None. Received: '
                         f"label_mode={label_mode}")


def _splits(paths, labels, validation_split, subset, directory, what, formats):
    """``[(paths, labels, shuffled?)]``: one split, or training then validation for ``subset="both"``."""
    if subset == "both":
        train = training_or_validation(paths, labels, validation_split, "training")
        val = training_or_validation(paths, labels, validation_split, "validation")
        for side, name in ((train, "training"), (val, "validation")):
            if not side[0]:
                raise ValueError(f"No {name} {what}s found in directory {directory}. Allowed formats: {formats}")
        return [(train, True), (val, False)]
    chosen = training_or_validation(paths, labels, validation_split, subset)
    if not chosen[0]:
        raise ValueError(f"No {what}s found in directory {directory}. Allowed formats: {formats}")
    return [(chosen, True)]


def _finish(dataset, batch_size, class_names, paths):
    if batch_size is not None:
        dataset = dataset.batch(batch_size)
    dataset = dataset.prefetch(tf.data.AUTOTUNE)
    dataset.class_names, dataset.file_paths = class_names, paths
    return dataset


# -- images --------------------------------------------------------------------------------------------
def image_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, color_mode="rgb",
                                 batch_size=32, image_size=(256, 256), shuffle=True, seed=None, validation_split=None,
                                 subset=None, interpolation="bilinear", follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, format="tf", verbose=True):  # noqa: A002
    from . import keywords

    _check_labels_arg(labels, class_names, label_mode, "image")
    if labels is None or label_mode is None:
        labels = label_mode = None
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError(f'`color_mode` must be one of {{"rgb", "rgba", "grayscale"}}. Received: color_mode={color_mode}')
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError(f"Invalid `image_size` value. Expected a tuple of 2 integers. Received: image_size={image_size}")
    interpolation = interpolation.lower()
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    keywords.unimplemented("keras.utils.image_dataset_from_directory",
                           data_format=(data_format, (None, "channels_last")), format=(format, "tf"))
    fit = "crop" if crop_to_aspect_ratio else "pad" if pad_to_aspect_ratio else None
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, IMAGE_FORMATS, class_names, shuffle, seed,
                                                 follow_links, verbose)
    if crop_to_aspect_ratio and pad_to_aspect_ratio:  # Keras's check: loading the first image, after the count
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to `True`.")
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    buffer = batch_size * 8 if batch_size is not None else 1024
    out = []
    for (split_paths, split_labels), shuffled in _splits(paths, labels, validation_split, subset, directory, "image",
                                                        IMAGE_FORMATS):
        images = np.stack([_load_image(p, image_size, channels, interpolation, fit) for p in split_paths])
        elements = images if label_mode is None else (images, _labels(split_labels, label_mode, len(class_names)))
        dataset = tf.data.Dataset.from_tensor_slices(elements)
        if shuffle and shuffled:
            dataset = dataset.shuffle(buffer_size=buffer, seed=seed)
        out.append(_finish(dataset, batch_size, class_names, list(split_paths)))
    return out if subset == "both" else out[0]


def _load_image(path, image_size, channels, interpolation, fit=None):
    """Keras's: resized to ``image_size``; ``fit`` "crop": its largest centred crop of the size's aspect
    ratio first (``smart_resize``); "pad": padded to it (``tf.image.resize_with_pad``)."""
    from .layers_preprocessing import _smart_resize

    image = tf.image.decode_image(tf.io.read_file(path), channels=channels, expand_animations=False)
    if fit == "crop":
        return _smart_resize(image, image_size[0], image_size[1], interpolation).numpy()
    if fit == "pad":
        return tf.image.resize_with_pad(image, image_size[0], image_size[1], method=interpolation).numpy()
    return tf.image.resize(image, image_size, method=interpolation).numpy()


# -- text ----------------------------------------------------------------------------------------------
def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                max_length=None, shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False, format="tf", verbose=True):  # noqa: A002
    from . import keywords

    _check_labels_arg(labels, class_names, label_mode, "text")
    if labels is None or label_mode is None:
        labels = label_mode = None
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    keywords.unimplemented("keras.utils.text_dataset_from_directory", format=(format, "tf"))
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, (".txt",), class_names, shuffle, seed,
                                                 follow_links, verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    buffer = batch_size * 8 if batch_size is not None else 1024
    out = []
    for (split_paths, split_labels), shuffled in _splits(paths, labels, validation_split, subset, directory, "text",
                                                        (".txt",)):
        texts = []
        for p in split_paths:
            with open(p, "rb") as f:
                content = f.read()
            texts.append(content[:max_length] if max_length is not None else content)
        strings = np.array(texts, dtype=object)
        elements = strings if label_mode is None else (strings, _labels(split_labels, label_mode, len(class_names)))
        dataset = tf.data.Dataset.from_tensor_slices(elements)
        if shuffle and shuffled:
            dataset = dataset.shuffle(buffer_size=buffer, seed=seed)
        out.append(_finish(dataset, batch_size, class_names, list(split_paths)))
    return out if subset == "both" else out[0]


# -- time series ---------------------------------------------------------------------------------------
def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1, sampling_rate=1, batch_size=128,
                                  shuffle=False, seed=None, start_index=None, end_index=None, format="tf"):  # noqa: A002
    """Windows of ``sequence_length`` steps (every ``sampling_rate``-th), one starting every
    ``sequence_stride`` steps, each with the target at its start."""
    n = len(data)
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: start_index={start_index}")
        if start_index >= n:
            raise ValueError("`start_index` must be lower than the length of the data. Received: "
                             f"start_index={start_index}, for data of length {n}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= n:
            raise ValueError("`end_index` must be lower than the length of the data. Received: "
                             f"end_index={end_index}, for data of length {n}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: end_index={end_index}")
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if value <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")
        if value >= n:
            raise ValueError(f"`{name}` must be lower than the length of the data. Received: {name}={value}, for "
                             f"data of length {n}")
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if format != "tf":
        raise NotImplementedError("devtrace does not implement keras.utils.timeseries_dataset_from_array(format=...) yet")
    start_index = start_index or 0
    end_index = end_index or n
    count = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        count = min(count, len(targets))
    starts = np.arange(0, count, sequence_stride, dtype="int32" if count < 2147483647 else "int64")
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(starts)
    values = np.asarray(data)[start_index:end_index]
    windows = np.stack([values[s:s + sequence_length * sampling_rate:sampling_rate] for s in starts]) if len(starts) \
        else np.zeros((0, sequence_length) + values.shape[1:], values.dtype)
    if targets is not None:
        picked = np.asarray(targets)[start_index:end_index][starts]
        dataset = _windows_of_unknown_length(tf.data.Dataset.from_tensor_slices((windows, picked)))
    else:
        dataset = _windows_of_unknown_length(tf.data.Dataset.from_tensor_slices(windows))
    if shuffle:
        dataset = dataset.shuffle(buffer_size=batch_size * 8 if batch_size is not None else 1024, seed=seed)
    if batch_size is not None:
        dataset = dataset.batch(batch_size)
    return dataset.prefetch(tf.data.AUTOTUNE)


def _windows_of_unknown_length(dataset):
    """Keras gathers each window with a ``tf.range`` of its positions: its length is unknown (``None``)
    in the element_spec, as TensorFlow's shape inference leaves it."""
    spec = dataset.element_spec
    window = spec[0] if isinstance(spec, tuple) else spec
    relaxed = tf.TensorSpec((None,) + tuple(window.shape[1:]), window.dtype)
    return dataset._new(dataset._source, (relaxed, spec[1]) if isinstance(spec, tuple) else relaxed,
                        dataset._cardinality, "_MapDataset")


# -- splitting -----------------------------------------------------------------------------------------
def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None, preferred_backend=None):
    """Two ``tf.data.Dataset``s of the samples (an array, a tuple/list of arrays, or a dataset):
    the first ``left_size``, the last ``right_size`` (ints, or fractions of the whole), shuffled
    first with Python's ``random`` seeded as Keras seeds it."""
    batch = None
    if isinstance(dataset, tf.data.Dataset):
        if getattr(dataset, "_kind", None) == "_BatchDataset":  # split by samples, rebatched alike
            first = next(iter(dataset))
            batch = int((first[0] if isinstance(first, tuple) else first).shape[0])
        samples = list(dataset.unbatch() if batch else dataset)
        samples = [tuple(np.asarray(v) for v in s) if isinstance(s, tuple) else np.asarray(s) for s in samples]
    elif isinstance(dataset, (tuple, list)):
        arrays = [np.asarray(a) for a in dataset]
        samples = list(zip(*arrays))
    elif isinstance(dataset, np.ndarray):
        samples = list(dataset)
    else:
        raise TypeError("The `dataset` argument must be eithera `tf.data.Dataset` object, ora list/tuple of arrays. "
                        f"Received: dataset={dataset} of type {type(dataset)}")
    if right_size is None and left_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. Received: "
                         "left_size=None and right_size=None")
    if shuffle:
        seed = random.randint(0, int(1e6)) if seed is None else seed
        random.seed(seed)
        random.shuffle(samples)
    left, right = _split_sizes(left_size, right_size, len(samples))
    halves = []
    for part in (samples[:left], samples[-right:]):
        if part and isinstance(part[0], tuple):
            elements = tuple(np.array(column) for column in zip(*part))
        else:
            elements = np.array(part)
        split = tf.data.Dataset.from_tensor_slices(elements)
        halves.append((split.batch(batch) if batch else split).prefetch(tf.data.AUTOTUNE))
    return tuple(halves)


def _split_sizes(left, right, total):
    for name, value in (("left_size", left), ("right_size", right)):
        if value is not None and type(value) not in (int, float):
            raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, Received: "
                            f"type({name})={type(value)}.")
    if left == 0 and right == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split sizes must be non-zero.")
    if type(left) is int and (left <= 0 or left >= total) or type(left) is float and (left <= 0 or left >= 1):
        raise ValueError(f"`left_size` should be either a positive integer smaller than {total}, or a float within "
                         f"the range `[0, 1]`. Received: left_size={left}")
    if type(right) is int and (right <= 0 or right >= total) or type(right) is float and (right <= 0 or right >= 1):
        raise ValueError(f"`right_size` should be either a positive integer and smaller than {total} or a float "
                         f"within the range `[0, 1]`. Received: right_size={right}")
    if type(left) is float and type(right) is float and left + right > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must be less than or equal "
                         "to 1.")
    left = round(left * total) if type(left) is float else left
    right = round(right * total) if type(right) is float else right
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the {total}. Received: "
                         f"left_size + right_size = {float(left + right)}and total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={float(left)} and "
                             f"`right_size`={float(right)}.Resulting {side} side dataset split will be empty. Adjust "
                             "any of the aforementioned parameters")
    return int(left), int(right)
