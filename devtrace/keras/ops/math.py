"""``keras.ops.math`` (served as ``keras.ops.X`` too): segment reductions, ``erfinv``, the FFTs on
``(real, imaginary)`` pairs, ``extract_sequences`` and ``in_top_k`` — on devtrace's ops, as Keras's
TensorFlow backend composes them."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from .convert import _float, _t


def _segment(sorted_op, unsorted_op, data, segment_ids, num_segments, sorted):  # noqa: A002 (Keras's keyword)
    data, segment_ids = _t(data), _t(segment_ids)
    if sorted:
        if num_segments is not None:
            raise ValueError("Argument `num_segments` cannot be set when sorted is True when using the tensorflow "
                             f"backend.Received: num_segments={num_segments}, sorted={sorted}.")
        return sorted_op(data, segment_ids)
    if num_segments is None:
        num_segments = tf.cast(tf.reduce_max(segment_ids) + 1, tf.int32)
    return unsorted_op(data, segment_ids, num_segments)


def segment_sum(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    if num_segments is None and not sorted:  # Keras counts the distinct ids here, not the largest + 1
        num_segments = tf.shape(tf.unique(tf.reshape(_t(segment_ids), [-1]))[0])[0]
    return _segment(tf.math.segment_sum, tf.math.unsorted_segment_sum, data, segment_ids, num_segments, sorted)


def segment_max(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    return _segment(tf.math.segment_max, tf.math.unsorted_segment_max, data, segment_ids, num_segments, sorted)


def erfinv(x):
    return tf.math.erfinv(_float(x))


def _complex(x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary. Received: x={x}")
    real, imag = _float(x[0]), _float(x[1])
    if real.dtype != imag.dtype:
        raise ValueError("At least one tensor in input `x` is not of type float. Received: x={x}.")
    return tf.complex(real, imag)


def fft(x):
    out = tf.signal.fft(_complex(x))
    return tf.math.real(out), tf.math.imag(out)


def fft2(x):
    out = tf.signal.fft2d(_complex(x))
    return tf.math.real(out), tf.math.imag(out)


def rfft(x, fft_length=None):
    out = tf.signal.rfft(_float(x) if tf.is_tensor(x) else x, fft_length=None if fft_length is None else [fft_length])
    return tf.math.real(out), tf.math.imag(out)


def irfft(x, fft_length=None):
    return tf.signal.irfft(_complex(x), fft_length=None if fft_length is None else [fft_length])


def extract_sequences(x, sequence_length, sequence_stride):
    return tf.signal.frame(_t(x), frame_length=sequence_length, frame_step=sequence_stride, axis=-1, pad_end=False)


def in_top_k(targets, predictions, k):
    return tf.math.in_top_k(_t(targets), _t(predictions), k)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    return _segment(tf.math.segment_prod, tf.math.unsorted_segment_prod, data, segment_ids, num_segments, sorted)


def erfc(x):
    return tf.math.erfc(_t(x))


def logdet(x):
    return tf.linalg.logdet(_t(x))


def cdist(x, y):
    x, y = _t(x), _t(y)
    if x.shape.rank < 2 or y.shape.rank < 2:
        raise ValueError("`cdist` inputs must have rank >= 2")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError("Last dimension of inputs to `cdist` must match")
    return tf.sqrt(tf.reduce_sum(tf.square(tf.expand_dims(x, -2) - tf.expand_dims(y, -3)), axis=-1))


def ifft2(x):
    out = tf.signal.ifft2d(_complex(x))
    return tf.math.real(out), tf.math.imag(out)


def _window(window, length, dtype, l_pad, r_pad):
    if window is None:
        return None
    if isinstance(window, str):
        make = tf.signal.hann_window if window == "hann" else tf.signal.hamming_window
        values = make(length, periodic=True, dtype=dtype)
    else:
        values = _t(window, dtype)
    if values.shape.rank != 1 or values.shape[-1] != length:
        raise ValueError(f"The shape of `window` must be equal to [sequence_length].Received: window shape={values.shape}")
    return tf.pad(values, [[l_pad, r_pad]])


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = _t(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"Invalid input type. Expected `float32` or `float64`. Received: input type={x.dtype}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. "
                         f"Received: sequence_length={sequence_length}, fft_length={fft_length}")
    if isinstance(window, str) and window not in ("hann", "hamming"):
        raise ValueError(f'If a string is passed to `window`, it must be one of `"hann"`, `"hamming"`. '
                         f'Received: window={window}')
    if center:
        pads = [[0, 0]] * (x.shape.rank - 1) + [[fft_length // 2, fft_length // 2]]
        x = tf.pad(x, pads, mode="reflect")
    l_pad = (fft_length - sequence_length) // 2
    r_pad = fft_length - sequence_length - l_pad
    values = _window(window, sequence_length, x.dtype, l_pad, r_pad)
    out = tf.signal.stft(x, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                         window_fn=None if values is None else (lambda length, dtype: values))
    return tf.math.real(out), tf.math.imag(out)


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    spectrum = _complex(x)
    dtype = tf.math.real(spectrum).dtype
    expected = fft_length + sequence_stride * (spectrum.shape[-2] - 1)
    l_pad = (fft_length - sequence_length) // 2
    r_pad = fft_length - sequence_length - l_pad
    values = _window(window, sequence_length, dtype, l_pad, r_pad)
    window_fn = None if values is None else tf.signal.inverse_stft_window_fn(sequence_stride,
                                                                             lambda length, dtype: values)
    out = tf.signal.inverse_stft(spectrum, frame_length=fft_length, frame_step=sequence_stride,
                                 fft_length=fft_length, window_fn=window_fn)
    start = fft_length // 2 if center else 0
    end = start + length if length is not None else -(fft_length // 2) if center else expected
    return out[..., start:end]


def view_as_complex(x):
    x = _t(x)
    if x.shape.rank < 1 or x.shape[-1] != 2:
        raise ValueError(f"Last dimension of input must be size 2 (real and imaginary). Received shape: {x.shape}")
    return tf.complex(tf.cast(x[..., 0], tf.float32), tf.cast(x[..., 1], tf.float32))


def view_as_real(x):
    x = _t(x)
    return tf.stack([tf.math.real(x), tf.math.imag(x)], axis=-1)


def segment_min(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    return _segment(tf.math.segment_min, tf.math.unsorted_segment_min, data, segment_ids, num_segments, sorted)


__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == __name__)
__getattr__ = _missing("keras.ops.math")
