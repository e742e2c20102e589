"""TensorFlow's candidate samplers (``tf.random.uniform_candidate_sampler``,
``log_uniform_candidate_sampler``, ``fixed_unigram_candidate_sampler``,
``learned_unigram_candidate_sampler``, ``all_candidate_sampler``): its ``RangeSampler``s drawing
from the kernel's seeded stream (2048 words reserved per sampled candidate) through
``SimplePhilox``, redrawing while ``unique`` repeats a value; expected counts in float32; results
in TensorFlow's named tuples."""

from __future__ import annotations

import collections
import itertools
import math

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..math import libm
from . import philox, random_ops
from ..declare import on_host, op, public
from .stateless_random_ops import as_tensor_of

_OPS = ("UniformCandidateSampler", "LogUniformCandidateSampler", "FixedUnigramCandidateSampler",
        "LearnedUnigramCandidateSampler", "AllCandidateSampler")
_RESULTS = {name: collections.namedtuple(name, ["sampled_candidates", "true_expected_count",
                                                "sampled_expected_count"]) for name in _OPS}


class _RangeSampler:
    """``UniformSampler`` (``Uniform64``) and ``LogUniformSampler`` (``exp(RandDouble() *
    log1p(range)) - 1``), with their probabilities."""

    def __init__(self, uniform: bool, range_max: int):
        self.uniform, self.range, self.log_range = uniform, range_max, math.log1p(range_max)

    def sample(self, words) -> int:
        if self.uniform:
            return _exact_uniform(self.range, lambda: next(words) | next(words) << 32, 64)
        u = float(philox.to_float(np.array([next(words), next(words)], np.uint32), np.float64)[0])
        return (int(math.exp(u * self.log_range)) - 1) % self.range

    def probability(self, value) -> np.float32:
        if self.uniform:
            return np.float32(1.0 / self.range)
        return np.float32(math.log((value + 2.0) / (value + 1.0)) / self.log_range)

    def update(self, true) -> None:
        pass


class _Unigram:
    """``FixedUnigramSampler`` (Walker's alias table of fixed weights: ``RandFloat`` against the
    bucket ``Uniform(n)`` picks) and ``UnigramSampler`` (learned: every weight starts at 1, each
    true class seen adds 1; picks by the cumulative weights, as ``WeightedPicker``)."""

    def __init__(self, weights, learned: bool):
        self.weights, self.learned = np.asarray(weights, np.float32), learned
        self.total = np.float32(0)
        for w in self.weights:  # float accumulation, as the kernel's
            self.total = np.float32(self.total + w)
        if not learned:
            self.prob, self.alt = _alias_table(self.weights)

    def sample(self, words) -> int:
        if self.learned:
            picked = _exact_uniform(int(self.weights.sum()), lambda: next(words), 32)
            return int(np.searchsorted(np.cumsum(self.weights.astype(np.int64)), picked, side="right"))
        r = philox.to_float(np.array([next(words)], np.uint32), np.float32)[0]
        idx = _exact_uniform(len(self.weights), lambda: next(words), 32)
        return idx if r < self.prob[idx] else int(self.alt[idx])

    def probability(self, value) -> np.float32:
        total = np.float32(self.weights.sum()) if self.learned else self.total
        return np.float32(self.weights[value] / total)

    def update(self, true) -> None:
        if self.learned:
            for value in true.reshape(-1).tolist():
                self.weights[value] += 1


def _alias_table(weights):
    """``DistributionSampler``'s table: ``(weight * n) / sum`` paired high with low, last first."""
    n = len(weights)
    total = float(np.sum(weights.astype(np.float64)))
    pr = [float(np.float32(w * np.float32(n))) / total for w in weights]
    alt = [-1] * n
    low = [i for i in range(n) if pr[i] < 1.0]
    high = [i for i in range(n) if pr[i] >= 1.0]
    while high and low:
        lo, hi = low.pop(), high.pop()
        alt[lo] = hi
        pr[hi] = pr[hi] - (1.0 - pr[lo])
        (low if pr[hi] < 1.0 else high).append(hi)
    prob = np.array(pr, np.float32)
    for idx in high + low:
        prob[idx], alt[idx] = 1.0, idx
    return prob, alt


def _exact_uniform(n: int, bits, width: int) -> int:
    """``ExactUniformInt``: a value of ``bits()`` below the leftover ``2**width % n`` is redrawn."""
    rem = ((2**width - 1) % n + 1) % n
    while True:
        value = bits()
        if value >= rem:
            return value % n


def _words(key, counter):
    """The stream's words one at a time, computed a chunk at a time."""
    for chunk in itertools.count():
        yield from philox.words(key, counter, 64, skip=64 * chunk).reshape(-1).tolist()


def _draw(sampler, words, num_sampled, unique):
    used, picked, tries = set(), [], 0
    while len(picked) < num_sampled:
        value = sampler.sample(words)
        tries += 1
        if not unique or value not in used:
            used.add(value)
            picked.append(value)
    return np.array(picked, np.int64), tries


def _expected(sampler, values, num_sampled, tries):
    """``ExpectedCountHelper``: ``p * batch`` when no draw repeated, else ``1 - (1 - p) ** tries``."""
    out = []
    for value in values.reshape(-1).tolist():
        p = sampler.probability(value)
        if tries == num_sampled:
            out.append(p * np.float32(num_sampled))
        else:
            out.append(-libm.scalar_f32("expm1", np.float32(tries) * libm.scalar_f32("log1p", -p)))
    return np.array(out, np.float32).reshape(values.shape)


def _check(true, num_true, num_sampled, unique, range_max):
    if true.ndim != 2:
        raise ValueError("true_classes must be a matrix")
    if true.shape[1] != num_true:
        raise ValueError(f"true_classes must have num_true columns, expected: {true.shape[1]} was: {num_true}")
    if unique and num_sampled > range_max:
        raise ValueError("Sampler's range is too small.")
    for value in true.reshape(-1).tolist():
        if not 0 <= value < range_max:
            raise ValueError(f"`true_candidate` out of range [0, {range_max}), received {value}")


def _sampler(op_type, attrs):
    range_max = attrs.get("range_max", attrs["num_sampled"])
    if op_type in ("UniformCandidateSampler", "LogUniformCandidateSampler"):
        return _RangeSampler(op_type == "UniformCandidateSampler", range_max)
    if op_type == "LearnedUnigramCandidateSampler":
        return _Unigram(np.ones(range_max, np.float32), learned=True)
    weights = [0.0] * attrs["num_reserved_ids"] + [float(w) for w in attrs["unigrams"]]
    kept = [np.float32(w) ** np.float32(attrs["distortion"]) for i, w in enumerate(weights)
            if i % attrs["num_shards"] == attrs["shard"]]
    if len(kept) != range_max:
        raise ValueError(f"range is {range_max} must be equal to weights size  {len(kept)}")
    return _Unigram(kept, learned=False)


def _kernel(op_type):
    def kernel(xp, true_classes, seed=None, **attrs):
        true, n = on_host(xp, true_classes), attrs["num_sampled"]
        if op_type == "AllCandidateSampler":
            _check(true, attrs["num_true"], n, attrs["unique"], n)
            return xp.arange(n, dtype=np.int64), xp.ones(true.shape, np.float32), xp.ones(n, np.float32)
        state_key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(attrs.items()))
        sampler = random_ops.kernel_state(op_type, seed, state_key, lambda: _sampler(op_type, attrs))
        _check(true, attrs["num_true"], n, attrs["unique"], attrs["range_max"])
        key, counter = random_ops.kernel_stream(op_type, seed, state_key, 0, blocks=(2048 * n + 3) // 4)
        sampled, tries = _draw(sampler, _words(key, counter), n, attrs["unique"])
        out = (sampled, _expected(sampler, true, n, tries), _expected(sampler, sampled, n, tries))
        sampler.update(true)
        return tuple(xp.asarray(a) for a in out)
    return kernel


def _shapes(name, shapes, attrs, dtype):
    n, true = attrs["num_sampled"], shapes[0]
    return [(dtypes.int64, (n,)), (dtypes.float32, true), (dtypes.float32, (n,))]


for _op in _OPS:
    op(_op, _kernel(_op), {"int64"}, devices=(CPU,), shape=_shapes, multi=True, stateful=True)


def _sample(op_type, true_classes, seed, name, slow_path=False, **attrs):
    """``slow_path``: an argument TensorFlow's generated function's fast path refuses (a Python
    int in a ``list(float)`` attr) sends the call down its slow path, whose errors carry no `` name: ``."""
    attrs["seed"] = random_ops.seed_pair(seed)
    true = as_tensor_of(true_classes, dtypes.int64)
    if slow_path:
        context().list_arg_seq = context().trace._seq
    out = execute(op_type, (true,), attrs, name=name)
    return _RESULTS[op_type](*out)


@public("random.uniform_candidate_sampler")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    return _sample("UniformCandidateSampler", true_classes, seed, name, num_true=int(num_true),
                   num_sampled=int(num_sampled), unique=bool(unique), range_max=int(range_max))


@public("random.log_uniform_candidate_sampler")
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    return _sample("LogUniformCandidateSampler", true_classes, seed, name, num_true=int(num_true),
                   num_sampled=int(num_sampled), unique=bool(unique), range_max=int(range_max))


@public("random.learned_unigram_candidate_sampler", "nn.learned_unigram_candidate_sampler")
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                      name=None):
    return _sample("LearnedUnigramCandidateSampler", true_classes, seed, name, num_true=int(num_true),
                   num_sampled=int(num_sampled), unique=bool(unique), range_max=int(range_max))


@public("random.fixed_unigram_candidate_sampler", "nn.fixed_unigram_candidate_sampler")
def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    if vocab_file:
        raise NotImplementedError("devtrace does not implement fixed_unigram_candidate_sampler's vocab_file yet")
    slow_path = any(not isinstance(u, float) for u in unigrams)
    return _sample("FixedUnigramCandidateSampler", true_classes, seed, name, slow_path, num_true=int(num_true),
                   num_sampled=int(num_sampled), unique=bool(unique), range_max=int(range_max),
                   distortion=float(distortion), num_reserved_ids=int(num_reserved_ids),
                   num_shards=int(num_shards), shard=int(shard), unigrams=[float(u) for u in unigrams])


@public("random.all_candidate_sampler", "nn.all_candidate_sampler")
def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    return _sample("AllCandidateSampler", true_classes, seed, name, num_true=int(num_true),
                   num_sampled=int(num_sampled), unique=bool(unique))
