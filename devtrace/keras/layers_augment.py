"""Keras 3's random image augmentations: ``RandomFlip``, ``RandomRotation``, ``RandomZoom``,
``RandomTranslation``, ``RandomContrast``, ``RandomBrightness``, ``RandomCrop``. Each draws from
its own ``SeedGenerator`` as Keras's does (the same draws, in the same order, so a seeded layer
gives Keras's values) and acts only in training — a call that does not say (``layer(x)``,
``model(x)``) trains, as in Keras; ``predict`` and ``evaluate`` pass ``training=False``.

Rotation, zoom and translation move pixels by an affine transform: one
``ImageProjectiveTransformV3``, as Keras's TensorFlow backend runs it."""

from __future__ import annotations

import math

import devtrace as tf
from ..runtime.eager.executor import execute
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
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

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
        self.mode = mode  # Keras checks nothing: another mode flips nothing

    def _augment(self, x):
        flips = keras_random.uniform((x.shape[0], 1, 1, 1), seed=self.generator) <= 0.5
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            x = tf.where(flips, tf.reverse(x, [-2]), x)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            x = tf.where(flips, tf.reverse(x, [-3]), x)
        return x


def affine_transform(images, transforms, interpolation="bilinear", fill_mode="constant", fill_value=0.0):
    """Keras's TensorFlow ``affine_transform``: one ``ImageProjectiveTransformV3``."""
    return execute("ImageProjectiveTransformV3", (tf.convert_to_tensor(images), tf.cast(transforms, tf.float32)),
                   {"output_shape": tuple(images.shape[1:3]), "fill_value": float(fill_value),
                    "interpolation": interpolation.upper(), "fill_mode": fill_mode.upper()})


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


class RandomCrop(_Augment):
    """A random ``height`` x ``width`` window in training (one per batch, as Keras draws it); outside
    training the images pass unchanged, as Keras 3.15's do."""

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(seed, data_format, name=name, **kwargs)
        self.height, self.width = int(height), int(width)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])

    def _augment(self, x):
        h, w = x.shape[1], x.shape[2]
        if h > self.height and w > self.width:
            top = int(tf.cast(keras_random.uniform((), 0, float(h - self.height + 1), seed=self.generator), tf.int32))
            left = int(tf.cast(keras_random.uniform((), 0, float(w - self.width + 1), seed=self.generator),
                               tf.int32))
        else:
            crop_h = max(min(h, int(float(w * self.height) / self.width)), 1)
            crop_w = max(min(w, int(float(h * self.width) / self.height)), 1)
            top, left = int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)
        y = x[:, top:top + self.height, left:left + self.width, :]
        if y.shape[1] != self.height or y.shape[2] != self.width:
            y = tf.image.resize(y, [self.height, self.width])
        return y


__all__ = ["RandomBrightness", "RandomContrast", "RandomCrop", "RandomFlip", "RandomRotation", "RandomTranslation",
           "RandomZoom"]
