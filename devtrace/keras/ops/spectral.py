"""``keras.ops.stft`` / ``istft`` as Keras 3's TensorFlow backend computes them: ``tf.signal.stft`` of the
reflect-padded signal (``center``) with a periodic Hann/Hamming window zero-padded to ``fft_length``;
the real and imaginary parts returned as a pair."""

from __future__ import annotations

import devtrace as tf


def _window(window, sequence_length, fft_length, dtype):
    if isinstance(window, str):
        if window not in {"hann", "hamming"}:
            raise ValueError('If a string is passed to `window`, it must be one of `"hann"`, `"hamming"`. '
                             f"Received: window={window}")
        make = tf.signal.hann_window if window == "hann" else tf.signal.hamming_window
        win = make(sequence_length, periodic=True, dtype=dtype)
    else:
        win = tf.convert_to_tensor(window, dtype=dtype)
    if len(win.shape) != 1 or win.shape[-1] != sequence_length:
        raise ValueError(f"The shape of `window` must be equal to [sequence_length].Received: window shape={win.shape}")
    left = (fft_length - sequence_length) // 2
    return tf.pad(win, [[left, fft_length - sequence_length - left]])


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = tf.convert_to_tensor(x)
    if x.dtype not in (tf.float32, tf.float64):
        raise TypeError(f"Invalid input type. Expected `float32` or `float64`. Received: input type={x.dtype.name}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. Received: "
                         f"sequence_length={sequence_length}, fft_length={fft_length}")
    if center:
        pad = [[0, 0]] * (len(x.shape) - 1) + [[fft_length // 2, fft_length // 2]]
        x = tf.pad(x, pad, mode="REFLECT")
    win = None if window is None else _window(window, sequence_length, fft_length, x.dtype)
    result = tf.signal.stft(x, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                            window_fn=None if win is None else (lambda frame_length, dtype: win))
    return tf.math.real(result), tf.math.imag(result)


def _complex(x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"Input `x` should be a tuple of two tensors - real and imaginary.Received: x={x}")
    real, imag = tf.convert_to_tensor(x[0]), tf.convert_to_tensor(x[1])
    if real.shape != imag.shape:
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary.Both the real and "
                         f"imaginary parts should have the same shape. Received: x[0].shape = {real.shape}, "
                         f"x[1].shape = {imag.shape}")
    return tf.complex(real, imag)


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    spectrum = _complex(x)
    dtype = tf.math.real(spectrum).dtype
    frames = spectrum.shape[-2]
    win = None
    if window is not None:
        padded = _window(window, sequence_length, fft_length, dtype)
        win = tf.signal.inverse_stft_window_fn(sequence_stride, lambda frame_length, dtype: padded)
    out = tf.signal.inverse_stft(spectrum, frame_length=fft_length, frame_step=sequence_stride,
                                 fft_length=fft_length, window_fn=win)
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = -(fft_length // 2)
    else:
        end = fft_length + sequence_stride * (frames - 1)
    return out[..., start:end]


__all__ = ["istft", "stft"]
