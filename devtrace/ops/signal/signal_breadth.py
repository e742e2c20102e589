"""The rest of ``tf.signal``: the N-dimensional FFTs (``FFTND``/``IFFTND``/``RFFTND``/``IRFFTND``:
TensorFlow 2.21 registers GPU kernels only, so on a CPU they fail as TensorFlow's), and what
TensorFlow composes from ops: ``dct``/``idct`` (types 1-4, as a product with the cosine basis),
``mdct``/``inverse_mdct``, ``stft``/``inverse_stft`` (+ ``inverse_stft_window_fn``),
``fftshift``/``ifftshift``, the Kaiser windows, ``linear_to_mel_weight_matrix`` and
``mfccs_from_log_mel_spectrograms``."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import GPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..declare import API, as_tensor, op, public

_REAL_TO_COMPLEX = {"float32": "complex64", "float64": "complex128"}
_DEFAULT = object()  # a window_fn argument not given: TensorFlow's default window (None: none)


def _nd_kernel(kind):
    def kernel(xp, x, fft_length=(), axes=(), Tcomplex=None, Treal=None):
        s, ax = tuple(int(v) for v in fft_length), tuple(int(a) for a in axes)
        if kind == "fft":
            return xp.fft.fftn(x, s=s, axes=ax).astype(x.dtype)
        if kind == "ifft":
            return xp.fft.ifftn(x, s=s, axes=ax).astype(x.dtype)
        if kind == "rfft":
            return xp.fft.rfftn(x, s=s, axes=ax).astype(dtypes.as_dtype(Tcomplex).np)
        return xp.fft.irfftn(x, s=s, axes=ax).astype(dtypes.as_dtype(Treal).np)
    return kernel


def _unknown(name, shapes, attrs, dtype):
    out = attrs.get("Tcomplex") or attrs.get("Treal")
    return (dtypes.as_dtype(out) if out else dtype), None


for _name, _kind in (("FFTND", "fft"), ("IFFTND", "ifft"), ("RFFTND", "rfft"), ("IRFFTND", "irfft")):
    op(_name, _nd_kernel(_kind), None, devices=(GPU,), shape=_unknown, mixed_dtypes=True,
       host_args={"fft_length": "fft_length", "axes": "axes"})


def _nd_args(x, fft_length, axes):
    rank = x.shape.rank
    axes = list(range(-len(fft_length), 0)) if axes is None and fft_length is not None else axes
    axes = list(range(rank)) if axes is None else [int(a) for a in (axes.numpy() if isinstance(axes, Tensor)
                                                                      else axes)]
    if fft_length is None:
        fft_length = [int(x.shape[a]) for a in axes]
    return [int(v) for v in (fft_length.numpy() if isinstance(fft_length, Tensor) else fft_length)], axes


def _complex_nd(op_name):
    def fn(input, fft_length=None, axes=None, norm=None, name=None):  # noqa: A002
        x = as_tensor(input)
        length, axes = _nd_args(x, fft_length, axes)
        return execute(op_name, (x,), {"fft_length": length, "axes": axes}, name=name)
    return fn


fftnd = public("signal.fftnd", "fftnd")(_complex_nd("FFTND"))
ifftnd = public("signal.ifftnd", "ifftnd")(_complex_nd("IFFTND"))


@public("signal.rfftnd", "rfftnd")
def rfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    x = as_tensor(input_tensor)
    length, axes = _nd_args(x, fft_length, axes)
    return execute("RFFTND", (x,), {"fft_length": length, "axes": axes,
                                    "Tcomplex": _REAL_TO_COMPLEX.get(x.dtype.name, "complex64")}, name=name)


@public("signal.irfftnd", "irfftnd")
def irfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    x = as_tensor(input_tensor)
    if fft_length is None and axes is not None:
        axes = [int(a) for a in axes]
        fft_length = [int(x.shape[a]) for a in axes[:-1]] + [2 * (int(x.shape[axes[-1]]) - 1)]
    length, axes = _nd_args(x, fft_length, axes)
    return execute("IRFFTND", (x,), {"fft_length": length, "axes": axes,
                                     "Treal": "float64" if x.dtype == dtypes.complex128 else "float32"}, name=name)


def _shift(x, axes, sign):
    x = as_tensor(x)
    if axes is None:
        axes = list(range(x.shape.rank))
    elif isinstance(axes, int):
        axes = [axes]
    shifts = [sign * (int(x.shape[a]) // 2) for a in axes]
    return API["roll"](x, shifts, axes)


@public("signal.fftshift")
def fftshift(x, axes=None, name=None):
    return _shift(x, axes, 1)


@public("signal.ifftshift")
def ifftshift(x, axes=None, name=None):
    return _shift(x, axes, -1)


def _dct_matrix(kind: int, n: int, norm, dtype) -> np.ndarray:
    """The (N, N) matrix ``M`` with ``dct(x) = x @ M`` (SciPy's conventions, as TensorFlow's)."""
    i = np.arange(n, dtype=np.float64)[:, None]  # input index
    k = np.arange(n, dtype=np.float64)[None, :]  # output index
    if kind == 1:
        m = 2 * np.cos(np.pi * i * k / (n - 1))
        m[0, :], m[-1, :] = 1, (-1.0) ** np.arange(n)
    elif kind == 2:
        m = 2 * np.cos(np.pi * k * (2 * i + 1) / (2 * n))
        if norm == "ortho":
            m[:, 0] *= np.sqrt(1 / (4 * n))
            m[:, 1:] *= np.sqrt(1 / (2 * n))
    elif kind == 3:
        m = 2 * np.cos(np.pi * i * (2 * k + 1) / (2 * n))
        if norm == "ortho":
            m[0, :] *= np.sqrt(1 / (4 * n))
            m[1:, :] *= np.sqrt(1 / (2 * n))
        else:
            m[0, :] = 1
    else:
        m = 2 * np.cos(np.pi * (2 * i + 1) * (2 * k + 1) / (4 * n))
        if norm == "ortho":
            m *= np.sqrt(1 / (2 * n))
    return m.astype(dtype)


@public("signal.dct")
def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 (TensorFlow's names)
    """The discrete cosine transform of the last axis, types 1-4 (``norm="ortho"`` for 2-4)."""
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types 1, 2, 3 and 4 are supported, got {type}.")
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError(f"n should be a positive integer or None, got {n}")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    x = as_tensor(input)
    size = int(x.shape[-1])
    if n is not None and n < size:
        x = x[..., :n]
    elif n is not None and n > size:
        x = API["pad"](x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - size]])
    length = int(x.shape[-1])
    if type == 1 and length < 2:
        raise ValueError(f"Type-I DCT requires the dimension to be greater than one, got {length}")
    if type == 2:  # TensorFlow's: the real part of an RFFT of twice the length, rotated (its float noise too)
        nf = API["cast"](length, x.dtype)
        zero = constant(0.0, x.dtype)
        scale = 2.0 * API["exp"](API["complex"](zero, -API["range"](nf) * np.pi * 0.5 / nf))
        out = API["math.real"](API["signal.rfft"](x, fft_length=[2 * length])[..., :length] * scale)
        if norm == "ortho":
            n1 = 0.5 * API["math.rsqrt"](nf)
            out = out * API["pad"](API["expand_dims"](n1, 0), [[0, length - 1]], constant_values=n1 * np.sqrt(2.0))
        return out
    basis = constant(_dct_matrix(type, length, norm, x.dtype.np), x.dtype)
    flat = API["reshape"](x, [-1, length])
    out = API["matmul"](flat, basis)
    return API["reshape"](out, API["shape"](x), name=name)


@public("signal.idct")
def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The inverse of ``dct`` (up to ``2N`` unnormalized): the DCT of the inverse type, as TensorFlow's."""
    return dct(input, type={1: 1, 2: 3, 3: 2, 4: 4}.get(type, type), n=n, axis=axis, norm=norm, name=name)


@public("signal.mdct")
def mdct(signals, frame_length, window_fn=_DEFAULT, pad_end=False, norm=None, name=None):
    if window_fn is _DEFAULT:
        window_fn = API["signal.vorbis_window"]
    signals = as_tensor(signals)
    if frame_length % 4:
        raise ValueError("The frame length must be a multiple of 4.")
    frames = API["signal.frame"](signals, frame_length, frame_length // 2, pad_end=pad_end)
    if window_fn is not None:
        frames = API["multiply"](frames, window_fn(frame_length, dtype=frames.dtype))
    else:
        frames = API["multiply"](frames, constant(1 / np.sqrt(2), frames.dtype))
    a, b, c, d = API["split"](frames, 4, axis=-1)
    first = API["subtract"](API["negative"](API["reverse"](c, [-1])), d)
    second = API["subtract"](a, API["reverse"](b, [-1]))
    return dct(API["concat"]([first, second], -1), type=4, norm=norm)


@public("signal.inverse_mdct")
def inverse_mdct(mdcts, window_fn=_DEFAULT, norm=None, name=None):
    if window_fn is _DEFAULT:
        window_fn = API["signal.vorbis_window"]
    mdcts = as_tensor(mdcts)
    half = int(mdcts.shape[-1])
    if norm is None:
        result = API["multiply"](constant(0.5 / half, mdcts.dtype), dct(mdcts, type=4))
    else:
        result = dct(mdcts, type=4, norm="ortho")
    first, second = API["split"](result, 2, axis=-1)
    frames = API["concat"]([second, API["negative"](API["reverse"](second, [-1])),
                            API["negative"](API["reverse"](first, [-1])), API["negative"](first)], -1)
    if window_fn is not None:
        frames = API["multiply"](frames, window_fn(2 * half, dtype=mdcts.dtype))
    else:
        frames = API["multiply"](frames, constant(1 / np.sqrt(2), mdcts.dtype))
    return API["signal.overlap_and_add"](frames, half)


def _enclosing_power_of_two(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


@public("signal.stft")
def stft(signals, frame_length, frame_step, fft_length=None, window_fn=_DEFAULT, pad_end=False, name=None):
    """Frames, windowed (Hann by default), through ``rfft`` of ``fft_length`` (the enclosing power of two)."""
    if window_fn is _DEFAULT:
        window_fn = API["signal.hann_window"]
    signals = as_tensor(signals)
    fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else int(fft_length)
    frames = API["signal.frame"](signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        frames = API["multiply"](frames, window_fn(frame_length, dtype=frames.dtype))
    return API["signal.rfft"](frames, [fft_length], name=name)


@public("signal.inverse_stft")
def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=_DEFAULT, name=None):
    if window_fn is _DEFAULT:
        window_fn = API["signal.hann_window"]
    stfts = as_tensor(stfts)
    fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else int(fft_length)
    frames = API["signal.irfft"](stfts, [fft_length])
    frames = frames[..., :frame_length]
    if fft_length < frame_length:
        frames = API["pad"](frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, frame_length - fft_length]])
    if window_fn is not None:
        frames = API["multiply"](frames, window_fn(frame_length, dtype=stfts.dtype.real_dtype))
    return API["signal.overlap_and_add"](frames, frame_step, name=name)


@public("signal.inverse_stft_window_fn")
def inverse_stft_window_fn(frame_step, forward_window_fn=None, name=None):
    """A window function for ``inverse_stft`` that undoes ``forward_window_fn``'s overlapping squares."""
    if forward_window_fn is None:
        forward_window_fn = API["signal.hann_window"]

    def window_fn(frame_length, dtype):
        window = forward_window_fn(frame_length, dtype=dtype)
        denom = API["square"](window)
        overlaps = -(-frame_length // frame_step)
        denom = API["pad"](denom, [(0, overlaps * frame_step - frame_length)])
        denom = API["reshape"](denom, [overlaps, frame_step])
        denom = API["reduce_sum"](denom, 0, keepdims=True)
        denom = API["tile"](denom, [overlaps, 1])
        denom = API["reshape"](denom, [overlaps * frame_step])
        return API["math.divide"](window, denom[:frame_length])

    return window_fn


@public("signal.kaiser_window")
def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """``I0(β √(1 - r²)) / I0(β)`` over the window (scaled Bessel functions, as TensorFlow's)."""
    dt = dtypes.as_dtype(dtype)
    n = int(window_length)
    if n == 1:
        return API["ones"]([1], dt)
    half = (n - 1) / 2.0
    arg = API["math.divide"](API["subtract"](API["cast"](API["range"](n), dt), constant(half, dt)), constant(half, dt))
    beta_t = constant(float(beta), dt)
    root = API["sqrt"](API["subtract"](constant(1.0, dt), API["square"](arg)))
    scaled = API["math.bessel_i0e"](API["multiply"](beta_t, root))
    return API["multiply"](API["math.divide"](scaled, API["math.bessel_i0e"](beta_t)),
                           API["exp"](API["multiply"](beta_t, API["subtract"](root, constant(1.0, dt)))), name=name)


@public("signal.kaiser_bessel_derived_window")
def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    half = int(window_length) // 2
    kaiser = kaiser_window(half + 1, beta, dtype)
    csum = API["math.cumsum"](kaiser)
    half_window = API["sqrt"](API["math.divide"](csum[:-1], csum[-1]))
    return API["concat"]([half_window, API["reverse"](half_window, [0])], 0, name=name)


_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(f):
    return _MEL_HIGH_FREQUENCY_Q * np.log(1.0 + f / _MEL_BREAK_FREQUENCY_HERTZ)


@public("signal.linear_to_mel_weight_matrix")
def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """The ``[num_spectrogram_bins, num_mel_bins]`` triangular filters (HTK's mel scale), TensorFlow's matrix."""
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz} >= upper_edge_hertz {upper_edge_hertz}")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). Got "
                         f"{upper_edge_hertz} for sample_rate: {sample_rate}")
    dt = dtypes.as_dtype(dtype)
    work = dt.np
    nyquist = sample_rate / 2.0
    linear = np.linspace(0.0, nyquist, num_spectrogram_bins).astype(work)[1:]
    bins_mel = _hertz_to_mel(linear).astype(work)[:, None]
    edges = np.linspace(_hertz_to_mel(np.asarray(lower_edge_hertz, work)), _hertz_to_mel(np.asarray(
        upper_edge_hertz, work)), num_mel_bins + 2).astype(work)
    lower, center, upper = edges[:-2][None, :], edges[1:-1][None, :], edges[2:][None, :]
    lower_slopes = (bins_mel - lower) / (center - lower)
    upper_slopes = (upper - bins_mel) / (upper - center)
    weights = np.maximum(0.0, np.minimum(lower_slopes, upper_slopes)).astype(work)
    weights = np.pad(weights, [[1, 0], [0, 0]])
    return constant(weights, dt, name=name)


@public("signal.mfccs_from_log_mel_spectrograms")
def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """The DCT-II of the log mel spectrograms, scaled by ``1/sqrt(2 · num_mel_bins)`` (TensorFlow's)."""
    x = as_tensor(log_mel_spectrograms)
    bins = int(x.shape[-1])
    return API["multiply"](dct(x, type=2), API["math.rsqrt"](constant(bins * 2.0, x.dtype)), name=name)
