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


def segment_min(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    return _segment(tf.math.segment_min, tf.math.unsorted_segment_min, data, segment_ids, num_segments, sorted)


__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == __name__)
__getattr__ = _missing("keras.ops.math")
