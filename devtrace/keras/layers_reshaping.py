"""Keras's reshaping layers past ``Flatten`` and ``Reshape``: ``Permute``, ``RepeatVector``,
``UpSampling1D``, ``UpSampling2D`` (nearest), on devtrace's ops."""

from __future__ import annotations

import devtrace as tf
from . import keywords
from .engine import Layer
from .layers_conv import _tuple


class Permute(Layer):
    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={dims}")

    def call(self, inputs):
        return tf.transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)


class RepeatVector(Layer):
    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        self.n = n

    def call(self, inputs):
        return tf.tile(tf.expand_dims(inputs, 1), [1, self.n, 1])

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])


class UpSampling1D(Layer):
    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs):
        return tf.repeat(inputs, self.size, axis=1)

    def compute_output_shape(self, input_shape):
        steps = input_shape[1] * self.size if input_shape[1] is not None else None
        return (input_shape[0], steps, input_shape[2])


class UpSampling2D(Layer):
    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.UpSampling2D", data_format=(data_format, (None, "channels_last")),
                               interpolation=(interpolation, ("nearest", "bilinear", "bicubic", "lanczos3",
                                                              "lanczos5", "area")))
        self.size, self.interpolation = _tuple(size, 2), interpolation

    def call(self, inputs):
        if self.interpolation != "nearest":  # Keras's: the image resized to the multiplied size
            x = tf.convert_to_tensor(inputs)
            return tf.image.resize(x, [x.shape[1] * self.size[0], x.shape[2] * self.size[1]], method=self.interpolation)
        return tf.repeat(tf.repeat(inputs, self.size[0], axis=1), self.size[1], axis=2)

    def compute_output_shape(self, input_shape):
        h, w = (d * s if d is not None else None for d, s in zip(input_shape[1:3], self.size))
        return (input_shape[0], h, w, input_shape[3])
