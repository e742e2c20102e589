"""Keras's convolutions past ``Conv1D``/``Conv2D`` (channels last): the transposed ones
(``Conv1DTranspose``, ``Conv2DTranspose``: TensorFlow's ``conv2d_transpose``, the op
``Conv2DBackpropInput``, a 1-D one on a height of one; ``Conv3DTranspose``:
``Conv3DBackpropInputV2``), ``Conv3D``, the depthwise ones (``DepthwiseConv1D``,
``DepthwiseConv2D``: ``DepthwiseConv2dNative``) and the separable ones (``SeparableConv1D``,
``SeparableConv2D``: ``DepthwiseConv2dNative`` then a 1x1 ``Conv2D``, as ``tf.nn.separable_conv2d``
runs them). Keras's weight layouts: a transposed kernel is ``(*kernel_size, filters, in)``, a
depthwise one ``(*kernel_size, in, depth_multiplier)``."""

from __future__ import annotations

import devtrace as tf
from ..runtime.eager.executor import execute
from . import activations, initializers, keywords
from .engine import Layer
from .layers_conv import _Conv, _out_dim, _tuple


def _transposed_dim(size, kernel, stride, padding, output_padding=None):
    """Keras's output length of a transposed convolution (``output_padding`` adds to its last stride)."""
    if size is None:
        return None
    if output_padding is not None:
        return (size - 1) * stride + (kernel % 2 if padding == "same" else kernel) + output_padding
    return size * stride if padding == "same" else (size - 1) * stride + max(kernel - stride, 0) + stride


class _Base(Layer):
    rank = 2

    def __init__(self, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1, activation=None,
                 use_bias=True, bias_initializer="zeros", bias_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        where = f"keras.layers.{type(self).__name__}"
        keywords.unimplemented(where, data_format=(data_format, (None, "channels_last")),
                               dilation_rate=(_tuple(dilation_rate, self.rank), ((1,) * self.rank,)))
        self.kernel_size, self.strides = _tuple(kernel_size, self.rank), _tuple(strides, self.rank)
        self.padding, self.activation, self.use_bias = padding.lower(), activations.get(activation), use_bias
        if self.padding not in ("valid", "same"):
            raise NotImplementedError(f"devtrace does not implement {where}(padding={padding!r}) yet")
        self._bias_init, self._bias_reg = initializers.get(bias_initializer), bias_regularizer

    def _add_bias(self, n):
        self.bias = self.add_weight((n,), self._bias_init, name="bias", regularizer=self._bias_reg) \
            if self.use_bias else None

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        if self.rank == 1:
            y = tf.squeeze(self._convolve(tf.expand_dims(x, 1)), [1])
        else:
            y = self._convolve(x)
        if self.bias is not None:
            y = tf.nn.bias_add(y, self.bias)
        return self.activation(y)

    def _pairs(self, values):
        return (1,) + tuple(values) if self.rank == 1 else tuple(values)


class _ConvTranspose(_Base):
    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, **kwargs)
        if output_padding is not None:
            output_padding = _tuple(output_padding, self.rank)
            for i, (p, stride) in enumerate(zip(output_padding, self.strides)):
                if p >= stride:
                    raise ValueError(f"`output_padding` must be strictly less than `strides` for all dimensions. At "
                                     f"dimension {i}, `output_padding` is {p} but `strides` is {stride}. Received: "
                                     f"output_padding={output_padding}, strides={self.strides}")
        self.output_padding = output_padding
        self.filters = int(filters)
        self._kernel_init, self._kernel_reg = initializers.get(kernel_initializer), kernel_regularizer

    def build(self, input_shape):
        self.kernel = self.add_weight(self.kernel_size + (self.filters, input_shape[-1]), self._kernel_init,
                                      name="kernel", regularizer=self._kernel_reg)
        self._add_bias(self.filters)
        self._input_axes = {-1: input_shape[-1]}
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = [_transposed_dim(d, k, s, self.padding, p)
                for d, k, s, p in zip(input_shape[1:-1], self.kernel_size, self.strides, self._output_paddings())]
        return (input_shape[0], *dims, self.filters)

    def _output_paddings(self):
        return self.output_padding if self.output_padding is not None else (None,) * self.rank

    def _convolve(self, x):
        if self.rank == 3:
            sizes = [_transposed_dim(d, k, s, self.padding, p)
                     for d, k, s, p in zip(list(x.shape[1:4]), self.kernel_size, self.strides, self._output_paddings())]
            return tf.nn.conv3d_transpose(x, self.kernel, (x.shape[0], *sizes, self.filters), self.strides,
                                          self.padding.upper())
        kernel = tf.expand_dims(self.kernel, 0) if self.rank == 1 else self.kernel
        sizes = self._pairs([_transposed_dim(d, k, s, self.padding, p)
                             for d, k, s, p in zip(list(x.shape[1:-1])[-self.rank:], self.kernel_size, self.strides,
                                                   self._output_paddings())])
        if x.shape[0] is None:
            raise NotImplementedError("devtrace does not implement a transposed convolution of an unknown batch yet")
        out_shape = (x.shape[0], *sizes, self.filters)
        return execute("Conv2DBackpropInput", (tf.convert_to_tensor(kernel), x),
                       {"input_sizes": out_shape, "strides": self._pairs(self.strides),
                        "padding": self.padding.upper()})


class Conv2DTranspose(_ConvTranspose):
    pass


class Conv1DTranspose(_ConvTranspose):
    rank = 1


class Conv3DTranspose(_ConvTranspose):
    rank = 3


class Conv3D(_Conv):
    rank = 3

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1, 1), **kwargs):
        keywords.unimplemented("keras.layers.Conv3D", data_format=(data_format, (None, "channels_last")),
                               dilation_rate=(_tuple(dilation_rate, 3), ((1, 1, 1),)))
        super().__init__(filters, kernel_size, strides, padding, **kwargs)

    def _convolve(self, x, kernel):
        return tf.nn.conv3d(x, kernel, (1, *self.strides, 1), self.padding.upper())


class _Depthwise(_Base):
    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self._kernel_init, self._kernel_reg = initializers.get(depthwise_initializer), depthwise_regularizer

    def build(self, input_shape):
        self.kernel = self.add_weight(self.kernel_size + (input_shape[-1], self.depth_multiplier), self._kernel_init,
                                      name="kernel", regularizer=self._kernel_reg)
        self._add_bias(input_shape[-1] * self.depth_multiplier)
        self._input_axes = {-1: input_shape[-1]}
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = [_out_dim(d, k, s, self.padding) for d, k, s in zip(input_shape[1:-1], self.kernel_size, self.strides)]
        return (input_shape[0], *dims, input_shape[-1] * self.depth_multiplier)

    def _convolve(self, x):
        kernel = tf.expand_dims(self.kernel, 0) if self.rank == 1 else self.kernel
        return tf.nn.depthwise_conv2d(x, kernel, (1,) + self._pairs(self.strides) + (1,), self.padding.upper())


class DepthwiseConv2D(_Depthwise):
    pass


class DepthwiseConv1D(_Depthwise):
    rank = 1


class _Separable(_Base):
    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, **kwargs)
        self.filters, self.depth_multiplier = int(filters), int(depth_multiplier)
        self._inits = (initializers.get(depthwise_initializer), initializers.get(pointwise_initializer))
        self._regs = (depthwise_regularizer, pointwise_regularizer)

    def build(self, input_shape):
        channels = input_shape[-1]
        self.depthwise_kernel = self.add_weight(self.kernel_size + (channels, self.depth_multiplier), self._inits[0],
                                                name="depthwise_kernel", regularizer=self._regs[0])
        self.pointwise_kernel = self.add_weight((1,) * self.rank + (channels * self.depth_multiplier, self.filters),
                                                self._inits[1], name="pointwise_kernel", regularizer=self._regs[1])
        self._add_bias(self.filters)
        self._input_axes = {-1: channels}
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = [_out_dim(d, k, s, self.padding) for d, k, s in zip(input_shape[1:-1], self.kernel_size, self.strides)]
        return (input_shape[0], *dims, self.filters)

    def _convolve(self, x):
        depthwise, pointwise = self.depthwise_kernel, self.pointwise_kernel
        if self.rank == 1:
            depthwise, pointwise = tf.expand_dims(depthwise, 0), tf.expand_dims(pointwise, 0)
        y = tf.nn.depthwise_conv2d(x, depthwise, (1,) + self._pairs(self.strides) + (1,), self.padding.upper())
        return tf.nn.conv2d(y, pointwise, [1, 1], "VALID")


class SeparableConv2D(_Separable):
    pass


class SeparableConv1D(_Separable):
    rank = 1


Convolution1DTranspose, Convolution2DTranspose, Convolution3DTranspose = Conv1DTranspose, Conv2DTranspose, \
    Conv3DTranspose
Convolution3D = Conv3D
SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D

__all__ = ["Conv1DTranspose", "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "Convolution1DTranspose",
           "Convolution2DTranspose", "Convolution3D", "Convolution3DTranspose", "DepthwiseConv1D",
           "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D",
           "SeparableConvolution2D"]
