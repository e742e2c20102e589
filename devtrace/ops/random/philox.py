"""Philox-4x32-10, the counter-based generator TensorFlow's random kernels use, and TensorFlow's
ways of turning its 32-bit words into numbers — in NumPy, vectorised over output blocks, so a
seed gives TensorFlow's values (checked against TensorFlow 2.21 in tests/tf221_oracle).

A stream is ``(key, counter)``: block ``i`` is Philox of ``counter + i`` (a 128-bit counter)
under ``key``; each block is four uint32 words.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..math import libm

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
# the key TensorFlow scrambles a stateless seed with (GetKeyCounterFromSeed)
_SEED_KEY = (0x3EC8F720, 0x02461E29)
TWO_PI = 2 * np.pi


def philox(counters: np.ndarray, key) -> np.ndarray:
    """Ten Philox rounds of each ``(n, 4)`` uint32 counter under ``key`` (two uint32)."""
    c0, c1, c2, c3 = (counters[:, i].astype(np.uint64) for i in range(4))
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # uint32 key schedule wraps on purpose
        for _ in range(10):
            p0, p1 = _M0 * c0, _M1 * c2
            c0, c1, c2, c3 = (p1 >> _32) ^ c1 ^ k0, p1 & _LOW, (p0 >> _32) ^ c3 ^ k1, p0 & _LOW
            k0 = np.uint64(np.uint32(k0) + _W0)
            k1 = np.uint64(np.uint32(k1) + _W1)
    out = np.empty((len(counters), 4), np.uint32)
    for i, c in enumerate((c0, c1, c2, c3)):
        out[:, i] = c
    return out


def key_counter(seed0: int, seed1: int) -> tuple[int, tuple[int, int]]:
    """A stateless op's two seeds → ``(key, (counter0, counter1))``, 64-bit each."""
    s0, s1 = seed0 & (2**64 - 1), seed1 & (2**64 - 1)  # the counter (s0, s1): one block, the C loop's when built
    mix = [int(v) for v in blocks_at(_SEED_KEY[0] | _SEED_KEY[1] << 32, (s0, s1), np.zeros(1, np.uint64))[0]]
    return mix[0] | mix[1] << 32, (0, mix[2] | mix[3] << 32)


def words(key: int, counter, blocks: int, skip: int = 0) -> np.ndarray:
    """``(blocks, 4)`` uint32 words of the stream, starting ``skip`` blocks in."""
    return blocks_at(key, counter, np.arange(skip, skip + blocks, dtype=np.uint64))


def blocks_at(key: int, counter, idx: np.ndarray) -> np.ndarray:
    """The stream's blocks number ``idx`` (uint64), one ``(4,)`` row each."""
    idx = np.ascontiguousarray(idx, np.uint64)
    native = _native()
    if native is not None:
        out = np.empty((idx.size, 4), np.uint32)
        native(key & (2**64 - 1), counter[0] & (2**64 - 1), counter[1] & (2**64 - 1), idx, out)
        return out
    lo = np.uint64(counter[0] & (2**64 - 1)) + idx
    hi = np.uint64(counter[1] & (2**64 - 1)) + (lo < idx).astype(np.uint64)  # the carry
    ctr = np.stack([lo & _LOW, lo >> _32, hi & _LOW, hi >> _32], axis=1).astype(np.uint32)
    return philox(ctr, (key & 0xFFFFFFFF, key >> 32))


def _native(name: str = "philox_blocks"):
    """The C module's loop ``name`` (``None``: NumPy's vectorised code instead)."""
    from ...runtime.native import FASTPATH

    return getattr(FASTPATH, name, None)


def stream(key: int, counter, n: int) -> np.ndarray:
    """The first ``n`` uint32 words."""
    return words(key, counter, -(-n // 4)).reshape(-1)[:n]


# -- words into numbers, as TensorFlow's random_distributions do ----------------------------------

def to_float(x: np.ndarray, dtype) -> np.ndarray:
    """Uniform [0, 1): ``float32``/``float16``/``bfloat16`` from one word's mantissa bits,
    ``float64`` from two."""
    dtype = np.dtype(dtype)
    if dtype.name == "bfloat16":  # 7 mantissa bits (ml_dtypes' type, when devtrace has tf.bfloat16)
        return ((x & np.uint32(0x7F)) | np.uint32(0x3F80)).astype(np.uint16).view(dtype) - dtype.type(1)
    if dtype == np.float16:
        return ((x & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16).view(np.float16) - np.float16(1)
    if dtype == np.float64:
        hi, lo = x[0::2].astype(np.uint64), x[1::2].astype(np.uint64)
        bits = ((hi & np.uint64(0xFFFFF)) << _32) | lo | np.uint64(0x3FF0000000000000)
        return bits.view(np.float64) - 1.0
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def uniform(key, counter, n: int, dtype) -> np.ndarray:
    per = 2 if np.dtype(dtype) == np.float64 else 1
    return to_float(stream(key, counter, n * per), dtype)[:n]


def box_muller(x: np.ndarray, dtype) -> np.ndarray:
    """Normal samples from words: pairs (float32: 2 words each; float64: 4 words per pair),
    computed as TensorFlow's ``BoxMullerFloat``/``BoxMullerDouble`` compute them: ``2 * M_PI * u``
    in double, then the C library's ``log``, ``sin``, ``cos`` (:mod:`.libm`)."""
    if np.dtype(dtype) == np.float64:
        u1 = np.maximum(to_float(np.stack([x[0::4], x[1::4]], 1).reshape(-1), np.float64), 1e-7)
        v = to_float(np.stack([x[2::4], x[3::4]], 1).reshape(-1), np.float64)
        radius, theta = np.sqrt(-2.0 * libm.f64("log", u1)), TWO_PI * v
        return np.stack([libm.f64("sin", theta) * radius, libm.f64("cos", theta) * radius], axis=1).reshape(-1)
    native = _native("box_muller_f32")
    if native is not None:
        x = np.ascontiguousarray(x, np.uint32)
        out = np.empty(x.size, np.float32)
        native(x, out)
        return out
    u1 = np.maximum(to_float(x[0::2], np.float32), np.float32(1e-7))
    theta = (TWO_PI * to_float(x[1::2], np.float32).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * libm.f32("log", u1))
    return np.stack([libm.f32("sin", theta) * radius, libm.f32("cos", theta) * radius], axis=1).reshape(-1)


def normal(key, counter, n: int, dtype) -> np.ndarray:
    per = 4 if np.dtype(dtype) == np.float64 else 2  # words per pair of samples
    out = box_muller(stream(key, counter, -(-n // 2) * per), dtype)[:n]
    return out.astype(dtype)


def truncated_normal(key, counter, n: int, dtype) -> np.ndarray:
    """|z| < 2 by rejection, reading words one at a time; each group of outputs (four, or two
    for float64) starts ``group * 256 / 4`` blocks after the last (TensorFlow reserves 256
    samples per output)."""
    wide = np.dtype(dtype) == np.float64
    out = np.empty(n, dtype=np.float64 if wide else np.float32)
    per, group = (4, 2) if wide else (2, 4)
    for g in range(-(-n // group)):
        pool = words(key, counter, 64, skip=g * group * 64).reshape(-1)
        z = box_muller(pool[: len(pool) // per * per], dtype)
        take = z[np.abs(z) < 2.0][: min(group, n - group * g)]
        out[group * g: group * g + len(take)] = take
    return out.astype(dtype)


def uniform_int(key, counter, n: int, low: int, high: int, dtype) -> np.ndarray:
    """``low + word % (high - low)``: one word each for 32-bit types, two for 64-bit ones."""
    dtype = np.dtype(dtype)
    span = (high - low) & (2**64 - 1)
    if dtype.itemsize == 8:
        x = stream(key, counter, 2 * n).astype(np.uint64)
        bits = x[0::2] | (x[1::2] << _32)
        return (np.uint64(low & (2**64 - 1)) + bits % np.uint64(span)).astype(dtype)
    x = stream(key, counter, n)
    return (np.uint32(low & 0xFFFFFFFF) + x % np.uint32(span)).astype(dtype)


def full_int(key, counter, n: int, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.itemsize == 8:
        x = stream(key, counter, 2 * n).astype(np.uint64)
        return (x[0::2] | (x[1::2] << _32)).view(np.int64 if dtype.kind == "i" else np.uint64).astype(dtype)
    return stream(key, counter, n).view(np.int32 if dtype.kind == "i" else np.uint32).astype(dtype)
