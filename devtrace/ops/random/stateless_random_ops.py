"""``tf.random.stateless_*``: deterministic functions of (seed, shape) with TensorFlow's values —
the seed scrambled into a Philox key and counter (``StatelessRandomGetKeyCounter``), then one
``Stateless*V2`` op draws from that stream (:mod:`.philox`), in the order TensorFlow runs them."""

from __future__ import annotations

import enum

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import ALL_TYPES, CPU
from ...runtime.tensor_shape import shape_text
from ...runtime.values import host_constant
from ..math import math_ops
from . import philox, samplers
from .. import shapes
from . import truncated_normal
from ..array.array_ops import check_dims, stack
from ..declare import as_tensor, host_arg, on_host, op, public

PHILOX, THREEFRY = 1, 2
ALGORITHMS = {"philox": PHILOX, "auto_select": PHILOX, "threefry": THREEFRY, 1: PHILOX, 2: THREEFRY, 3: PHILOX}


@public("random.Algorithm", "random.experimental.Algorithm")
class Algorithm(enum.Enum):
    """TensorFlow's RNG algorithms (``tf.random.Algorithm``), accepted wherever ``alg`` is."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def algorithm_number(alg):
    """``alg`` (a name, a number or an ``Algorithm``) → the algorithm run (1 or 2), or ``None``."""
    if isinstance(alg, Algorithm):
        alg = alg.value
    return ALGORITHMS.get(alg.lower() if isinstance(alg, str) else alg)


def _get_key_counter(xp, seed):
    key, counter = _seed_stream(xp, seed)
    return xp.asarray(np.array([key], np.uint64)), xp.asarray(np.array(counter, np.uint64))


def _seed_stream(xp, seed):
    """A kernel's ``seed`` input → TensorFlow's key and counter (``GenerateKey``)."""
    seed = on_host(xp, seed)
    if seed.shape != (2,):
        raise ValueError(f"seed must have shape [2], not {shape_text(seed.shape)}")
    return philox.key_counter(int(seed[0]), int(seed[1]))


def _stream(xp, key, counter, alg):
    if int(on_host(xp, alg)) == THREEFRY:
        raise ValueError("counter must be a vector with length at least 2; got shape: [1]. (Note that batched "
                         "counters are not supported yet.)")
    key, counter = on_host(xp, key), on_host(xp, counter)
    return int(key[0]) & (2**64 - 1), (int(counter[0]), int(counter[1]))


def _drawing(draw):
    """A kernel ``fn(xp, key, counter, alg, …, shape=, dtype=)`` from ``draw(key, counter, n, dtype, *extra)``."""
    def kernel(xp, key, counter, alg, *extra, shape=(), dtype="float32"):
        k, c = _stream(xp, key, counter, alg)
        np_dtype = dtypes.as_dtype(dtype).np
        n = int(np.prod(shape, dtype=np.int64))
        values = draw(k, c, n, np_dtype, *[on_host(xp, e)[()] for e in extra])
        return xp.asarray(np.asarray(values, np_dtype).reshape(tuple(shape)))
    return kernel


_FLOAT = dtypes.FLOATS
_KEY_COUNTER = lambda name, shapes_, attrs, dtype: ([(dtypes.uint64, (1,)), (dtypes.uint64, (2,))], None)  # noqa: E731
op("StatelessRandomGetKeyCounter", _get_key_counter, {"int32", "int64"}, shape=_KEY_COUNTER, multi=True)
op("StatelessRandomNormalV2", _drawing(philox.normal), ALL_TYPES, shape=shapes.random, host_args=("shape",),
   mixed_dtypes=True)
op("StatelessRandomUniformV2", _drawing(philox.uniform), ALL_TYPES, shape=shapes.random, host_args=("shape",),
   mixed_dtypes=True)
op("StatelessTruncatedNormalV2", _drawing(philox.truncated_normal), ALL_TYPES, shape=shapes.random,
   host_args=("shape",), mixed_dtypes=True)
op("StatelessRandomUniformIntV2", _drawing(lambda k, c, n, dt, lo, hi: philox.uniform_int(k, c, n, int(lo), int(hi),
                                                                                          dt)),
   ALL_TYPES, shape=shapes.random, host_args=("shape",), mixed_dtypes=True)
op("StatelessRandomUniformFullIntV2", _drawing(philox.full_int), ALL_TYPES, shape=shapes.random,
   host_args=("shape",), mixed_dtypes=True)


def _key_counter_alg(seed, alg):
    key, counter = execute("StatelessRandomGetKeyCounter", (as_tensor(seed, slow_list=True),))
    number = algorithm_number(alg)
    if number is None:
        raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are ['philox', 'threefry', "
                         f"'auto_select'].")
    return key, counter, host_constant(number, dtypes.int32)


def _draw(op_type, shape, seed, dtype, alg, name, extra=()):
    key, counter, alg_t = _key_counter_alg(seed, alg)
    return execute(op_type, (key, counter, alg_t, *extra), {"shape": shape, "dtype": dtype.name}, name=name,
                   dtype=dtype)


def _scaled(op_type, shape, seed, mean, stddev, dtype, alg, name):
    """``mean + stddev * draw``, the conversions in TensorFlow's order (shape, mean, stddev, seed)."""
    dt = dtypes.as_dtype(dtype)
    dims = check_dims(host_arg(shape, slow_list=False), op_type)
    mean, stddev = as_tensor_of(mean, dt), as_tensor_of(stddev, dt)
    rnd = _draw(op_type, dims, seed, dt, alg, None)
    return math_ops.add(math_ops.multiply(rnd, stddev), mean, name=name)


@public("random.stateless_normal")
def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    return _scaled("StatelessRandomNormalV2", shape, seed, mean, stddev, dtype, alg, name)


@public("random.stateless_truncated_normal")
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    return _scaled("StatelessTruncatedNormalV2", shape, seed, mean, stddev, dtype, alg, name)


@public("random.stateless_uniform")
def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    dt = dtypes.as_dtype(dtype)
    dims = check_dims(host_arg(shape, slow_list=False), "StatelessRandomUniformV2")
    if dt.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dt}, argument `minval` and `maxval` must be both None or "
                             f"not None. Got `minval`={minval} and `maxval`={maxval}.")
        if minval is None:
            return _draw("StatelessRandomUniformFullIntV2", dims, seed, dt, alg, name)
        low, high = as_tensor_of(minval, dt), as_tensor_of(maxval, dt)
        return _draw("StatelessRandomUniformIntV2", dims, seed, dt, alg, name, (low, high))
    low, high = as_tensor_of(minval, dt), as_tensor_of(1.0 if maxval is None else maxval, dt)
    rnd = _draw("StatelessRandomUniformV2", dims, seed, dt, alg, None)
    return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(high, low)), low, name=name)


def as_tensor_of(value, dtype):
    """A scalar argument (mean, minval …) converted with the op's dtype, as TensorFlow converts it."""
    from ...runtime.tensor import Tensor
    from ...runtime.values import constant

    return value if isinstance(value, Tensor) else constant(value, dtype)


@public("random.experimental.stateless_split", "random.split")
def stateless_split(seed, num=2, alg="auto_select"):
    seed = as_tensor(seed)
    return stateless_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype, alg=alg)


@public("random.experimental.stateless_fold_in", "random.fold_in")
def stateless_fold_in(seed, data, alg="auto_select"):
    data = as_tensor(data)
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype, alg=alg)
    return stack([first, data])


# -- the samplers: categorical, shuffle, gamma, Poisson, binomial ----------------------------------

def _stateless_multinomial(xp, logits, seed, num_samples=0, output_dtype="int64"):
    logits, n = on_host(xp, logits), int(on_host(xp, num_samples))
    samplers.check_multinomial(logits, n)
    key, counter = _seed_stream(xp, seed)
    return xp.asarray(samplers.multinomial(key, counter, logits, n, samplers.threads()).astype(dtypes.as_dtype(output_dtype).np))


def multinomial_on_host(logits, seed, num_samples=1):
    """``StatelessMultinomial``'s draws as a host computation (tf.data's selectors run no eager op)."""
    return _stateless_multinomial(np, np.asarray(logits), np.asarray(seed, np.int64), num_samples)


def _stateless_shuffle(xp, x, key, counter, alg):
    if x.ndim == 0 or x.size <= 1 or x.shape[0] <= 1:
        return x
    k, c = _stream(xp, key, counter, alg)
    return x[xp.asarray(samplers.permutation(k, c, x.shape[0]))]


def _per(shape, params):
    """Samples per parameter: the shape must end with the parameters' (broadcast) shape."""
    shape, params = tuple(shape), tuple(params)
    if params and shape[len(shape) - len(params):] != params or len(params) > len(shape):
        raise ValueError("Shape passed in must end with broadcasted shape.")
    return int(np.prod(shape[:len(shape) - len(params)], dtype=np.int64))


def _stateless_gamma(xp, key, counter, alg, alpha, shape=()):
    alpha = on_host(xp, alpha)
    per = _per(shape, alpha.shape)
    if per * alpha.size == 0:
        return xp.zeros(tuple(shape), alpha.dtype)
    k, c = _stream(xp, key, counter, alg)
    return xp.asarray(samplers.gamma(k, c, alpha, per, exp_log1p=True).astype(alpha.dtype).reshape(tuple(shape)))


def _stateless_poisson(xp, seed, lam, shape=(), dtype="int32"):
    lam, np_dtype = on_host(xp, lam), dtypes.as_dtype(dtype).np
    per = _per(shape, lam.shape)
    if per * lam.size == 0:
        return xp.zeros(tuple(shape), np_dtype)
    k, c = _seed_stream(xp, seed)
    values = samplers.poisson(k, c, lam, per, samplers.highest_of(np_dtype))
    return xp.asarray(values.astype(np_dtype).reshape(tuple(shape)))


def binomial_values(key, counter, counts, probs, shape, np_dtype):
    """``shape`` binomial samples of the broadcast ``counts`` and ``probs``, as TensorFlow's
    ``RandomBinomialFunctor`` draws them."""
    try:
        batch = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise ValueError(f"counts and probs must have compatible batch dimensions: "
                                   f"{shape_text(counts.shape)} vs. {shape_text(probs.shape)}") from None
    per = _per(shape, batch)
    if per * int(np.prod(batch, dtype=np.int64)) == 0:
        return np.zeros(tuple(shape), np_dtype)
    values = samplers.binomial(key, counter, np.broadcast_to(counts, batch), np.broadcast_to(probs, batch), per)
    return values.astype(np_dtype).reshape(tuple(shape))


def _stateless_binomial(xp, seed, counts, probs, shape=(), dtype="int32"):
    k, c = _seed_stream(xp, seed)
    values = binomial_values(k, c, on_host(xp, counts), on_host(xp, probs), shape, dtypes.as_dtype(dtype).np)
    return xp.asarray(values)


_POISSON_TYPES = {"float16", "float32", "float64", "int32", "int64"}  # their output dtypes


def _given_shape(name, shapes_, attrs, dtype):
    return dtypes.as_dtype(attrs.get("dtype", dtype)), tuple(attrs["shape"])


op("StatelessMultinomial", _stateless_multinomial, dtypes.FLOATS, shape=lambda n, s, a, d: (
    dtypes.as_dtype(a["output_dtype"]), (s[0][0] if s[0] else None, None)), host_args=("num_samples",),
   mixed_dtypes=True)
op("StatelessShuffle", _stateless_shuffle, None, devices=(CPU,), shape=shapes.same, mixed_dtypes=True)
op("StatelessRandomGammaV3", _stateless_gamma, dtypes.FLOATS, shape=_given_shape, host_args=("shape",),
   mixed_dtypes=True)
op("StatelessRandomPoisson", _stateless_poisson, _POISSON_TYPES, devices=(CPU,), shape=_given_shape,
   host_args=("shape",), mixed_dtypes=True)
op("StatelessRandomBinomial", _stateless_binomial, _POISSON_TYPES, devices=(CPU,), shape=_given_shape,
   host_args=("shape",), mixed_dtypes=True)


@public("random.stateless_categorical")
def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    logits = as_tensor(logits)
    dt = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    samplers.check_output_dtype(dt)
    n = host_arg(num_samples, slow_list=False)
    return execute("StatelessMultinomial", (logits, as_tensor(seed, slow_list=True)),
                   {"num_samples": n, "output_dtype": dt.name}, name=name)


@public("compat.v1.random.stateless_multinomial")
def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    return stateless_categorical(logits, num_samples, seed, output_dtype, name)


@public("random.experimental.stateless_shuffle")
def stateless_shuffle(value, seed, alg="auto_select", name=None):
    key, counter, alg_t = _key_counter_alg(seed, alg)
    return execute("StatelessShuffle", (as_tensor(value), key, counter, alg_t), name=name)


@public("random.stateless_gamma")
def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    from ..array.array_ops import broadcast_to, shape as shape_of
    from ..array.manip_ops import broadcast_dynamic_shape

    dt = dtypes.as_dtype(dtype)
    dims = check_dims(host_arg(shape, slow_list=False), "StatelessRandomGammaV3")
    alpha, beta = as_tensor_of(alpha, dt), as_tensor_of(1 if beta is None else beta, dt)
    alpha = broadcast_to(alpha, broadcast_dynamic_shape(shape_of(alpha), shape_of(beta)))
    key, counter, alg_t = _key_counter_alg(seed, "auto_select")
    rnd = execute("StatelessRandomGammaV3", (key, counter, alg_t, alpha), {"shape": dims}, dtype=dt)
    return math_ops.maximum(np.finfo(dt.np).tiny, math_ops.divide(rnd, beta), name=name)


@public("random.stateless_poisson")
def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    dims = check_dims(host_arg(shape, slow_list=False), "StatelessRandomPoisson")
    dt = dtypes.as_dtype(dtype)
    return execute("StatelessRandomPoisson", (as_tensor(seed, slow_list=True), as_tensor(lam)),
                   {"shape": dims, "dtype": dt.name}, name=name, dtype=dt)


@public("random.stateless_binomial")
def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    from ...runtime.tensor import Tensor

    dims = check_dims(host_arg(shape, slow_list=False), "StatelessRandomBinomial")
    probs = probs if isinstance(probs, Tensor) else as_tensor_of(probs, _hinted(probs, dtypes.float32))
    counts = counts if isinstance(counts, Tensor) else as_tensor_of(counts, _hinted(counts, probs.dtype))
    dt = dtypes.as_dtype(output_dtype)
    return execute("StatelessRandomBinomial", (as_tensor(seed, slow_list=True), counts, probs),
                   {"shape": dims, "dtype": dt.name}, name=name, dtype=dt)


def _hinted(value, hint):
    """``convert_to_tensor(value, dtype_hint=hint)``'s dtype: the hint for Python numbers."""
    return hint if isinstance(value, (int, float, list, tuple)) else as_tensor(value).dtype


def _index_shuffle(xp, index, seed, max_index, rounds=4):
    index, seed, top = on_host(xp, index), on_host(xp, seed), on_host(xp, max_index)
    count = index.size
    if not (seed.shape == (3,) or seed.shape == (count, 3) and index.ndim == 1):
        raise ValueError(f"Seed must be a vector of size [3] or a matrix of size [{count}, 3] but got "
                         f"{shape_text(seed.shape)}.")
    keys = np.broadcast_to(seed.astype(np.int64).reshape(-1, 3), (count, 3))
    values = samplers.index_shuffle(index.reshape(-1), keys, np.broadcast_to(top, index.shape).reshape(-1), rounds)
    return xp.asarray(values.astype(index.dtype).reshape(index.shape))


op("RandomIndexShuffle", _index_shuffle, {"int32", "int64", "uint32", "uint64"}, devices=(CPU,), mixed_dtypes=True)


@public("random_index_shuffle")
def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """TensorFlow's generated op function: the seed as given (three numbers, or one row of three per index)."""
    index = as_tensor(index)
    return execute("RandomIndexShuffle", (index, as_tensor(seed), as_tensor_of(max_index, index.dtype)),
                   {"rounds": int(rounds)}, name=name)


@public("random.experimental.index_shuffle")
def index_shuffle(index, seed, max_index):
    from ..array.manip_ops import pad

    seed = as_tensor(seed)
    seed = pad(seed, [[1, 0]] + [[0, 0]] * (len(seed.shape) - 1), constant_values=498247692)
    index = as_tensor(index)
    return execute("RandomIndexShuffle", (index, seed, as_tensor_of(max_index, index.dtype)), {"rounds": 4})


def _parameterized_truncated_normal(xp, seed, means, stddevs, minvals, maxvals, shape=()):
    params = [on_host(xp, p) for p in (means, stddevs, minvals, maxvals)]
    try:
        batch = np.broadcast_shapes(*(p.shape for p in params))
    except ValueError:
        raise ValueError("means, stddevs, minvals, maxvals must have compatible batch dimensions: "
                         + " vs. ".join(shape_text(p.shape) for p in params)) from None
    per = _per(shape, batch)
    key, counter = _seed_stream(xp, seed)
    params = [np.broadcast_to(p, batch).reshape(-1) for p in params]
    return xp.asarray(truncated_normal.sample(key, counter, params, tuple(shape), per, samplers.threads(),
                                              truncated_normal.SHARD_COST))


op("StatelessParameterizedTruncatedNormal", _parameterized_truncated_normal, dtypes.FLOATS, devices=(CPU,),
   shape=_given_shape, host_args=("shape",), mixed_dtypes=True)


@public("random.stateless_parameterized_truncated_normal")
def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0, maxvals=2.0,
                                             name=None):
    dims = check_dims(host_arg(shape, slow_list=False), "StatelessParameterizedTruncatedNormal")
    params = [as_tensor(p) for p in (means, stddevs, minvals, maxvals)]
    return execute("StatelessParameterizedTruncatedNormal", (as_tensor(seed, slow_list=True), *params),
                   {"shape": dims}, name=name, dtype=params[0].dtype)
