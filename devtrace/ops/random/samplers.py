"""TensorFlow's random samplers that read a Philox stream (:mod:`.philox`) a number at a time:
the multinomial (``tf.random.categorical``), the shuffle, and the rejection samplers of
``tf.random.gamma`` / ``poisson`` / ``binomial`` — TensorFlow's CPU kernels' algorithms, so a
seed gives TensorFlow's values.

The rejection samplers give output ``i`` (in TensorFlow's order: parameter-major) its own
stream, ``256`` blocks (binomial inversion: ``42``) after output ``i - 1``'s, and take numbers
from each block last first, as TensorFlow's ``UNIFORM`` macro and ``SampleBuffer`` do.
"""

from __future__ import annotations

import math

import numpy as np

from ...runtime import dtypes
from ...runtime.tensor_shape import shape_text
from ..math import libm
from . import philox

_PREFETCH = 4  # blocks computed at once for every output (most outputs need one or two)
_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
         0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287)


class _Blocks:
    """One output's blocks, in order, from its first block on."""

    def __init__(self, key, counter, start, first):
        self.key, self.counter, self.start, self.cache, self.used = key, counter, start, first, 0

    def next(self) -> np.ndarray:
        if self.used >= len(self.cache):
            more = np.arange(self.start + self.used, self.start + self.used + 16, dtype=np.uint64)
            self.cache = np.concatenate([self.cache, philox.blocks_at(self.key, self.counter, more)])
        self.used += 1
        return self.cache[self.used - 1]


def _at(key, counter, start: int) -> _Blocks:
    return _Blocks(key, counter, start, philox.blocks_at(key, counter, np.arange(_PREFETCH, dtype=np.uint64) + start))


def _outputs(key, counter, count: int, spacing: int):
    """A ``_Blocks`` per output, ``spacing`` blocks apart."""
    starts = np.arange(count, dtype=np.uint64) * np.uint64(spacing)
    idx = (starts[:, None] + np.arange(_PREFETCH, dtype=np.uint64)[None, :]).reshape(-1)
    first = philox.blocks_at(key, counter, idx).reshape(count, _PREFETCH, 4)
    return [_Blocks(key, counter, int(s), first[i]) for i, s in enumerate(starts)]


class _Numbers:
    """Numbers drawn a block at a time, handed out last first (TensorFlow's ``SampleBuffer``)."""

    def __init__(self, blocks: _Blocks, convert):
        self.blocks, self.convert, self.left = blocks, convert, []

    def __call__(self):
        if not self.left:
            self.left = list(self.convert(self.blocks.next()))
        return self.left.pop()


def _uniform64(block):
    return philox.to_float(block, np.float64)


def _normal64(block):
    return philox.box_muller(block, np.float64)


def _scatter(values, per: int, groups: int) -> np.ndarray:
    """Parameter-major samples → TensorFlow's layout (sample-major: ``out[s * groups + g]``)."""
    return np.asarray(values).reshape(groups, per).T.reshape(-1)


def multinomial(key, counter, logits: np.ndarray, num_samples: int, threads: int = 1) -> np.ndarray:
    """``(batch, num_samples)`` class indices: each row's CDF (in float64, after subtracting its
    largest finite logit) searched with uniform doubles. Rows run in TensorFlow's shards (Eigen's
    blocks for ``threads`` workers); a shard starting at row ``s`` reads its stream from block
    ``s * (num_samples + 3) // 4`` on, row after row."""
    batch = logits.shape[0]
    out = np.empty((batch, num_samples), np.int64)
    cost = int(50 * (num_samples * math.log(logits.shape[1]) / math.log(2) + logits.shape[1]))
    for start, stop in shards(batch, cost, threads):
        words = philox.words(key, counter, -(-2 * (stop - start) * num_samples // 4), skip=start * (num_samples + 3) // 4)
        u = philox.to_float(words.reshape(-1)[:2 * (stop - start) * num_samples], np.float64)
        for b, row_u in zip(range(start, stop), u.reshape(stop - start, num_samples)):
            row = logits[b]
            finite = np.isfinite(row)
            top = float(row[finite].max()) if finite.any() else float(np.finfo(row.dtype).min)
            cdf = np.cumsum(np.where(finite, np.exp(row.astype(np.float64) - top), 0.0))
            out[b] = np.searchsorted(cdf, row_u * cdf[-1], side="right")
    return out


def threads() -> int:
    """TensorFlow's CPU worker threads (its default intra-op parallelism: the CPUs it may use)."""
    from ...runtime.context import context

    return context().machine.cpu.cores


def shards(total: int, cost: int, threads: int) -> list:
    """``[(start, stop)]`` as TensorFlow's ``Shard`` splits ``total`` units of ``cost`` cycles over
    ``threads`` workers: one shard unless Eigen's cost model asks for more, then Eigen's
    ``parallelFor`` blocks (at most 4 per thread, coarsened while that keeps the threads busy)."""
    if total <= 1 or threads <= 1 or min(threads, max(1, int((total * cost - 100000) / 100000 + 0.9))) == 1:
        return [(0, total)]
    size = min(total, max(-(-total // (4 * threads)), int(40000 / cost)))
    largest, count = min(total, 2 * size), -(-total // size)
    best = count / (-(-count // threads) * threads)
    previous = count
    while best < 1.0 and previous > 1:
        coarser = -(-total // (previous - 1))
        if coarser > largest:
            break
        previous = -(-total // coarser)
        efficiency = previous / (-(-previous // threads) * threads)
        if efficiency + 0.01 >= best:
            size, best = coarser, max(best, efficiency)
    return [(s, min(s + size, total)) for s in range(0, total, size)]


def permutation(key, counter, size: int) -> np.ndarray:
    """TensorFlow's Fisher-Yates: position ``i`` swaps with ``i + word % (size - i)``."""
    order = np.arange(size)
    draws = philox.stream(key, counter, max(size - 1, 0)).astype(np.int64)
    for i in range(size - 1):
        j = i + int(draws[i]) % (size - i)
        order[i], order[j] = order[j], order[i]
    return order


def gamma(key, counter, alphas: np.ndarray, per: int, exp_log1p: bool) -> np.ndarray:
    """Marsaglia and Tsang's method in float64, one stream per output. ``exp_log1p``: the
    stateless kernel's ``alpha == 1`` draw (``-log1p(-u)``; the stateful one: ``-log(1 - u)``)."""
    flat = alphas.reshape(-1)
    streams = _outputs(key, counter, flat.size * per, 256)
    values = [_gamma_one(float(flat[i // per]), streams[i], exp_log1p) for i in range(flat.size * per)]
    return _scatter(values, per, flat.size)


def _gamma_one(alpha, blocks, exp_log1p):
    uniform = _Numbers(blocks, _uniform64)
    if alpha == 1.0:
        u = uniform()
        return -math.log1p(-u) if exp_log1p else -math.log(1.0 - u)
    normal = _Numbers(blocks, _normal64)
    d = alpha + (2.0 / 3 if alpha < 1 else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d)
    while True:
        x = float(normal())
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = float(uniform())
        if u < 1 - 0.0331 * (x * x) * (x * x) or math.log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
            res = d * v
            if alpha < 1:
                res *= float(uniform()) ** (1 / alpha)
            return res


def poisson(key, counter, rates: np.ndarray, per: int, highest: float) -> np.ndarray:
    """Knuth's product of uniforms below rate 10, Hormann's transformed rejection above; in
    float64 (TensorFlow 2.21's CPU kernel computes in double for every rate dtype), one stream
    per output."""
    flat = rates.reshape(-1).astype(np.float64)
    streams = _outputs(key, counter, flat.size * per, 256)
    values = [_poisson_one(float(flat[i // per]), _Numbers(streams[i], _uniform64), highest)
              for i in range(flat.size * per)]
    return _scatter(values, per, flat.size)


def _poisson_one(rate, uniform, highest):
    if rate < 10:
        limit, prod, x = math.exp(-rate), 1.0, 0.0
        while True:
            prod *= float(uniform())
            if prod <= limit and x <= highest:
                return x
            x += 1
    return _hormann(rate, uniform, highest)


def _hormann(rate, uniform, highest):
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = float(uniform()) - 0.5
        v = float(uniform())
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if k > highest:
            continue
        if us >= 0.07 and v <= v_r:
            return float(k)
        if k < 0 or (us < 0.013 and v > us):
            continue
        s = math.log(v * inv_alpha / (a / (us * us) + b))
        t = -rate + k * log_rate - libm.lgamma(k + 1)
        if s <= t:
            return float(k)


def binomial(key, counter, counts: np.ndarray, probs: np.ndarray, per: int) -> np.ndarray:
    """Inversion (sum of geometric draws) when ``count * p < 10``, Hormann's BTRS above; for
    ``p > 0.5`` the count minus a draw with ``1 - p``. ``counts``/``probs``: one per batch member."""
    counts, probs = counts.reshape(-1), probs.reshape(-1)
    out = np.empty(counts.size * per, np.float64)
    for i in range(counts.size * per):
        count, prob = counts[i // per], probs[i // per]
        out[i] = _binomial_one(key, counter, i, count, prob)
    return _scatter(out, per, counts.size)


def _binomial_one(key, counter, i, count, prob):
    dcount = float(count)
    if dcount <= 0.0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return dcount
    if not prob <= 1:  # NaN
        return math.nan
    flip = prob > 0.5
    p = float(1 - prob) if flip else float(prob)
    wide = (count * (1 - prob) if flip else count * prob) >= 10
    uniform = _Numbers(_at(key, counter, (256 if wide else 42) * i), _uniform64)
    draw = _btrs(dcount, p, uniform) if wide else _inversion(dcount, p, uniform)
    return dcount - draw if flip else draw


def _inversion(count, prob, uniform):
    geom_sum, num_geom = 0.0, 0
    while True:
        geom_sum += math.ceil(math.log(uniform()) / math.log1p(-prob))
        if geom_sum > count:
            return float(num_geom)
        num_geom += 1


def _tail(k):
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count, prob, uniform):
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = float(uniform()) - 0.5
        v = float(uniform())
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return float(k)
        if k < 0 or k > count:
            continue
        v = math.log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1))) +
                 (count + 1) * math.log((count - m + 1) / (count - k + 1)) +
                 (k + 0.5) * math.log(r * (count - k + 1) / (k + 1)) +
                 _tail(m) + _tail(count - m) - _tail(k) - _tail(count - k))
        if v <= upper:
            return float(k)


def check_multinomial(logits, num_samples):
    """The Multinomial kernels' argument checks, with TensorFlow's texts (a kernel's
    ``ValueError`` is the op's ``InvalidArgumentError``)."""
    if logits.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {shape_text(logits.shape)}")
    if num_samples < 0:
        raise ValueError(f"num_samples should be non-negative, got {num_samples}")
    if logits.shape[1] == 0:
        raise ValueError("num_classes should be positive, got 0")


def highest_of(np_dtype) -> float:
    """``Eigen::NumTraits<U>::highest()`` of an output dtype."""
    info = np.finfo(np_dtype) if np.dtype(np_dtype).kind == "f" else np.iinfo(np_dtype)
    return float(info.max)


def check_output_dtype(dt):
    if dt not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dt}. Accepted dtypes are "
                         f"({dtypes.int32!r}, {dtypes.int64!r}).")


def index_shuffle(index: np.ndarray, keys: np.ndarray, max_index: np.ndarray, rounds: int = 4) -> np.ndarray:
    """TensorFlow's ``RandomIndexShuffle``: ``index``'s place in a permutation of
    ``[0, max_index]``, by cycle-walking a ``rounds``-round Simon cipher over the smallest even block
    of at least 16 bits that holds ``max_index`` (one ``(3,)`` uint32 key per index)."""
    out = np.empty(index.shape, np.uint64)
    for i, (value, key, top) in enumerate(zip(index.tolist(), keys.tolist(), max_index.tolist())):
        out[i] = _simon_walk(int(value), [int(k) & 0xFFFFFFFF for k in key], int(top), rounds)
    return out


def _simon_walk(value: int, key: list, top: int, rounds: int = 4) -> int:
    if top == 0:
        return 0
    bits = math.ceil(math.log2(float(top)))  # in double, as std::log2
    half = max(bits + bits % 2, 16) // 2
    mask = (1 << half) - 1
    keys = [k & mask for k in key]
    z = 0x7369F885192C0EF5 & mask
    while len(keys) < rounds:  # Simon's key schedule for three key words
        i = len(keys)
        keys.append((0xFFFFFFFC & mask) ^ ((z >> (i - 3)) & 1) ^ keys[i - 3] ^ _rotl(keys[i - 1], half - 3, half)
                    ^ _rotl(keys[i - 1], half - 4, half))
    while True:
        left, right = (value >> half) & mask, value & mask
        for k1, k2 in zip(keys[0::2], keys[1::2]):
            left ^= _simon_f(right, half) ^ k1
            right ^= _simon_f(left, half) ^ k2
        value = (left << half) | right
        if value <= top:
            return value


def _rotl(x: int, r: int, width: int) -> int:
    return ((x << r) | (x >> (width - r))) & ((1 << width) - 1)


def _simon_f(x: int, width: int) -> int:
    return (_rotl(x, 1, width) & _rotl(x, 8, width)) ^ _rotl(x, 2, width)
