"""Keras 3's ``MelSpectrogram``: the STFT power (``|X| ** mag_exp``) of the audio, warped onto
``num_mel_bins`` triangular mel bands (HTK's scale, ``1127 ln(1 + f / 700)``), in decibels
clipped ``top_db`` below the peak; ``(…, num_mel_bins, frames)``, as Keras composes it from its ops."""

from __future__ import annotations

from . import ops
from .engine import Layer

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(frequencies):
    return _MEL_HIGH_FREQUENCY_Q * ops.log(1.0 + frequencies / _MEL_BREAK_FREQUENCY_HERTZ)


def linear_to_mel_weight_matrix(num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz,
                                upper_edge_hertz, dtype="float32"):
    """``[num_spectrogram_bins, num_mel_bins]``: each band a triangle peaking at 1 (the first,
    DC, bin zero)."""
    sampling_rate = ops.cast(sampling_rate, dtype)
    lower, upper = ops.convert_to_tensor(lower_edge_hertz, dtype), ops.convert_to_tensor(upper_edge_hertz, dtype)
    zero = ops.convert_to_tensor(0.0, dtype)
    linear = ops.linspace(zero, sampling_rate / 2.0, num_spectrogram_bins)[1:]
    bins_mel = ops.expand_dims(_hertz_to_mel(linear), 1)
    edges = ops.extract_sequences(ops.linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2),
                                  sequence_length=3, sequence_stride=1)
    low, center, high = (ops.reshape(t, [1, num_mel_bins]) for t in ops.split(edges, 3, axis=1))
    lower_slopes = (bins_mel - low) / (center - low)
    upper_slopes = (high - bins_mel) / (high - center)
    return ops.pad(ops.maximum(zero, ops.minimum(lower_slopes, upper_slopes)), [[1, 0], [0, 0]])


class MelSpectrogram(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None, window="hann",
                 sampling_rate=16000, num_mel_bins=128, min_freq=20.0, max_freq=None, power_to_db=True,
                 top_db=80.0, mag_exp=2.0, min_power=1e-10, ref_power=1.0, **kwargs):
        self.fft_length, self.sequence_stride = fft_length, sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError(f"`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                             f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window, self.sampling_rate, self.num_mel_bins = window, sampling_rate, num_mel_bins
        self.min_freq, self.max_freq = min_freq, max_freq or int(sampling_rate / 2)
        self.power_to_db, self.top_db, self.mag_exp = power_to_db, top_db, mag_exp
        self.min_power, self.ref_power = min_power, ref_power
        super().__init__(**kwargs)

    def call(self, inputs):
        dtype = self.compute_dtype if self.compute_dtype in ("float32", "float64") else "float32"
        x = ops.convert_to_tensor(inputs, dtype=dtype)
        real, imag = ops.stft(x, sequence_length=self.sequence_length, sequence_stride=self.sequence_stride,
                              fft_length=self.fft_length, window=self.window, center=True)
        spec = ops.power(ops.sqrt(ops.add(ops.square(real), ops.square(imag))), self.mag_exp)
        matrix = linear_to_mel_weight_matrix(self.num_mel_bins, ops.shape(spec)[-1], self.sampling_rate,
                                             self.min_freq, self.max_freq)
        out = ops.tensordot(spec, matrix, axes=1)
        if self.power_to_db:
            log_spec = 10.0 * ops.log10(ops.maximum(out, self.min_power))
            ref = ops.abs(ops.convert_to_tensor(self.ref_power))
            log_spec -= 10.0 * ops.log10(ops.maximum(ref, self.min_power))
            out = ops.maximum(log_spec, ops.max(log_spec) - self.top_db)
        return ops.cast(ops.swapaxes(out, -1, -2), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        """A list, as Keras's."""
        frames = input_shape[-1]
        frames = (frames + self.sequence_stride + 1) // self.sequence_stride if frames is not None else None
        if len(input_shape) == 1:
            return [self.num_mel_bins, frames]
        return [input_shape[0], self.num_mel_bins, frames]

    def get_config(self) -> dict:
        """The resolved ``sequence_length`` and ``max_freq``, as Keras writes them."""
        return super().get_config() | {"sequence_length": self.sequence_length, "max_freq": self.max_freq}


__all__ = ["MelSpectrogram"]
