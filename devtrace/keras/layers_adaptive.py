"""Keras's adaptive pooling layers, ``Adaptive{Average,Max}Pooling{1,2,3}D``: each spatial axis is cut
into ``output_size`` bins, bin ``i`` spanning ``[floor(i*L/n), ceil((i+1)*L/n))`` (PyTorch's and
Keras's rule), each bin averaged or maxed."""

from __future__ import annotations

import math

import devtrace as tf
from .engine import Layer


def _bins(length, n):
    return [(i * length // n, math.ceil((i + 1) * length / n)) for i in range(n)]


def adaptive_pool(x, output_size, reduce, channels_first=False):
    """``x`` (batch, spatial…, channels) pooled to ``output_size`` per spatial axis with ``reduce``
    (``tf.reduce_mean``/``tf.reduce_max``); channels first with ``channels_first``."""
    x = tf.convert_to_tensor(x)
    spatial = range(2, x.shape.rank) if channels_first else range(1, x.shape.rank - 1)
    for axis, n in zip(spatial, output_size):
        length = x.shape[axis]
        if length == n:
            continue
        parts = []
        for start, end in _bins(length, n):
            index = [slice(None)] * x.shape.rank
            index[axis] = slice(start, end)
            parts.append(reduce(x[tuple(index)], axis=axis, keepdims=True))
        x = tf.concat(parts, axis)
    return x


class _AdaptivePooling(Layer):
    _rank = 2

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(output_size, int):
            output_size = (output_size,) * self._rank
        elif not isinstance(output_size, (tuple, list)) or len(output_size) != self._rank:
            raise ValueError(f"`output_size` must be an integer or tuple of {self._rank} integers. "
                             f"Received: output_size={output_size}")
        self.output_size = tuple(int(v) for v in output_size)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                             f"Received: data_format={data_format}")

    def call(self, inputs):
        return adaptive_pool(inputs, self.output_size, self._reduce, self.data_format == "channels_first")

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_first":
            return (input_shape[0], input_shape[1], *self.output_size)
        return (input_shape[0], *self.output_size, input_shape[-1])


class AdaptiveAveragePooling1D(_AdaptivePooling):
    _rank, _reduce = 1, staticmethod(tf.reduce_mean)


class AdaptiveAveragePooling2D(_AdaptivePooling):
    _rank, _reduce = 2, staticmethod(tf.reduce_mean)


class AdaptiveAveragePooling3D(_AdaptivePooling):
    _rank, _reduce = 3, staticmethod(tf.reduce_mean)


class AdaptiveMaxPooling1D(_AdaptivePooling):
    _rank, _reduce = 1, staticmethod(tf.reduce_max)


class AdaptiveMaxPooling2D(_AdaptivePooling):
    _rank, _reduce = 2, staticmethod(tf.reduce_max)


class AdaptiveMaxPooling3D(_AdaptivePooling):
    _rank, _reduce = 3, staticmethod(tf.reduce_max)


__all__ = ["AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
           "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D"]
