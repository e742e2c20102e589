"""FarmHash's 64-bit fingerprint (``farmhashna::Hash64``), the hash TensorFlow's
``Fingerprint64`` — and so ``tf.strings.to_hash_bucket_fast`` — computes. Pure Python,
64-bit arithmetic masked."""

from __future__ import annotations

_M = (1 << 64) - 1
_K0, _K1, _K2 = 0xC3A5C85C97CB3127, 0xB492B66FBE98F273, 0x9AE16A3B2F90404F


def _u64(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 8], "little")


def _u32(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 4], "little")


def _ror(v: int, r: int) -> int:
    return ((v >> r) | (v << (64 - r))) & _M


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _mix16(u: int, v: int, mul: int) -> int:
    a = _shift_mix(((u ^ v) * mul) & _M)
    b = _shift_mix(((v ^ a) * mul) & _M)
    return (b * mul) & _M


def _upto16(s: bytes, n: int) -> int:
    if n >= 8:
        mul = _K2 + n * 2
        a = (_u64(s, 0) + _K2) & _M
        b = _u64(s, n - 8)
        c = (_ror(b, 37) * mul + a) & _M
        d = ((_ror(a, 25) + b) * mul) & _M
        return _mix16(c, d, mul)
    if n >= 4:
        return _mix16(n + (_u32(s, 0) << 3), _u32(s, n - 4), _K2 + n * 2)
    if n:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _upto32(s: bytes, n: int) -> int:
    mul = _K2 + n * 2
    a = (_u64(s, 0) * _K1) & _M
    b = _u64(s, 8)
    c = (_u64(s, n - 8) * mul) & _M
    d = (_u64(s, n - 16) * _K2) & _M
    return _mix16((_ror((a + b) & _M, 43) + _ror(c, 30) + d) & _M, (a + _ror((b + _K2) & _M, 18) + c) & _M, mul)


def _upto64(s: bytes, n: int) -> int:
    mul = _K2 + n * 2
    a = (_u64(s, 0) * _K2) & _M
    b = _u64(s, 8)
    c = (_u64(s, n - 8) * mul) & _M
    d = (_u64(s, n - 16) * _K2) & _M
    y = (_ror((a + b) & _M, 43) + _ror(c, 30) + d) & _M
    z = _mix16(y, (a + _ror((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_u64(s, 16) * mul) & _M
    f = _u64(s, 24)
    g = ((y + _u64(s, n - 32)) * mul) & _M
    h = ((z + _u64(s, n - 24)) * mul) & _M
    return _mix16((_ror((e + f) & _M, 43) + _ror(g, 30) + h) & _M, (e + _ror((f + a) & _M, 18) + g) & _M, mul)


def _weak32(s: bytes, i: int, a: int, b: int) -> tuple[int, int]:
    w, x, y, z = _u64(s, i), _u64(s, i + 8), _u64(s, i + 16), _u64(s, i + 24)
    a = (a + w) & _M
    b = _ror((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _ror(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def _round(s, i, x, y, z, v, w, mul, last=False):
    x = (_ror((x + y + v[0] + _u64(s, i + 8)) & _M, 37) * mul) & _M
    y = (_ror((y + v[1] + _u64(s, i + 48)) & _M, 42) * mul) & _M
    x ^= (w[1] * 9) & _M if last else w[1]
    y = (y + (v[0] * 9 if last else v[0]) + _u64(s, i + 40)) & _M
    z = (_ror((z + w[0]) & _M, 33) * mul) & _M
    v = _weak32(s, i, (v[1] * mul) & _M, (x + w[0]) & _M)
    w = _weak32(s, i + 32, (z + w[1]) & _M, (y + _u64(s, i + 16)) & _M)
    return z, y, x, v, w  # x and z swap


def fingerprint64(s: bytes) -> int:
    n = len(s)
    if n <= 16:
        return _upto16(s, n)
    if n <= 32:
        return _upto32(s, n)
    if n <= 64:
        return _upto64(s, n)
    seed = 81
    x, y = seed, (seed * _K1 + 113) & _M
    z = (_shift_mix((y * _K2 + 113) & _M) * _K2) & _M
    v = w = (0, 0)
    x = (x * _K2 + _u64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    for i in range(0, end, 64):
        x, y, z, v, w = _round(s, i, x, y, z, v, w, _K1)
    mul = _K1 + ((z & 0xFF) << 1)
    last = end + ((n - 1) & 63) - 63
    w = ((w[0] + ((n - 1) & 63)) & _M, w[1])
    v = ((v[0] + w[0]) & _M, v[1])
    w = ((w[0] + v[0]) & _M, w[1])
    x, y, z, v, w = _round(s, last, x, y, z, v, w, mul, last=True)
    return _mix16((_mix16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _M, (_mix16(v[1], w[1], mul) + x) & _M, mul)
