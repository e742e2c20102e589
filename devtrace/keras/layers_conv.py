"""Keras's convolution and pooling layers (channels last): ``Conv1D``, ``Conv2D``,
``MaxPooling2D``, ``AveragePooling2D``, ``GlobalAveragePooling2D`` on devtrace's ``Conv2D`` /
``MaxPool`` / ``AvgPool`` / ``Mean`` ops."""

from __future__ import annotations

import devtrace as tf
from . import activations, initializers
from .engine import Layer


def _tuple(value, n):
    return tuple(value) if isinstance(value, (list, tuple)) else (int(value),) * n


def _out_dim(size, window, stride, padding):
    if size is None:
        return None
    return -(-size // stride) if padding == "same" else (size - window) // stride + 1


class _Conv(Layer):
    _TRACKED_AS = {"kernel": "_kernel"}  # Keras 3 keeps it as ``_kernel``: a checkpoint's key
    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self._kernel_reg = kernel_regularizer
        self.filters = int(filters)
        self.kernel_size, self.strides = _tuple(kernel_size, self.rank), _tuple(strides, self.rank)
        self.padding, self.activation, self.use_bias = padding.lower(), activations.get(activation), use_bias
        self._kernel_init, self._bias_init = initializers.get(kernel_initializer), initializers.get(bias_initializer)

    def build(self, input_shape):
        self.kernel = self.add_weight(self.kernel_size + (input_shape[-1], self.filters), self._kernel_init,
                                      name="kernel", regularizer=self._kernel_reg)
        self.bias = self.add_weight((self.filters,), self._bias_init, name="bias") if self.use_bias else None
        self._input_axes = {-1: input_shape[-1]}
        self.built = True

    def call(self, inputs):
        y = self._convolve(tf.convert_to_tensor(inputs), self.kernel)
        if self.bias is not None:
            y = tf.nn.bias_add(y, self.bias)
        return self.activation(y)

    def convolution_op(self, inputs, kernel):
        """The layer's convolution (its strides and padding) of ``inputs`` with ``kernel``, no bias
        or activation: Keras's hook for a subclass's ``call``."""
        return self._convolve(tf.convert_to_tensor(inputs), tf.convert_to_tensor(kernel))

    def compute_output_shape(self, input_shape):
        dims = [_out_dim(d, k, s, self.padding) for d, k, s in zip(input_shape[1:-1], self.kernel_size, self.strides)]
        return (input_shape[0], *dims, self.filters)


class Conv2D(_Conv):
    def _convolve(self, x, kernel):
        return tf.nn.conv2d(x, kernel, list(self.strides), self.padding.upper())


class Conv1D(_Conv):
    rank = 1

    def _convolve(self, x, kernel):
        return tf.nn.conv1d(x, kernel, self.strides[0], self.padding.upper())


class _Pooling2D(Layer):
    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _tuple(pool_size, 2)
        self.strides = _tuple(strides, 2) if strides is not None else self.pool_size
        self.padding = padding.lower()

    def call(self, inputs):
        return self._pool(inputs, list(self.pool_size), list(self.strides), self.padding.upper())

    def compute_output_shape(self, input_shape):
        dims = [_out_dim(d, k, s, self.padding) for d, k, s in zip(input_shape[1:3], self.pool_size, self.strides)]
        return (input_shape[0], *dims, input_shape[3])


class MaxPooling2D(_Pooling2D):
    _pool = staticmethod(tf.nn.max_pool2d)


class AveragePooling2D(_Pooling2D):
    _pool = staticmethod(tf.nn.avg_pool2d)

    def __init__(self, pool_size, strides=None, padding="valid", **kwargs):  # no default size in Keras 3
        super().__init__(pool_size, strides, padding, **kwargs)


class GlobalAveragePooling2D(Layer):
    def __init__(self, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.keepdims = keepdims

    def call(self, inputs):
        return tf.reduce_mean(inputs, axis=[1, 2], keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        if self.keepdims:
            return (input_shape[0], 1, 1, input_shape[3])
        return (input_shape[0], input_shape[3])


MaxPool2D, AvgPool2D, GlobalAvgPool2D = MaxPooling2D, AveragePooling2D, GlobalAveragePooling2D
