"""More of ``tf.signal``: real FFTs (``RFFT``/``IRFFT`` and their 2-D and 3-D forms, with CPU and
GPU kernels as TensorFlow's), ``frame`` and ``overlap_and_add`` (gathers and segment sums, as
TensorFlow composes them), and the Hann, Hamming and Vorbis windows (elementwise ops)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.values import constant
from ..declare import API, as_tensor, op, public

_REAL_TO_COMPLEX = {"float32": "complex64", "float64": "complex128"}


def _shape_unknown(name, shapes, attrs, dtype):
    return dtypes.as_dtype(attrs.get("Tcomplex") or attrs.get("Treal") or dtype), None


def _real_transform(op_name: str, rank: int, inverse: bool, api: str):
    axes = tuple(range(-rank, 0))

    def kernel(xp, x, fft_length=(), Tcomplex=None, Treal=None):
        if inverse:
            return xp.fft.irfftn(x, s=tuple(fft_length), axes=axes).astype(dtypes.as_dtype(Treal).np)
        return xp.fft.rfftn(x, s=tuple(fft_length), axes=axes).astype(dtypes.as_dtype(Tcomplex).np)

    op(op_name, kernel, None, shape=_shape_unknown, host_args={"fft_length": "fft_length"}, mixed_dtypes=True)

    def fn(input_tensor, fft_length=None, name=None):
        if not inverse and isinstance(input_tensor, (list, tuple, float, int, np.ndarray)) \
                and np.asarray(input_tensor).dtype.kind in "fiub":
            input_tensor = np.asarray(input_tensor, np.float32)  # TensorFlow's preferred dtype for a non-tensor
        x = as_tensor(input_tensor)
        if fft_length is None:
            inner = [int(d) for d in x.shape[-rank:]]
            fft_length = [2 * (d - 1) for d in inner[-1:]] if inverse else inner
            fft_length = (inner[:-1] + fft_length) if inverse else fft_length
        length = [int(v) for v in np.asarray(fft_length).reshape(-1)]
        if inverse:
            attrs = {"fft_length": length, "Treal": "float64" if x.dtype == dtypes.complex128 else "float32"}
        else:
            attrs = {"fft_length": length, "Tcomplex": _REAL_TO_COMPLEX.get(x.dtype.name, "complex64")}
        return execute(op_name, (x,), attrs, name=name)

    fn.__name__ = fn.__qualname__ = api
    return public(f"signal.{api}")(fn)


rfft = _real_transform("RFFT", 1, False, "rfft")
irfft = _real_transform("IRFFT", 1, True, "irfft")
rfft2d = _real_transform("RFFT2D", 2, False, "rfft2d")
irfft2d = _real_transform("IRFFT2D", 2, True, "irfft2d")
rfft3d = _real_transform("RFFT3D", 3, False, "rfft3d")
irfft3d = _real_transform("IRFFT3D", 3, True, "irfft3d")


@public("signal.frame")
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping windows of ``frame_length`` every ``frame_step`` along ``axis`` (a gather)."""
    x = as_tensor(signal)
    rank = x.shape.rank
    axis %= rank
    length, step = int(frame_length), int(frame_step)
    size = int(x.shape[axis])
    if pad_end:
        count = -(-size // step)
        extra = max(0, (count - 1) * step + length - size)
        if extra:
            pads = [[0, 0]] * rank
            pads[axis] = [0, extra]
            x = API["pad"](x, pads, constant_values=pad_value)
    else:
        count = max(0, 1 + (size - length) // step) if size >= length else 0
    index = np.arange(count)[:, None] * step + np.arange(length)[None, :]
    return API["gather"](x, constant(index.astype(np.int32), dtypes.int32), axis=axis, name=name)


@public("signal.overlap_and_add")
def overlap_and_add(signal, frame_step, name=None):
    """Frames (the last two dimensions) added back at ``frame_step`` offsets (an unsorted segment sum)."""
    x = as_tensor(signal)
    frames, length = int(x.shape[-2]), int(x.shape[-1])
    step = int(frame_step)
    total = (frames - 1) * step + length
    positions = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).reshape(-1)
    outer = list(x.shape[:-2])
    moved = API["reshape"](x, [-1, frames * length])
    summed = API["math.unsorted_segment_sum"](API["transpose"](moved), constant(positions.astype(np.int32)), total)
    return API["reshape"](API["transpose"](summed), outer + [total], name=name)


def _window(values_fn):
    def fn(window_length, periodic=True, dtype=dtypes.float32, name=None):
        n = int(window_length)
        dt = dtypes.as_dtype(dtype)
        if n == 1:
            return API["ones"]([1], dt)
        denominator = n - 1 + (1 if periodic and n % 2 == 0 else 0)  # TensorFlow's: periodic only lengthens an even window
        ramp = API["cast"](API["range"](n), dt)
        return values_fn(ramp, float(denominator), dt)
    return fn


def _raised_cosine(a, b):
    def values(ramp, denominator, dt):
        cos = API["cos"](API["multiply"](ramp, constant(np.asarray(2 * np.pi / denominator, dt.np), dt)))
        return API["subtract"](constant(np.asarray(a, dt.np), dt), API["multiply"](constant(np.asarray(b, dt.np), dt), cos))
    return values


hann_window = public("signal.hann_window")(_window(_raised_cosine(0.5, 0.5)))
hamming_window = public("signal.hamming_window")(_window(_raised_cosine(0.54, 0.46)))


@public("signal.vorbis_window")
def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    dt = dtypes.as_dtype(dtype)
    n = int(window_length)
    arg = API["multiply"](API["add"](API["cast"](API["range"](n), dt), constant(np.asarray(0.5, dt.np), dt)),
                          constant(np.asarray(np.pi / n, dt.np), dt))
    inner = API["sin"](arg)
    return API["sin"](API["multiply"](constant(np.asarray(np.pi / 2, dt.np), dt), API["multiply"](inner, inner)))
