"""Random number ops."""

from __future__ import annotations

import numpy as np

from ..runtime import dtypes
from ..runtime.eager.executor import execute
from . import shapes
from .array_ops import check_dims
from .declare import host_arg, op, public


def _random_uniform(xp, shape=(), minval=0.0, maxval=1.0, dtype="float32", seed=None):
    rng = np.random.default_rng(seed)
    values = rng.uniform(minval, maxval, size=tuple(shape)).astype(dtypes.as_dtype(dtype).np)
    return xp.asarray(values)


op("RandomUniform", _random_uniform, dtypes.FLOATS, shape=shapes.random, host_args=("shape",))


@public("random.uniform", "compat.v1.random_uniform")
def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    dt = dtypes.as_dtype(dtype)
    dims = check_dims(host_arg(shape), "RandomUniform")
    if dt.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
        low, high = host_arg(minval, dt)[()], host_arg(maxval, dt)[()]
        return execute("RandomUniformInt", (), {"shape": dims, "minval": int(low), "maxval": int(high),
                                                "dtype": dt.name, "seed": _seed(seed)}, name=name, dtype=dt)
    if maxval is None:
        maxval = 1
    return execute("RandomUniform", (), {"shape": dims, "minval": minval, "maxval": maxval, "dtype": dt.name,
                                         "seed": seed if seed is not None else _seed(None)}, name=name, dtype=dt)


# devtrace draws with NumPy's generator, seeded from (global seed, op seed, call number) when
# tf.random.set_seed or an op seed is given: runs repeat, but the numbers are not TensorFlow's
# (its Philox streams are not reproduced yet).
_SEEDS = {"global": None, "calls": 0}


@public("random.set_seed", "compat.v1.set_random_seed")
def set_seed(seed):
    _SEEDS["global"], _SEEDS["calls"] = None if seed is None else int(seed), 0


def _seed(op_seed):
    _SEEDS["calls"] += 1
    if _SEEDS["global"] is None and op_seed is None:
        return None
    return [_SEEDS["global"] or 0, 0 if op_seed is None else int(op_seed), _SEEDS["calls"]]


def _standard_normal(xp, shape=(), dtype="float32", seed=None):
    values = np.random.default_rng(seed).standard_normal(size=tuple(shape))
    return xp.asarray(values.astype(dtypes.as_dtype(dtype).np))


def _truncated_normal(xp, shape=(), dtype="float32", seed=None):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(size=tuple(shape))
    bad = np.abs(values) > 2
    while bad.any():  # resample beyond two standard deviations, as TensorFlow's kernel does
        values[bad] = rng.standard_normal(size=int(bad.sum()))
        bad = np.abs(values) > 2
    return xp.asarray(values.astype(dtypes.as_dtype(dtype).np))


def _uniform_int(xp, shape=(), minval=0, maxval=1, dtype="int32", seed=None):
    values = np.random.default_rng(seed).integers(minval, maxval, size=tuple(shape))
    return xp.asarray(values.astype(dtypes.as_dtype(dtype).np))


def _shuffle(xp, x, seed=None):
    order = np.random.default_rng(seed).permutation(x.shape[0])
    return x[xp.asarray(order)]


op("RandomStandardNormal", _standard_normal, dtypes.FLOATS, shape=shapes.random, host_args=("shape",))
op("TruncatedNormal", _truncated_normal, dtypes.FLOATS, shape=shapes.random, host_args=("shape",))
op("RandomUniformInt", _uniform_int, dtypes.INTEGERS, shape=shapes.random, host_args=("shape",))
op("RandomShuffle", _shuffle, None, shape=shapes.same)


def _scaled(op_type, shape, mean, stddev, dtype, seed, name):
    from .math_ops import add, multiply
    from ..runtime.values import constant

    dt = dtypes.as_dtype(dtype)
    dims = check_dims(host_arg(shape), op_type)
    mean_t, std_t = constant(mean, dt), constant(stddev, dt)
    rnd = execute(op_type, (), {"shape": dims, "dtype": dt.name, "seed": _seed(seed)}, name=name, dtype=dt)
    return add(multiply(rnd, std_t), mean_t)


@public("random.normal", "compat.v1.random_normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _scaled("RandomStandardNormal", shape, mean, stddev, dtype, seed, name)


@public("random.truncated_normal", "compat.v1.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _scaled("TruncatedNormal", shape, mean, stddev, dtype, seed, name)


@public("random.shuffle")
def shuffle(value, seed=None, name=None):
    from .declare import as_tensor

    return execute("RandomShuffle", (as_tensor(value),), {"seed": _seed(seed)}, name=name)
