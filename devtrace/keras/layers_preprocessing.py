"""Keras 3's preprocessing layers for numbers and images: ``Rescaling``, ``Resizing``,
``CenterCrop``, ``Normalization`` (``adapt`` as Keras computes the mean and variance, batch by
batch for a dataset), ``CategoryEncoding``, ``Discretization`` and ``Hashing`` (TensorFlow's
FarmHash through ``StringToHashBucketFast``); the lookups and text in ``layers_text``, the random
augmentations in ``layers_augment``."""

from __future__ import annotations

import math

import numpy as np

import devtrace as tf
from . import keywords
from .engine import Layer


def _tensor(x, dtype=None):
    if isinstance(x, (list, tuple)) and x and isinstance(x[0], str) or isinstance(x, str):
        return tf.constant(x)
    return tf.convert_to_tensor(x, dtype=dtype) if dtype is not None else tf.convert_to_tensor(x)


class Rescaling(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.supports_masking = True

    def call(self, inputs):
        dtype = self.compute_dtype
        x = tf.cast(tf.convert_to_tensor(inputs), dtype)
        return x * tf.cast(self.scale, dtype) + tf.cast(self.offset, dtype)

    def compute_output_shape(self, input_shape):
        return input_shape


class Resizing(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, antialias=False, data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.Resizing", data_format=(data_format, (None, "channels_last")),
                               fill_mode=(fill_mode, "constant"))
        self.height, self.width, self.interpolation = int(height), int(width), interpolation
        self.crop_to_aspect_ratio, self.antialias = crop_to_aspect_ratio, antialias
        self.pad_to_aspect_ratio, self.fill_mode, self.fill_value = pad_to_aspect_ratio, fill_mode, fill_value

    def call(self, inputs):
        x = tf.cast(tf.convert_to_tensor(inputs), tf.float32)
        if self.pad_to_aspect_ratio:
            x = _pad_to_aspect_ratio(x, self.height, self.width, self.fill_value)
        elif self.crop_to_aspect_ratio:
            return _smart_resize(x, self.height, self.width, self.interpolation)
        return tf.image.resize(x, [self.height, self.width], method=self.interpolation, antialias=self.antialias)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])


def _pad_to_aspect_ratio(x, height, width, fill_value):
    """Keras's padding to the target's aspect ratio: ``fill_value`` rows (columns) on both sides,
    as many on each as half the missing ones, rounded down."""
    h, w = x.shape[-3], x.shape[-2]
    top = (max(h, int(float(w * height) / width)) - h) // 2
    left = (max(w, int(float(h * width) / height)) - w) // 2
    pads = [[0, 0]] * (len(x.shape) - 3) + [[top, top], [left, left], [0, 0]]
    return tf.pad(x, pads, constant_values=fill_value) if top or left else x


def _smart_resize(x, height, width, interpolation="bilinear"):
    """Keras's ``smart_resize``: the largest centred crop of the target's aspect ratio, resized."""
    h, w = x.shape[-3], x.shape[-2]
    crop_h = min(h, int(float(w * height) / width))
    crop_w = min(w, int(float(h * width) / height))
    top, left = (h - crop_h) // 2, (w - crop_w) // 2
    cropped = x[..., top:top + crop_h, left:left + crop_w, :]
    return tf.image.resize(cropped, [height, width], method=interpolation)


class CenterCrop(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.CenterCrop", data_format=(data_format, (None, "channels_last")))
        self.height, self.width = int(height), int(width)

    def call(self, inputs):
        x = tf.cast(tf.convert_to_tensor(inputs), tf.float32)
        h_diff, w_diff = x.shape[-3] - self.height, x.shape[-2] - self.width
        if h_diff >= 0 and w_diff >= 0:
            top, left = h_diff // 2, w_diff // 2
            return x[..., top:top + self.height, left:left + self.width, :]
        return _smart_resize(x, self.height, self.width)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])


def _batches(data):
    """What ``adapt`` reads: one array, or the batches of a dataset or an iterable (features only)."""
    if isinstance(data, (np.ndarray, tf.Tensor)) or isinstance(data, (list, tuple)) and data and \
            not hasattr(data[0], "shape"):
        return [data], False
    if hasattr(data, "element_spec") and len(getattr(data.element_spec, "shape", (0, 0))) == 1:
        data = data.batch(128)
    return (b[0] if isinstance(b, tuple) else b for b in data), True


def _summarize(values, epsilon):
    """Every ``len / (1 / epsilon)``-th sorted value (all of them when fewer), each weighing the step."""
    values = np.sort(values.reshape(-1))
    step = max(values.size * epsilon, 1)
    points = values[int(step - 1)::int(step)]
    return np.stack([points, np.full_like(points, step)])


def _compress(summary, epsilon):
    """At most ``1 / epsilon`` points: values and weights interpolated at even steps of the cumulative weight."""
    if summary.shape[1] * epsilon < 1:
        return summary
    steps = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    fractions = cumulative / cumulative[-1]
    at = np.interp(steps, fractions, cumulative)
    return np.stack((np.interp(steps, fractions, summary[0]), at - np.concatenate(([0], at[:-1])))).astype("float32")


class Normalization(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        self.axis = (axis,) if isinstance(axis, int) else tuple(axis)
        if (mean is None) != (variance is None):
            raise ValueError("When setting values directly, both `mean` and `variance` must be set. "
                             f"Received: mean={mean} and variance={variance}")
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        self.mean = self.variance = None

    def build(self, input_shape):
        ndim = len(input_shape)
        self._keep = tuple(sorted(a % ndim for a in self.axis))
        self._reduce = tuple(d for d in range(ndim) if d not in self._keep)
        self._broadcast = [input_shape[d] if d in self._keep else 1 for d in range(ndim)]
        self._shape = tuple(input_shape[d] for d in self._keep)
        self._build_input_shape = tuple(input_shape)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(self._shape, "zeros", name="mean", trainable=False)
            self.adapt_variance = self.add_weight(self._shape, "ones", name="variance", trainable=False)
            self.count = self.add_weight((), "zeros", dtype="int64", name="count", trainable=False)
            self.built = True
            self._finalize()
        else:
            mean = np.asarray(self.input_mean, np.float32)
            variance = np.asarray(self.input_variance, np.float32)
            if mean.ndim:
                expanded = [1] * ndim
                for i in range(1, mean.ndim + 1):
                    expanded[self._keep[-i]] = mean.shape[-i]
                mean, variance = mean.reshape(expanded), variance.reshape(expanded)
            self.mean = tf.constant(np.broadcast_to(mean, self._broadcast).astype(np.float32))
            self.variance = tf.constant(np.broadcast_to(variance, self._broadcast).astype(np.float32))
            self.built = True

    def _finalize(self):
        self.mean = tf.reshape(self.adapt_mean, self._broadcast)
        self.variance = tf.reshape(self.adapt_variance, self._broadcast)

    def adapt(self, data):
        batches, iterable = _batches(data)
        batches = iter(batches)
        first = tf.cast(_tensor(next(batches)), tf.float32)
        if not self.built:
            self.build(tuple(first.shape))
        if isinstance(data, np.ndarray):  # Keras's: NumPy's mean and variance, in the array's precision
            total_mean, total_var = np.mean(data, axis=tuple(self._reduce)), np.var(data, axis=tuple(self._reduce))
        elif not iterable:
            total_mean, total_var = tf.nn.moments(first, list(self._reduce))
        else:
            total_mean, total_var, total_count = tf.zeros(self._shape), tf.zeros(self._shape), 0
            for batch in [first] + [tf.cast(_tensor(b), tf.float32) for b in batches]:
                batch_mean, batch_var = tf.nn.moments(batch, list(self._reduce))
                count = math.prod(batch.shape[d] for d in self._reduce) if self._reduce else 1
                total_count += count
                weight = float(count) / total_count
                new_mean = total_mean * (1.0 - weight) + batch_mean * weight
                total_var = (total_var + (total_mean - new_mean) ** 2) * (1.0 - weight) + \
                    (batch_var + (batch_mean - new_mean) ** 2) * weight
                total_mean = new_mean
        self.adapt_mean.assign(total_mean)
        self.adapt_variance.assign(total_var)
        self._finalize()

    def call(self, inputs):
        if self.mean is None:
            raise ValueError("You must call `.build(input_shape)` on the layer before using it.")
        x = tf.cast(tf.convert_to_tensor(inputs), tf.float32)
        std = tf.maximum(tf.sqrt(self.variance), 1e-7)
        if self.invert:
            return self.mean + x * std
        return (x - self.mean) / std

    def compute_output_shape(self, input_shape):
        return input_shape


def encode_categorical(ids, depth, output_mode, count_weights=None, idf_weights=None, dtype=tf.float32):
    """Keras's ``encode_categorical_inputs``: ``one_hot`` of each id, or per row ``multi_hot``
    (present or not), ``count`` or ``tf_idf`` (counts times the idf weights)."""
    ids = tf.convert_to_tensor(ids)
    if output_mode == "int":
        return ids
    if len(ids.shape) == 0:
        ids = tf.expand_dims(ids, -1)
    if output_mode == "one_hot":
        if len(ids.shape) > 1 and ids.shape[-1] == 1:
            ids = tf.squeeze(ids, [-1])
        return tf.cast(tf.one_hot(ids, depth, dtype=tf.float32), dtype)
    hot = tf.one_hot(ids, depth, dtype=tf.float32)
    if count_weights is not None:
        hot = hot * tf.expand_dims(tf.cast(count_weights, tf.float32), -1)
    reduce_axis = -2 if len(ids.shape) > 1 else 0
    counts = tf.reduce_sum(hot, axis=reduce_axis)
    if output_mode == "multi_hot":
        return tf.cast(counts > 0, dtype)
    if output_mode == "count":
        return tf.cast(counts, dtype)
    if output_mode == "tf_idf":
        return counts * tf.cast(idf_weights, tf.float32)
    raise ValueError(f"Unknown arg for output_mode: {output_mode}")


class CategoryEncoding(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.CategoryEncoding", sparse=(sparse, False))
        output_mode = "multi_hot" if output_mode == "binary" else output_mode  # Keras 3 takes the older name
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens, self.output_mode = int(num_tokens), output_mode

    def get_config(self) -> dict:
        return super().get_config() | {"output_mode": self.output_mode}  # "binary"'s new name

    def call(self, inputs, count_weights=None):
        ids = tf.convert_to_tensor(inputs)
        if ids.dtype.is_floating:
            ids = tf.cast(ids, tf.int64)
        return encode_categorical(ids, self.num_tokens, self.output_mode, count_weights)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if not input_shape:
            return (self.num_tokens,)
        if self.output_mode == "one_hot" and input_shape[-1] != 1:
            return input_shape + (self.num_tokens,)
        return input_shape[:-1] + (self.num_tokens,)


class Discretization(Layer):
    """Bucket indices of the boundaries (``searchsorted`` to the right, as ``Bucketize`` counts)."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.Discretization", sparse=(sparse, False))
        if bin_boundaries is not None and num_bins is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. Received: "
                             f"num_bins={num_bins} and bin_boundaries={bin_boundaries}")
        self.bin_boundaries = list(bin_boundaries) if bin_boundaries is not None else None
        self.num_bins, self.epsilon, self.output_mode = num_bins, epsilon, output_mode
        self._output_dtype = "int64" if output_mode == "int" else "float32"  # a symbolic call's

    def adapt(self, data, steps=None):
        """The boundaries at the data's ``num_bins`` quantiles, approximated as Keras does: each
        batch summarized to about ``1 / epsilon`` weighted points, merged with the summary so far,
        and the boundaries interpolated from the cumulative weights."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with "
                             "`bin_boundaries`, use `num_bins` instead.")
        batches, _ = _batches(data)
        summary = np.zeros((2, 0), np.float32)
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            merged = np.concatenate((_summarize(np.asarray(batch, np.float32), self.epsilon), summary), axis=1)
            summary = _compress(np.take(merged, np.argsort(merged[0]), axis=1), self.epsilon)
        self.bin_boundaries = _compress(summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at construction time or call "
                             "`adapt(dataset)` before you can start using the `Discretization` layer.")
        x = tf.convert_to_tensor(inputs)
        boundaries = tf.constant(np.asarray(self.bin_boundaries, x.dtype.as_numpy_dtype
                                            if hasattr(x.dtype, "as_numpy_dtype") else np.float32))
        flat = tf.reshape(x, [-1])
        ids = tf.reshape(tf.searchsorted(boundaries, flat, side="right", out_type=tf.int32), tf.shape(x))
        depth = len(self.bin_boundaries) + 1
        return encode_categorical(ids, depth, self.output_mode)

    def compute_output_shape(self, input_shape):
        return input_shape


class Hashing(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.Hashing", sparse=(sparse, False))
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                             f"num_bins={num_bins}.")
        self.num_bins, self.mask_value, self.output_mode = int(num_bins), mask_value, output_mode
        self._output_dtype = "int64" if output_mode == "int" else "float32"  # a symbolic call's
        self.salt = None  # Keras: a salt selects SipHash64 (to_hash_bucket_strong), one int meaning [salt, salt]
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError(f"The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
                                 f"single integer. Received: salt={salt}.")

    def _hash(self, strings, bins):
        if self.salt is not None:
            return tf.strings.to_hash_bucket_strong(strings, bins, key=self.salt)
        return tf.strings.to_hash_bucket_fast(strings, bins)

    def call(self, inputs):
        x = _tensor(inputs)
        ints = tf.cast(x, tf.int64) if x.dtype.is_floating else x  # Keras hashes a float's int64 value
        strings = x if x.dtype == tf.string else tf.strings.as_string(ints)
        if self.mask_value is not None:
            bins = self.num_bins - 1
            hashed = self._hash(strings, bins) + 1
            mask = tf.equal(x, tf.constant(self.mask_value, x.dtype))
            hashed = tf.where(mask, tf.zeros_like(hashed), hashed)
        else:
            hashed = self._hash(strings, self.num_bins)
        return encode_categorical(hashed, self.num_bins, self.output_mode)

    def compute_output_shape(self, input_shape):
        return input_shape


__all__ = ["CategoryEncoding", "CenterCrop", "Discretization", "Hashing", "Normalization", "Rescaling", "Resizing"]
