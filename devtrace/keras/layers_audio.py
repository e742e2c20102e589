"""``keras.layers.MelSpectrogram``: Keras 3's mel-scaled power spectrogram (``keras.ops.stft`` with
``center``, magnitude to ``mag_exp``, a triangular mel filter bank computed in float32 as Keras computes
it, then decibels clipped ``top_db`` below the batch's maximum), outputs ``(batch, num_mel_bins, frames)``."""

from __future__ import annotations

import devtrace as tf
from .engine import Layer
from .ops.spectral import stft

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hertz):
    return _MEL_HIGH_FREQUENCY_Q * tf.math.log(1.0 + hertz / _MEL_BREAK_FREQUENCY_HERTZ)


def _log10(x):
    return tf.math.log(x) / tf.math.log(tf.constant(10, x.dtype))  # Keras's TensorFlow backend's


def mel_weight_matrix(num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz, upper_edge_hertz):
    """``(num_spectrogram_bins, num_mel_bins)`` triangular filters; the DC bin's row is zero."""
    nyquist = tf.cast(sampling_rate, tf.float32) / 2.0
    linear = tf.linspace(tf.constant(0.0), nyquist, num_spectrogram_bins)[1:]
    bins_mel = tf.expand_dims(_hertz_to_mel(linear), 1)
    edges = tf.linspace(_hertz_to_mel(tf.constant(float(lower_edge_hertz))),
                        _hertz_to_mel(tf.constant(float(upper_edge_hertz))), num_mel_bins + 2)
    lower, center, upper = (tf.reshape(edges[i:i + num_mel_bins], [1, num_mel_bins]) for i in range(3))
    lower_slopes = (bins_mel - lower) / (center - lower)
    upper_slopes = (upper - bins_mel) / (upper - center)
    weights = tf.maximum(tf.constant(0.0), tf.minimum(lower_slopes, upper_slopes))
    return tf.pad(weights, [[1, 0], [0, 0]])


class MelSpectrogram(Layer):
    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None, window="hann", sampling_rate=16000,
                 num_mel_bins=128, min_freq=20.0, max_freq=None, power_to_db=True, top_db=80.0, mag_exp=2.0,
                 min_power=1e-10, ref_power=1.0, **kwargs):
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                             f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window, self.sampling_rate, self.num_mel_bins = window, sampling_rate, num_mel_bins
        self.min_freq, self.max_freq = min_freq, max_freq or int(sampling_rate / 2)
        self.power_to_db, self.top_db, self.mag_exp = power_to_db, top_db, mag_exp
        self.min_power, self.ref_power = min_power, ref_power
        super().__init__(**kwargs)

    def call(self, inputs):
        x = tf.cast(inputs, tf.float32) if not tf.is_tensor(inputs) or inputs.dtype not in (tf.float32, tf.float64) \
            else inputs
        real, imag = stft(x, self.sequence_length, self.sequence_stride, self.fft_length, self.window, center=True)
        spec = tf.pow(tf.sqrt(tf.square(real) + tf.square(imag)), self.mag_exp)
        matrix = mel_weight_matrix(self.num_mel_bins, spec.shape[-1], self.sampling_rate, self.min_freq,
                                   self.max_freq)
        out = tf.tensordot(spec, tf.cast(matrix, spec.dtype), axes=1)
        if self.power_to_db:
            log_spec = 10.0 * _log10(tf.maximum(out, self.min_power))
            ref = abs(float(self.ref_power))
            log_spec -= 10.0 * _log10(tf.maximum(tf.constant(ref, out.dtype), self.min_power))
            out = tf.maximum(log_spec, tf.reduce_max(log_spec) - self.top_db)
        rank = len(out.shape)
        return tf.cast(tf.transpose(out, list(range(rank - 2)) + [rank - 1, rank - 2]), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        frames = lambda n: None if n is None else (n + self.sequence_stride + 1) // self.sequence_stride  # noqa: E731
        if len(input_shape) == 1:
            return (self.num_mel_bins, frames(input_shape[0]))
        return (input_shape[0], self.num_mel_bins, frames(input_shape[1]))
