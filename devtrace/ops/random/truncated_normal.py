"""``tf.random.stateless_parameterized_truncated_normal``'s sampler: TensorFlow's
``TruncatedNormalFunctorV2`` — per batch member, normal rejection when the bounds hold 1.3
standard deviations on one side, uniform rejection when they are close, exponential rejection
otherwise — reading one Philox stream in order (one CPU shard: the small draws TensorFlow does
not split), in the parameters' precision."""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..math import libm
from . import philox, samplers

_RANDN_BOUNDS = 1.3
# the kernel's cost estimate per output, Eigen's op costs summed (its shards are those of any cost
# from 160 to 419: checked against TensorFlow 2.21's values for 500 to 20000 outputs)
SHARD_COST = 241


def _blocks(key, counter, skip):
    for chunk in itertools.count():
        yield from philox.words(key, counter, 16, skip=skip + 16 * chunk)


def _uniforms(blocks, dtype):
    return philox.to_float(next(blocks), dtype)


def _normals(blocks, dtype):
    return philox.box_muller(next(blocks), np.float64 if dtype == np.float64 else np.float32).astype(dtype)


def _exp(x, dtype):
    return libm.scalar_f32("exp", x) if dtype == np.float32 else dtype.type(math.exp(float(x)))


def _log(x, dtype):
    return libm.scalar_f32("log", x) if dtype == np.float32 else dtype.type(math.log(float(x)))


def sample(key, counter, params, shape, per: int, threads: int = 1, cost: int = 0) -> np.ndarray:
    """``shape`` samples; ``params`` = (means, stddevs, minvals, maxvals), broadcast to the batch.
    Outputs run in TensorFlow's shards (:func:`.samplers.shards`), a shard starting at output
    ``s`` reading its stream from block ``ceil(s * 2000 / per_block)`` on."""
    dtype = params[0].dtype
    batch = params[0].size
    out = np.empty(batch * per, dtype)
    per_block = 2 if dtype == np.float64 else 4
    for start, stop in samplers.shards(batch * per, cost, threads):
        blocks = _blocks(key, counter, (start * 2000 + per_block - 1) // per_block)
        at = start
        while at < stop:
            b, first = divmod(at, per)
            take = min(per - first, stop - at)
            values = _member(blocks, [p[b] for p in params], take, dtype)
            out[(first + np.arange(take)) * batch + b] = values
            at += take
    return out.reshape(shape)


def _member(blocks, params, per, dtype):
    mean, stddev, low, high = (dtype.type(p) for p in params)
    if not (stddev > 0 and low < high and (np.isfinite(low) or np.isfinite(high))):
        raise ValueError("Invalid parameters")
    if (np.isinf(low) and low < 0) or high < mean:
        low, high, stddev = high, low, -stddev
    norm_min, norm_max = (low - mean) / stddev, (high - mean) / stddev
    root = np.sqrt(norm_min * norm_min + dtype.type(4))
    cutoff = dtype.type(2) * _exp(dtype.type(0.5) + (norm_min * (norm_min - root)) / dtype.type(4), dtype) / (
        norm_min + root)
    if (norm_min < -_RANDN_BOUNDS and norm_max >= 0) or (norm_max > _RANDN_BOUNDS and norm_min <= 0):
        z = _randn(blocks, norm_min, norm_max, per, dtype)
    elif norm_max - norm_min < cutoff:
        z = _uniform(blocks, norm_min, norm_max, per, dtype)
    else:
        z = _exponential(blocks, norm_min, norm_max, per, dtype)
    return [v * stddev + mean for v in z]


def _randn(blocks, norm_min, norm_max, per, dtype):
    out = []
    while len(out) < per:
        for v in _normals(blocks, dtype):
            if norm_min <= v <= norm_max:
                out.append(v)
                if len(out) == per:
                    break
    return out


def _uniform(blocks, norm_min, norm_max, per, dtype):
    out, diff = [], norm_max - norm_min
    plus = dtype.type(0) if norm_min < 0 else norm_min * norm_min
    while len(out) < per:
        z = [r * diff + norm_min for r in _uniforms(blocks, dtype)]
        for zi, ui in zip(z, _uniforms(blocks, dtype)):
            if ui <= _exp((plus - zi * zi) / dtype.type(2.0), dtype):
                out.append(zi)
                if len(out) == per:
                    break
    return out


def _exponential(blocks, norm_min, norm_max, per, dtype):
    out = []
    alpha = (norm_min + np.sqrt(norm_min * norm_min + dtype.type(4))) / dtype.type(2)
    while len(out) < per:
        rand = _uniforms(blocks, dtype)
        for i in range(0, len(rand), 2):
            z = -_log(rand[i], dtype) / alpha + norm_min
            x = alpha - z if norm_min < alpha else norm_min - alpha
            if rand[i + 1] <= _exp(-x * x / dtype.type(2.0), dtype) and z < norm_max:
                out.append(z)
                if len(out) == per:
                    break
    return out
