"""``tf.nn.fractional_max_pool`` / ``fractional_avg_pool`` (``FractionalMaxPool``,
``FractionalAvgPool`` and their gradients): pooling regions of TensorFlow's pseudo-random or random
sizes, drawn as its kernel draws them (``fractional_pool_common``: a fresh ``GuardedPhiloxRandom``
of the op's two seeds per run, the rows' sequence then the columns'), so a seed gives TensorFlow's
regions. CPU only, as TensorFlow registers them."""

from __future__ import annotations

import math

import numpy as np

from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..declare import as_tensor, gradient, on_host, op, public
from ..random import philox
from ..random.random_ops import seed_pair

_TYPES = ("float32", "float64", "int32", "int64")


class _Guarded:
    """``GuardedPhiloxRandom``: each reservation a stream of its own, the generator moved past it."""

    def __init__(self, seed):
        if seed is None:
            seed = tuple(int.from_bytes(np.random.bytes(8), "little") for _ in range(2))
        self.key, self.hi, self.block = seed[0] & (2**64 - 1), seed[1] & (2**64 - 1), 0

    def reserve32(self, samples: int) -> np.ndarray:
        blocks = (samples + 3) // 4
        out = philox.words(self.key, (self.block, self.hi), blocks).reshape(-1)
        self.block += blocks
        return out


def _pseudo_random(n_in: int, n_out: int, gen: _Guarded) -> list:
    alpha = n_in / n_out
    k = n_in // n_out
    max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
    words = gen.reserve32(2)
    u = float(philox.to_float(words[:2], np.float64)[0]) * max_u
    cum = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, n_out)] + [n_in + 1]
    return [cum[i + 1] - cum[i] for i in range(n_out)]


def _random(n_in: int, n_out: int, gen: _Guarded) -> list:
    k, spare = divmod(n_in, n_out)
    diff = [k + 1] * spare + [k] * (n_out - spare)
    words = iter(int(w) for w in gen.reserve32(len(diff)))
    for i in range(len(diff) - 1):  # RandomShuffle, with single() % n
        j = i + next(words) % (len(diff) - i)
        diff[i], diff[j] = diff[j], diff[i]
    return diff


def _sequence(n_in: int, n_out: int, gen: _Guarded, pseudo_random: bool) -> np.ndarray:
    if n_in % n_out == 0:
        diff = [n_in // n_out] * n_out
    else:
        diff = (_pseudo_random if pseudo_random else _random)(n_in, n_out, gen)
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _windows(seq: np.ndarray, size: int, overlapping: bool) -> list:
    return [(int(seq[i]), min(int(seq[i + 1]) + (1 if overlapping else 0), size)) for i in range(len(seq) - 1)]


def _regions(x_shape, pooling_ratio, pseudo_random, seed):
    if len(pooling_ratio) != 4 or pooling_ratio[0] != 1 or pooling_ratio[3] != 1:
        raise ValueError("Fractional pooling is not yet supported on the batch nor channel dimension.")
    out = [int(math.floor(x_shape[i] / pooling_ratio[i])) for i in range(4)]
    for i in range(4):
        if out[i] <= 0:
            raise ValueError(f"Pooling ratio is higher than input dimension size for dimension {i}. Input dim "
                             f"size: {x_shape[i]} pooling ratio: {pooling_ratio[i]}")
    gen = _Guarded(seed)
    return _sequence(x_shape[1], out[1], gen, pseudo_random), _sequence(x_shape[2], out[2], gen, pseudo_random)


def _pool(x, rows, cols, overlapping, reduce):
    rw, cw = _windows(rows, x.shape[1], overlapping), _windows(cols, x.shape[2], overlapping)
    out = np.empty((x.shape[0], len(rw), len(cw), x.shape[3]), x.dtype)
    for i, (r0, r1) in enumerate(rw):
        for j, (c0, c1) in enumerate(cw):
            out[:, i, j, :] = reduce(x[:, r0:r1, c0:c1, :])
    return out


def _max_kernel(xp, value, pooling_ratio, pseudo_random=False, overlapping=False, seed=None):
    x = on_host(xp, value)
    rows, cols = _regions(x.shape, pooling_ratio, pseudo_random, seed)
    out = _pool(x, rows, cols, overlapping, lambda w: w.max(axis=(1, 2)))
    return xp.asarray(out), xp.asarray(rows), xp.asarray(cols)


def _avg_kernel(xp, value, pooling_ratio, pseudo_random=False, overlapping=False, seed=None):
    x = on_host(xp, value)
    rows, cols = _regions(x.shape, pooling_ratio, pseudo_random, seed)

    def mean(w):
        total = w.sum(axis=(1, 2), dtype=np.float64 if x.dtype.kind == "f" else x.dtype)
        count = w.shape[1] * w.shape[2]
        return (total / count).astype(x.dtype) if x.dtype.kind == "f" else total // count

    out = _pool(x, rows, cols, overlapping, mean)
    return xp.asarray(out), xp.asarray(rows), xp.asarray(cols)


def _max_grad_kernel(xp, orig_input, orig_output, out_backprop, rows, cols, overlapping=False):
    x, y, dy = on_host(xp, orig_input), on_host(xp, orig_output), on_host(xp, out_backprop)
    rw = _windows(on_host(xp, rows), x.shape[1], overlapping)
    cw = _windows(on_host(xp, cols), x.shape[2], overlapping)
    dx = np.zeros(x.shape, dy.dtype)
    for b in range(x.shape[0]):
        for i, (r0, r1) in enumerate(rw):
            for j, (c0, c1) in enumerate(cw):
                for ch in range(x.shape[3]):
                    window = x[b, r0:r1, c0:c1, ch]
                    hits = np.argwhere(window == y[b, i, j, ch])
                    r, c = hits[0]  # the first maximum, in row-major order
                    dx[b, r0 + r, c0 + c, ch] += dy[b, i, j, ch]
    return xp.asarray(dx)


def _avg_grad_kernel(xp, out_backprop, rows, cols, orig_input_tensor_shape=(), overlapping=False):
    dy = on_host(xp, out_backprop)
    shape = tuple(int(d) for d in orig_input_tensor_shape)
    rw = _windows(on_host(xp, rows), shape[1], overlapping)
    cw = _windows(on_host(xp, cols), shape[2], overlapping)
    dx = np.zeros(shape, np.float64)
    for i, (r0, r1) in enumerate(rw):
        for j, (c0, c1) in enumerate(cw):
            dx[:, r0:r1, c0:c1, :] += (dy[:, i, j, :].astype(np.float64) / ((r1 - r0) * (c1 - c0)))[:, None, None, :]
    return xp.asarray(dx.astype(dy.dtype))


def _pool_shape(name, shapes, attrs, dtype):
    shape = shapes[0] if shapes else None
    ratio = attrs.get("pooling_ratio")
    if shape is None or ratio is None:
        out = None
    else:
        out = tuple(None if d is None else int(math.floor(d / r)) for d, r in zip(shape, ratio))
    rows = None if out is None or out[1] is None else out[1] + 1
    cols = None if out is None or out[2] is None else out[2] + 1
    return [(dtype, out), ("int64", (rows,)), ("int64", (cols,))]


def _grad_shape(name, shapes, attrs, dtype):
    if name == "FractionalAvgPoolGrad":
        return dtype, tuple(attrs.get("orig_input_tensor_shape") or ()) or None
    return dtype, shapes[0] if shapes else None


op("FractionalMaxPool", _max_kernel, {CPU: _TYPES}, devices=(CPU,), shape=_pool_shape, multi=True, stateful=True)
op("FractionalAvgPool", _avg_kernel, {CPU: _TYPES}, devices=(CPU,), shape=_pool_shape, multi=True, stateful=True)
op("FractionalMaxPoolGrad", _max_grad_kernel, {CPU: _TYPES}, devices=(CPU,), shape=_grad_shape, mixed_dtypes=True)
op("FractionalAvgPoolGrad", _avg_grad_kernel, {CPU: _TYPES}, devices=(CPU,), shape=_grad_shape, mixed_dtypes=True)


@gradient("FractionalMaxPool")
def _fractional_max_pool_grad(op, grad_0, unused_grad_1=None, unused_grad_2=None):
    x = op.inputs[0]
    out, rows, cols = op.outputs
    return (execute("FractionalMaxPoolGrad", (x, out, grad_0, rows, cols),
                    {"overlapping": op.attrs.get("overlapping", False)}),)


@gradient("FractionalAvgPool")
def _fractional_avg_pool_grad(op, grad_0, unused_grad_1=None, unused_grad_2=None):
    x = op.inputs[0]
    _, rows, cols = op.outputs
    return (execute("FractionalAvgPoolGrad", (grad_0, rows, cols),
                    {"orig_input_tensor_shape": tuple(x.shape), "overlapping": op.attrs.get("overlapping", False)}),)


def _ratio(pooling_ratio) -> tuple:
    if isinstance(pooling_ratio, (list, tuple)):
        ratio = tuple(float(r) for r in pooling_ratio)
        if len(ratio) == 2:
            ratio = (1.0, *ratio, 1.0)
        if len(ratio) != 4:
            raise ValueError(f"pooling_ratio should be a list or tuple of length 2 or 4, got {pooling_ratio}")
        if ratio[0] != 1.0 or ratio[3] != 1.0:
            raise ValueError(f"The first and last elements of pooling ratio must be 1.0. Got {pooling_ratio}")
        return ratio
    return (1.0, float(pooling_ratio), float(pooling_ratio), 1.0)


def _fractional(op_type, value, pooling_ratio, pseudo_random, overlapping, seed, name):
    ratio = _ratio(pooling_ratio)
    for r in ratio:
        if r < 1.0:
            raise ValueError(f"pooling_ratio should be >= 1.0, got {pooling_ratio}")
    attrs = {"pooling_ratio": ratio, "pseudo_random": bool(pseudo_random), "overlapping": bool(overlapping),
             "seed": seed_pair(seed) if seed else None}
    return execute(op_type, (as_tensor(value),), attrs, name=name)


@public("nn.fractional_max_pool")
def fractional_max_pool_v2(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """``(output, row_pooling_sequence, col_pooling_sequence)``; ``seed`` 0: random regions."""
    return _fractional("FractionalMaxPool", value, pooling_ratio, pseudo_random, overlapping, seed, name)


@public("nn.fractional_avg_pool")
def fractional_avg_pool_v2(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """``(output, row_pooling_sequence, col_pooling_sequence)``; ``seed`` 0: random regions."""
    return _fractional("FractionalAvgPool", value, pooling_ratio, pseudo_random, overlapping, seed, name)
