"""Keras's 1-D pooling and global pooling layers (channels last): ``MaxPooling1D``,
``AveragePooling1D``, ``Global{Max,Average}Pooling{1,2,3}D`` (2-D average pooling in
``layers_conv``)."""

from __future__ import annotations

import devtrace as tf
from . import keywords
from .engine import Layer
from .layers_conv import GlobalAveragePooling2D, _out_dim


class _Pooling1D(Layer):
    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented(f"keras.layers.{type(self).__name__}", data_format=(data_format, (None, "channels_last")))
        self.pool_size = int(pool_size[0] if isinstance(pool_size, (list, tuple)) else pool_size)
        self.strides = int(strides[0] if isinstance(strides, (list, tuple)) else strides) if strides is not None \
            else self.pool_size
        self.padding = padding.lower()

    def call(self, inputs):
        return self._pool(tf.convert_to_tensor(inputs), self.pool_size, self.strides, self.padding.upper())

    def compute_output_shape(self, input_shape):
        return (input_shape[0], _out_dim(input_shape[1], self.pool_size, self.strides, self.padding), input_shape[2])


class MaxPooling1D(_Pooling1D):
    _pool = staticmethod(tf.nn.max_pool1d)


class AveragePooling1D(_Pooling1D):
    _pool = staticmethod(tf.nn.avg_pool1d)


class _Pooling3D(Layer):
    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented(f"keras.layers.{type(self).__name__}", data_format=(data_format, (None, "channels_last")))
        self.pool_size = tuple(pool_size) if isinstance(pool_size, (list, tuple)) else (int(pool_size),) * 3
        self.strides = self.pool_size if strides is None else \
            tuple(strides) if isinstance(strides, (list, tuple)) else (int(strides),) * 3
        self.padding = padding.lower()

    def call(self, inputs):
        return self._pool(tf.convert_to_tensor(inputs), list(self.pool_size), list(self.strides), self.padding.upper())

    def compute_output_shape(self, input_shape):
        dims = [_out_dim(d, k, s, self.padding) for d, k, s in zip(input_shape[1:4], self.pool_size, self.strides)]
        return (input_shape[0], *dims, input_shape[4])


class MaxPooling3D(_Pooling3D):
    _pool = staticmethod(tf.nn.max_pool3d)


class AveragePooling3D(_Pooling3D):
    _pool = staticmethod(tf.nn.avg_pool3d)


class _GlobalPooling(Layer):
    rank = 1

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented(f"keras.layers.{type(self).__name__}", data_format=(data_format, (None, "channels_last")))
        self.keepdims = keepdims

    def call(self, inputs, mask=None):
        if mask is not None and self._reduce is tf.reduce_mean and self.rank == 1:
            # Keras's GlobalAveragePooling1D: the mean of the unmasked steps only
            x = tf.convert_to_tensor(inputs)
            keep = tf.expand_dims(tf.cast(mask, tf.bool), 2)
            total = tf.reduce_sum(tf.where(keep, x, tf.zeros((), x.dtype)), axis=1, keepdims=self.keepdims)
            return total / tf.reduce_sum(tf.cast(keep, x.dtype), axis=1, keepdims=self.keepdims)
        return self._reduce(inputs, axis=list(range(1, self.rank + 1)), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        if self.keepdims:
            return (input_shape[0],) + (1,) * self.rank + (input_shape[-1],)
        return (input_shape[0], input_shape[-1])


def _global(name, rank, reduce):
    return type(name, (_GlobalPooling,), {"rank": rank, "_reduce": staticmethod(reduce), "__module__": __name__})


GlobalMaxPooling1D = _global("GlobalMaxPooling1D", 1, tf.reduce_max)
GlobalMaxPooling2D = _global("GlobalMaxPooling2D", 2, tf.reduce_max)
GlobalMaxPooling3D = _global("GlobalMaxPooling3D", 3, tf.reduce_max)
GlobalAveragePooling1D = _global("GlobalAveragePooling1D", 1, tf.reduce_mean)
GlobalAveragePooling1D.supports_masking = True  # Keras's: the mean of the unmasked steps
GlobalAveragePooling3D = _global("GlobalAveragePooling3D", 3, tf.reduce_mean)

MaxPool1D, AvgPool1D, MaxPool3D, AvgPool3D = MaxPooling1D, AveragePooling1D, MaxPooling3D, AveragePooling3D
GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D = GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D
GlobalAvgPool1D, GlobalAvgPool3D = GlobalAveragePooling1D, GlobalAveragePooling3D
__all__ = ["AvgPool1D", "AveragePooling1D", "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAveragePooling3D",
           "GlobalAvgPool1D", "GlobalAvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D",
           "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D", "MaxPool1D", "MaxPooling1D", "MaxPooling3D",
           "AveragePooling3D", "MaxPool3D", "AvgPool3D"]
