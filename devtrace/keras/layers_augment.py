"""Keras 3's random image augmentations: ``RandomFlip``, ``RandomRotation``, ``RandomZoom``,
``RandomTranslation``, ``RandomContrast``, ``RandomBrightness``, ``RandomCrop``. Each draws from
its own ``SeedGenerator`` as Keras's does (the same draws, in the same order, so a seeded layer
gives Keras's values) and acts only in training — a call that does not say (``layer(x)``,
``model(x)``) trains, as in Keras; ``predict`` and ``evaluate`` pass ``training=False``.

Rotation, zoom and translation move pixels by an affine transform. TensorFlow runs that as one op,
``ImageProjectiveTransformV3``; devtrace does not declare that op yet and composes its sampling
from TensorFlow's ops (the output grid mapped back, the coordinates folded as the fill mode folds
them, four ``GatherNd`` reads blended bilinearly) — the same values, other ops in the log."""

from __future__ import annotations

import math

import numpy as np

import devtrace as tf
from . import keywords
from . import random as keras_random
from .engine import Layer


def _factor_pair(factor, name, bounds=(-1.0, 1.0)):
    text = (f"The `factor` argument should be a number (or a list of two numbers) in the range "
            f"[{bounds[0]}, {bounds[1]}]. Received: factor={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(text)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(text)
        factor = abs(factor)
        return max(-factor, bounds[0]), factor
    raise ValueError(text)


def _zoom_pair(factor, name):
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(f"The `{name}` argument should be a number (or a list of two numbers) in the range "
                             f"[-1.0, 1.0]. Received: {name}={factor}")
        return float(factor[0]), float(factor[1])
    return -float(factor), float(factor)


class _Augment(Layer):
    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented(f"keras.layers.{type(self).__name__}",
                               data_format=(data_format, (None, "channels_last")))
        self.seed = seed
        self.generator = keras_random.SeedGenerator(seed)

    def compute_output_shape(self, input_shape):
        return input_shape

    def call(self, inputs, training=True):
        x = tf.cast(tf.convert_to_tensor(inputs), tf.float32)
        if training is not None and not training:  # None: Keras's default, training
            return x
        unbatched = len(x.shape) == 3
        if unbatched:
            x = tf.expand_dims(x, 0)
        y = self._augment(x)
        return tf.squeeze(y, [0]) if unbatched else y


class RandomFlip(_Augment):
    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(seed, data_format, **kwargs)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument {mode}")
        self.mode = mode

    def _augment(self, x):
        flips = keras_random.uniform((x.shape[0], 1, 1, 1), seed=self.generator) <= 0.5
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            x = tf.where(flips, tf.reverse(x, [-2]), x)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            x = tf.where(flips, tf.reverse(x, [-3]), x)
        return x


def _fold(c, n, mode):
    """TensorFlow's ``map_coordinate`` for the fill modes, on float coordinates."""
    if mode == "constant":
        return c
    if n <= 1:
        return tf.zeros_like(c)
    if mode == "nearest":
        return tf.clip_by_value(c, 0.0, n - 1.0)

    def trunc(v):
        return tf.cast(tf.cast(v, tf.int64), tf.float32)

    if mode == "reflect":
        sz2 = 2.0 * n
        neg = sz2 * trunc(-c / sz2) + c
        neg = tf.where(neg < -n, neg + sz2, -neg - 1.0)
        pos = c - sz2 * trunc(c / sz2)
        pos = tf.where(pos >= n, sz2 - pos - 1.0, pos)
    elif mode == "wrap":
        sz = n - 1.0
        neg = c + n * (trunc(-c / sz) + 1.0)
        pos = c - n * trunc(c / sz)
    else:
        raise NotImplementedError(f"devtrace does not implement the fill mode {mode!r} yet")
    folded = tf.where(c < 0, neg, tf.where(c > n - 1, pos, c))
    return tf.clip_by_value(folded, 0.0, n - 1.0)


def affine_transform(images, transforms, interpolation="bilinear", fill_mode="constant", fill_value=0.0):
    """``ImageProjectiveTransformV3``'s values: each output pixel ``(x, y)`` reads the input at
    ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``."""
    b, h, w, _ = images.shape
    rows, cols = np.meshgrid(np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32), indexing="ij")
    x, y = tf.constant(cols[None]), tf.constant(rows[None])
    t = tf.reshape(tf.cast(transforms, tf.float32), [-1, 8, 1, 1])
    a0, a1, a2, b0, b1, b2, c0, c1 = (t[:, i] for i in range(8))
    k = c0 * x + c1 * y + 1.0
    in_x = _fold((a0 * x + a1 * y + a2) / k, w, fill_mode)
    in_y = _fold((b0 * x + b1 * y + b2) / k, h, fill_mode)
    batch = tf.constant(np.broadcast_to(np.arange(b, dtype=np.int64)[:, None, None], (b, h, w)).copy())
    fill = tf.constant(fill_value, tf.float32)

    def read(yy, xx):
        yi, xi = tf.cast(yy, tf.int64), tf.cast(xx, tf.int64)
        inside = (yi >= 0) & (yi < h) & (xi >= 0) & (xi < w)
        index = tf.stack([batch, tf.clip_by_value(yi, 0, h - 1), tf.clip_by_value(xi, 0, w - 1)], -1)
        return tf.where(tf.expand_dims(inside, -1), tf.gather_nd(images, index), fill)

    if interpolation == "nearest":
        return read(tf.floor(in_y + 0.5), tf.floor(in_x + 0.5))
    if interpolation != "bilinear":
        raise NotImplementedError(f"devtrace does not implement the interpolation {interpolation!r} yet")
    x0, y0 = tf.floor(in_x), tf.floor(in_y)
    x1, y1 = x0 + 1.0, y0 + 1.0
    wx0, wx1 = tf.expand_dims(x1 - in_x, -1), tf.expand_dims(in_x - x0, -1)
    wy0, wy1 = tf.expand_dims(y1 - in_y, -1), tf.expand_dims(in_y - y0, -1)
    top = wx0 * read(y0, x0) + wx1 * read(y0, x1)
    bottom = wx0 * read(y1, x0) + wx1 * read(y1, x1)
    return wy0 * top + wy1 * bottom


class _Affine(_Augment):
    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(seed, data_format, **kwargs)
        if fill_mode not in ("reflect", "wrap", "constant", "nearest"):
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                      "`{'reflect', 'wrap', 'constant', 'nearest'}`.")
        if interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                      "`{'nearest', 'bilinear'}`.")
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def _augment(self, x):
        return affine_transform(x, self._matrix(x), self.interpolation, self.fill_mode, self.fill_value)


class RandomRotation(_Affine):
    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 value_range=(0, 255), data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = _factor_pair(factor, "factor")
        self.value_range = value_range

    def _matrix(self, x):
        b, h, w = x.shape[0], float(x.shape[1]), float(x.shape[2])
        angle = keras_random.uniform((b,), minval=self.factor[0] * 360.0, maxval=self.factor[1] * 360.0,
                                     seed=self.generator) * (math.pi / 180.0)
        cx, cy = 0.5 * (w - 1), 0.5 * (h - 1)
        cos, sin = tf.cos(angle), tf.sin(angle)
        a0, a1 = cos, -sin
        b0, b1 = sin, cos
        a2 = cx - cx * a0 - cy * a1
        b2 = cy - cx * b0 - cy * b1
        zeros = tf.zeros([b])
        return tf.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], 1)


class RandomZoom(_Affine):
    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _zoom_pair(height_factor, "height_factor")
        if width_factor is not None:
            self.width_lower, self.width_upper = _zoom_pair(width_factor, "width_factor")

    def _matrix(self, x):
        b, h, w = x.shape[0], float(x.shape[1]), float(x.shape[2])
        height = keras_random.uniform((b, 1), minval=1.0 + self.height_lower, maxval=1.0 + self.height_upper,
                                      seed=self.generator)
        width = height if self.width_factor is None else keras_random.uniform(
            (b, 1), minval=1.0 + self.width_lower, maxval=1.0 + self.width_upper, seed=self.generator)
        x_offset = ((w - 1.0) / 2.0) * (1.0 - width)
        y_offset = ((h - 1.0) / 2.0) * (1.0 - height)
        zeros = tf.zeros([b, 1])
        return tf.concat([width, zeros, x_offset, zeros, height, y_offset, zeros, zeros], 1)


class RandomTranslation(_Affine):
    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_lower, self.height_upper = _zoom_pair(height_factor, "height_factor")
        self.width_lower, self.width_upper = _zoom_pair(width_factor, "width_factor")

    def _matrix(self, x):
        b, h, w = x.shape[0], float(x.shape[1]), float(x.shape[2])
        dy = keras_random.uniform([b, 1], minval=self.height_lower, maxval=self.height_upper,
                                  seed=self.generator) * h
        dx = keras_random.uniform([b, 1], minval=self.width_lower, maxval=self.width_upper,
                                  seed=self.generator) * w
        ones, zeros = tf.ones([b, 1]), tf.zeros([b, 1])
        return tf.concat([ones, zeros, -dx, zeros, ones, -dy, zeros, zeros], 1)


class RandomContrast(_Augment):
    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.factor = _factor_pair(factor, "factor", (0, 1))
        self.value_range = value_range

    def _augment(self, x):
        factor = keras_random.uniform([x.shape[0], 1, 1, 1], minval=1.0 - self.factor[0],
                                      maxval=1.0 + self.factor[1], seed=self.generator)
        mean = tf.reduce_mean(tf.reduce_mean(x, axis=-3, keepdims=True), axis=-2, keepdims=True)
        return tf.clip_by_value((x - mean) * factor + mean, self.value_range[0], self.value_range[1])


class RandomBrightness(_Augment):
    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.factor = _factor_pair(factor, "factor")
        self.value_range = value_range

    def _augment(self, x):
        delta = keras_random.uniform([x.shape[0], 1, 1, 1], minval=self.factor[0], maxval=self.factor[1],
                                     seed=self.generator) * (self.value_range[1] - self.value_range[0])
        return tf.clip_by_value(x + delta, self.value_range[0], self.value_range[1])


__all__ = ["RandomBrightness", "RandomContrast", "RandomFlip", "RandomRotation", "RandomTranslation", "RandomZoom"]
