"""More of ``tf.strings``: ``to_hash_bucket`` (``StringToHashBucket``: TensorFlow's own 64-bit
``Hash64``, a MurmurHash2 variant), ``to_hash_bucket_strong`` (``StringToHashBucketStrong``:
SipHash-2-4 under the given key) and ``unicode_encode`` (``UnicodeEncode``); CPU kernels as
TensorFlow's."""

from __future__ import annotations

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.values import constant
from ..declare import API, as_tensor, not_differentiable, on_host, op, public
from .string_ops import _each, _string

_MASK = (1 << 64) - 1


def hash64(data: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TensorFlow's ``Hash64`` (``tensorflow/core/lib/hash/hash.cc``)."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _MASK
    body = n - n % 8
    for i in range(0, body, 8):
        k = int.from_bytes(data[i:i + 8], "little")
        k = (k * m) & _MASK
        k ^= k >> r
        k = (k * m) & _MASK
        h ^= k
        h = (h * m) & _MASK
    rest = data[body:]
    if rest:
        for i in range(len(rest) - 1, -1, -1):
            h ^= rest[i] << (8 * i)
        h = (h * m) & _MASK
    h ^= h >> r
    h = (h * m) & _MASK
    h ^= h >> r
    return h


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _MASK


def siphash24(k0: int, k1: int, data: bytes) -> int:
    """SipHash-2-4 of ``data`` under the 128-bit key ``(k0, k1)``."""
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, n):
        for _ in range(n):
            v0 = (v0 + v1) & _MASK
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _MASK
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _MASK
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _MASK
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    n = len(data)
    body = n - n % 8
    for i in range(0, body, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    last = ((n & 0xFF) << 56) | int.from_bytes(data[body:], "little")
    v3 ^= last
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
    v0 ^= last
    v2 ^= 0xFF
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def _hash_shape(name, shapes_, attrs, dtype):
    return dtypes.int64, shapes_[0]


op("StringToHashBucket", _each(lambda v, num_buckets=1: hash64(v) % num_buckets, np.int64), {CPU: {"string"}},
   devices=(CPU,), shape=_hash_shape)
op("StringToHashBucketStrong", _each(lambda v, num_buckets=1, key=(0, 0): siphash24(int(key[0]), int(key[1]), v)
                                     % num_buckets, np.int64), {CPU: {"string"}}, devices=(CPU,), shape=_hash_shape)
not_differentiable("StringToHashBucket")
not_differentiable("StringToHashBucketStrong")


@public("strings.to_hash_bucket")
def to_hash_bucket(input, num_buckets, name=None):  # noqa: A002
    """TensorFlow's ``Hash64`` of each string, modulo ``num_buckets`` (the legacy hash)."""
    return execute("StringToHashBucket", (_string(input),), {"num_buckets": int(num_buckets)}, name=name,
                   dtype=dtypes.string)


@public("strings.to_hash_bucket_strong")
def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """SipHash-2-4 of each string under ``key`` (two ints), modulo ``num_buckets``."""
    key = [int(k) for k in key]
    if len(key) != 2:
        raise InvalidArgumentError(f"Key must have 2 elements")
    return execute("StringToHashBucketStrong", (_string(input),), {"num_buckets": int(num_buckets), "key": key},
                   name=name, dtype=dtypes.string)


_ENCODINGS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}


def _unicode_encode(xp, values, splits, output_encoding="UTF-8", errors="replace", replacement_char=65533):
    codepoints, bounds = on_host(xp, values), on_host(xp, splits)
    codec = _ENCODINGS[output_encoding]
    out = []
    for start, end in zip(bounds[:-1], bounds[1:]):
        chars = []
        for c in codepoints[start:end].tolist():
            if 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF:
                chars.append(chr(c))
            elif errors == "strict":
                raise InvalidArgumentError(f"Invalid code point: {c}")
            elif errors == "replace":
                chars.append(chr(replacement_char))
        out.append("".join(chars).encode(codec))
    return np.array(out, object)


op("UnicodeEncode", _unicode_encode, {CPU: {"int32", "int64"}}, devices=(CPU,), mixed_dtypes=True,
   shape=lambda name, shapes_, attrs, dtype: (dtypes.string, (None,)))
not_differentiable("UnicodeEncode")


@public("strings.unicode_encode")
def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Code points (the innermost dimension, ragged or not) as strings in ``output_encoding``."""
    if output_encoding not in _ENCODINGS:
        raise ValueError(f"Unsupported output encoding: {output_encoding}")
    from ..ragged.ragged_tensor import RaggedTensor

    if isinstance(input, RaggedTensor):
        if input.values.shape.rank != 1 or isinstance(input.values, RaggedTensor):
            inner = unicode_encode(input.values, output_encoding, errors, replacement_char)
            return input.with_values(inner)
        values, splits = input.values, input.row_splits
        outer = None
    else:
        x = as_tensor(input)
        if x.shape.rank == 0:
            raise ValueError("Rank of input must be at least 1")
        outer = [int(d) for d in x.shape[:-1]]
        width = int(x.shape[-1])
        count = int(np.prod(outer)) if outer else 1
        values = API["reshape"](x, [-1])
        splits = constant(np.arange(count + 1, dtype=np.int64) * width)
    out = execute("UnicodeEncode", (values, API["cast"](splits, dtypes.int64)),
                  {"output_encoding": output_encoding, "errors": errors,
                   "replacement_char": int(replacement_char)}, name=name)
    if outer is None:
        return out
    return API["reshape"](out, outer) if outer else API["reshape"](out, [])
