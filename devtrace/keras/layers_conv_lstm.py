"""``keras.layers.ConvLSTM2D``: an LSTM whose input and recurrent transformations are convolutions
(Keras 3's ConvLSTMCell: gates i, f, c, o; the input convolution with the layer's padding, the
recurrent one ``same``), run over the time axis of a ``(batch, time, rows, cols, channels)`` input.
The time axis must be known (the steps are unrolled); only ``channels_last``."""

from __future__ import annotations

import devtrace as tf
from . import activations, initializers, keywords
from .engine import Layer
from .random import SeedGenerator


def _pair(value):
    return tuple(value) if isinstance(value, (list, tuple)) else (int(value),) * 2


def _conv_size(size, kernel, padding, stride, dilation):
    if size is None:
        return None
    if padding == "same":
        return -(-size // stride)
    return (size - dilation * (kernel - 1) - 1) // stride + 1


class ConvLSTM2D(Layer):
    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", unit_forget_bias=True,
                 return_sequences=False, return_state=False, go_backwards=False, seed=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.ConvLSTM2D", data_format=(data_format, (None, "channels_last")))
        self.seed_generator = SeedGenerator(seed)  # Keras's cell makes it (drawing a seed) before its initializers
        self.filters, self.kernel_size, self.strides = int(filters), _pair(kernel_size), _pair(strides)
        self.padding, self.dilation_rate = padding.lower(), _pair(dilation_rate)
        self.activation, self.recurrent_activation = activations.get(activation), activations.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = use_bias, unit_forget_bias
        self._kernel_init = initializers.get(kernel_initializer)
        self._recurrent_init = initializers.get(recurrent_initializer)
        self._bias_init = initializers.get(bias_initializer)
        self.return_sequences, self.return_state, self.go_backwards = return_sequences, return_state, go_backwards

    def build(self, input_shape):
        channels, f = input_shape[-1], self.filters
        self.kernel = self.add_weight(self.kernel_size + (channels, 4 * f), self._kernel_init, name="kernel")
        self.recurrent_kernel = self.add_weight(self.kernel_size + (f, 4 * f), self._recurrent_init,
                                                name="recurrent_kernel")
        self.bias = None
        if self.use_bias:
            init = self._bias_init
            if self.unit_forget_bias:
                base = init

                def init(shape, dtype="float32"):
                    return tf.concat([base((f,), dtype), tf.ones((f,), dtype), base((2 * f,), dtype)], 0)
            self.bias = self.add_weight((4 * f,), init, name="bias")
        self.built = True

    def _conv(self, x, kernel, padding, strides, dilation):
        return tf.nn.conv2d(x, kernel, strides=(1,) + strides + (1,), padding=padding.upper(), dilations=dilation)

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        steps = tf.unstack(x, axis=1)
        if self.go_backwards:
            steps = steps[::-1]
        f = self.filters
        kernels = tf.split(self.kernel, 4, axis=3)
        recurrent = tf.split(self.recurrent_kernel, 4, axis=3)
        biases = tf.split(self.bias, 4) if self.bias is not None else [None] * 4
        first = self._conv(steps[0], kernels[0], self.padding, self.strides, self.dilation_rate)
        h = c = tf.zeros(tf.concat([tf.shape(first)[:-1], [f]], 0), first.dtype)
        outputs = []
        for step in steps:
            gates = []
            for k, r, b in zip(kernels, recurrent, biases):
                g = self._conv(step, k, self.padding, self.strides, self.dilation_rate)
                if b is not None:
                    g = tf.nn.bias_add(g, b)
                gates.append(g + self._conv(h, r, "same", (1, 1), (1, 1)))
            i, fg, o = (self.recurrent_activation(gates[n]) for n in (0, 1, 3))
            c = fg * c + i * self.activation(gates[2])
            h = o * self.activation(c)
            outputs.append(h)
        out = tf.stack(outputs, axis=1) if self.return_sequences else h
        return [out, h, c] if self.return_state else out

    def compute_output_shape(self, input_shape):
        batch, time, rows, cols = input_shape[:4]
        rows, cols = (_conv_size(s, k, self.padding, st, d) for s, k, st, d in
                      zip((rows, cols), self.kernel_size, self.strides, self.dilation_rate))
        state = (batch, rows, cols, self.filters)
        out = (batch, time) + state[1:] if self.return_sequences else state
        return [out, state, state] if self.return_state else out


__all__ = ["ConvLSTM2D"]
