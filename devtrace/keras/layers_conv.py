"""Keras's convolution and pooling layers (channels last): ``Conv1D``, ``Conv2D``,
``MaxPooling2D``, ``AveragePooling2D``, ``GlobalAveragePooling2D`` on devtrace's ``Conv2D`` /
``MaxPool`` / ``AvgPool`` / ``Mean`` ops."""

from __future__ import annotations

import numpy as np

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
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 dilation_rate=1, groups=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                             f"Received: data_format={data_format}")
        self.data_format = data_format or "channels_last"
        self._kernel_reg = kernel_regularizer
        self.filters = int(filters)
        self.kernel_size, self.strides = _tuple(kernel_size, self.rank), _tuple(strides, self.rank)
        self.dilation_rate, self.groups = _tuple(dilation_rate, self.rank), int(groups)
        if self.filters % self.groups:
            raise ValueError("The number of filters must be evenly divisible by the number of groups. Received: "
                             f"groups={self.groups}, filters={self.filters}.")
        self.padding, self.activation, self.use_bias = padding.lower(), activations.get(activation), use_bias
        self._kernel_init, self._bias_init = initializers.get(kernel_initializer), initializers.get(bias_initializer)

    def _channels_last(self, shape):
        """A shape as channels last (``channels_first``: the channels' axis moved to the end)."""
        shape = tuple(shape)
        return shape if self.data_format == "channels_last" else (shape[0],) + shape[2:] + (shape[1],)

    def build(self, input_shape):
        given, input_shape = tuple(input_shape), self._channels_last(input_shape)
        dims = [_out_dim(d, (k - 1) * r + 1, s, self.padding)
                for d, k, s, r in zip(input_shape[1:-1], self.kernel_size, self.strides, self.dilation_rate)]
        if self.padding == "valid" and any(d is not None and d <= 0 for d in dims):
            raise ValueError("Computed output size would be zero or negative. Received `inputs shape="
                             f"{given}`, `kernel shape={self.kernel_size + (input_shape[-1], self.filters)}`"
                             f", `dilation_rate={np.array(self.dilation_rate)}`, `strides={self.strides}`, "
                             f"`padding={self.padding}`.")
        self.kernel = self.add_weight(self.kernel_size + (input_shape[-1] // self.groups, self.filters),
                                      self._kernel_init, name="kernel", regularizer=self._kernel_reg)
        self.bias = self.add_weight((self.filters,), self._bias_init, name="bias") if self.use_bias else None
        self._input_axes = {-1 if self.data_format == "channels_last" else 1: input_shape[-1]}
        self.built = True

    def _grouped(self, x, kernel):
        if self.data_format == "channels_first":  # as Keras's TensorFlow backend on a CPU: transposed around
            rank = len(x.shape)
            y = self._grouped_last(tf.transpose(x, [0, *range(2, rank), 1]), kernel)
            return tf.transpose(y, [0, rank - 1, *range(1, rank - 1)])
        return self._grouped_last(x, kernel)

    def _grouped_last(self, x, kernel):
        """The layer's convolution: dilated through ``tf.nn.convolution``, causal padding as zeros on
        the left, ``groups`` as one convolution per group of channels, concatenated."""
        padding = self.padding
        if padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            x, padding = tf.pad(x, [[0, 0], [left, 0], [0, 0]]), "valid"
        if self.groups == 1 and set(self.dilation_rate) == {1} and padding == self.padding:
            return self._convolve(x, kernel)
        xs = tf.split(x, self.groups, axis=-1) if self.groups > 1 else [x]
        ks = tf.split(kernel, self.groups, axis=-1) if self.groups > 1 else [kernel]
        ys = [tf.nn.convolution(a, k, list(self.strides), padding.upper(), dilations=list(self.dilation_rate))
              for a, k in zip(xs, ks)]
        return ys[0] if len(ys) == 1 else tf.concat(ys, -1)

    def call(self, inputs):
        y = self._grouped(tf.convert_to_tensor(inputs), self.kernel)
        if self.bias is not None:
            if self.data_format == "channels_first":  # Keras's: the bias reshaped to (1, filters, 1 …)
                y = y + tf.reshape(self.bias, [1, self.filters] + [1] * (len(y.shape) - 2))
            else:
                y = tf.nn.bias_add(y, self.bias)
        return self.activation(y)

    def convolution_op(self, inputs, kernel):
        """The layer's convolution (its strides and padding) of ``inputs`` with ``kernel``, no bias
        or activation: Keras's hook for a subclass's ``call``."""
        return self._grouped(tf.convert_to_tensor(inputs), tf.convert_to_tensor(kernel))

    def compute_output_shape(self, input_shape):
        padding = "same" if self.padding == "causal" else self.padding
        input_shape = self._channels_last(input_shape)
        dims = [_out_dim(d, (k - 1) * r + 1, s, padding)
                for d, k, s, r in zip(input_shape[1:-1], self.kernel_size, self.strides, self.dilation_rate)]
        if self.data_format == "channels_first":
            return (input_shape[0], self.filters, *dims)
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
