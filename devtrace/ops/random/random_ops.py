"""TensorFlow's stateful random ops (``tf.random.normal``, ``categorical``, ``shuffle``, ``gamma``,
``poisson`` …) with TensorFlow's values for a seed."""

from __future__ import annotations

import itertools
import os
import random as _random
import weakref

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.registry import CPU
from ...runtime.eager.executor import execute
from ...runtime.tensor import Tensor
from . import philox, samplers
from .. import shapes
from ..array.array_ops import check_dims
from ..declare import host_arg, on_host, op, packed, public, symbolic


# TensorFlow's seeded random kernels: a Philox stream keyed by (seed, seed2) — tf.random.set_seed's
# global seed and the op's seed, the op seed drawn from a Python RNG seeded with the global one when
# the op gives none — each cached kernel moving 256 blocks past every output it drew. Without any
# seed, the stream is keyed from the OS's entropy (nondeterministic, as TensorFlow's).
_DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_SEEDS: dict = {"global": None, "rng": None, "skips": {}}


_GRAPH_SEEDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> its seed, its next op seed
_NODES = itertools.count()  # tells apart the kernels of graph nodes with the same seeds


@public("random.set_seed", "compat.v1.set_random_seed", "compat.v1.random.set_random_seed")
def set_seed(seed):
    """As TensorFlow's: eagerly, the op-seed generator restarts and the cached kernels' streams
    with it; while a graph is built, that graph's seed."""
    if not context().eager:
        _graph_seed()[0] = seed
        return
    _SEEDS["global"] = None if seed is None else int(seed)
    _SEEDS["rng"] = None if seed is None else _random.Random(int(seed))
    _SEEDS["skips"].clear()


def reset() -> None:
    """The random state of a new process: no global seed, no cached kernels (each test starts so)."""
    _SEEDS.update({"global": None, "rng": None})
    _SEEDS["skips"].clear()


def _graph_seed() -> list:
    """The default graph's ``[seed, next op seed]``: a tf.function's graph takes the global seed
    of when it is built, a TF1 graph starts without one."""
    from ...runtime.graph.func_graph import FuncGraph
    from ...runtime.graph.graph import get_default_graph

    graph = get_default_graph()
    state = _GRAPH_SEEDS.get(graph)
    if state is None:
        state = _GRAPH_SEEDS[graph] = [_SEEDS["global"] if isinstance(graph, FuncGraph) else None, 0]
    return state


def seed_pair(op_seed):
    """``(seed, seed2)`` as TensorFlow's ``get_seed`` gives them, or ``None`` (nondeterministic).
    An op without a seed takes the next of the Python RNG's (eagerly) or the graph's count."""
    graph = None if context().eager else _graph_seed()
    global_seed = _SEEDS["global"] if graph is None else graph[0]
    if global_seed is not None:
        if op_seed is None and graph is None:
            op_seed = _SEEDS["rng"].randint(0, _MAXINT32)
        elif op_seed is None:
            op_seed, graph[1] = graph[1], graph[1] + 1
        seeds = (int(global_seed) % _MAXINT32, int(op_seed) % _MAXINT32)
    elif op_seed is not None:
        seeds = (_DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32)
    else:
        return None
    seeds = (0, _MAXINT32) if seeds == (0, 0) else seeds
    return seeds if graph is None else seeds + (next(_NODES),)  # a graph's node is a kernel of its own


def function_permutations(sizes):
    """The orders successive runs of ``tf.random.shuffle`` give (one per size) as the first unseeded
    random op of a new function graph (op seed 0) under the global seed: what Keras's array adapter
    draws in a ``tf.data`` map for ``fit(shuffle=True)`` (the kernel new per iterator: each epoch the
    same order) or ``shuffle="batch"`` (one kernel for an epoch's batches). ``None`` without a global
    seed (TensorFlow's orders are then random)."""
    if _SEEDS["global"] is None:
        return None
    seeds = (int(_SEEDS["global"]) % _MAXINT32, 0)
    seeds = (0, _MAXINT32) if seeds == (0, 0) else seeds
    orders, skip = [], 0
    for size in sizes:
        orders.append(samplers.permutation(seeds[0], (skip, seeds[1]), size) if size > 1 else np.arange(size))
        skip += (size + 2) // 4 if size > 1 else 0
    return orders


@public("compat.v1.get_seed", "compat.v1.random.get_seed")
def get_seed(op_seed):
    """``(global seed, op seed)`` for an op — ``(None, None)`` when neither is set."""
    return (seed_pair(op_seed) or (None, None))[:2]


def kernel_stream(op_type, seed, dtype, n, blocks=None):
    """The kernel's key and counter for ``n`` outputs, then its stream moved past them (256
    blocks each, or the ``blocks`` the kernel reserves)."""
    if seed is None:
        key, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        return key, (0, seed2)
    cache = (op_type, seed, dtype)
    skip = _SEEDS["skips"].get(cache, 0)
    _SEEDS["skips"][cache] = skip + (n * 256 if blocks is None else blocks)
    return seed[0] & (2**64 - 1), (skip, seed[1] & (2**64 - 1))


def kernel_state(op_type, seed, attrs, make):
    """State a cached kernel keeps between calls (a learned sampler's counts), ``make()`` the
    first time; dropped with the kernels' streams by ``set_seed`` (TensorFlow clears its kernel
    cache). Unseeded kernels are new every call."""
    if seed is None:
        return make()
    cache = ("state", op_type, seed, attrs)
    if cache not in _SEEDS["skips"]:
        _SEEDS["skips"][cache] = make()
    return _SEEDS["skips"][cache]


def _kernel(op_type, draw):
    def kernel(xp, shape=(), dtype="float32", seed=None, **bounds):
        np_dtype = dtypes.as_dtype(dtype).np
        n = int(np.prod(tuple(shape), dtype=np.int64))
        key, counter = kernel_stream(op_type, seed, dtype, n)
        values = draw(key, counter, n, np_dtype, **bounds)
        return xp.asarray(np.asarray(values, np_dtype).reshape(tuple(shape)))
    return kernel


def _uniform_values(key, counter, n, dtype, minval=0.0, maxval=1.0):
    return philox.uniform(key, counter, n, dtype)


def _int_values(key, counter, n, dtype, minval=0, maxval=1):
    return philox.uniform_int(key, counter, n, int(minval), int(maxval), dtype)


def _shuffle(xp, x, seed=None, T=None):
    if x.ndim == 0 or x.size <= 1 or x.shape[0] <= 1:
        return x
    key, counter = kernel_stream("RandomShuffle", seed, T, 0, blocks=(x.shape[0] + 2) // 4)
    return x[xp.asarray(samplers.permutation(key, counter, x.shape[0]))]


def _multinomial(xp, logits, num_samples, seed=None, output_dtype="int64"):
    logits, n = on_host(xp, logits), int(on_host(xp, num_samples))
    samplers.check_multinomial(logits, n)
    if logits.shape[0] * n == 0:
        return xp.zeros((logits.shape[0], n), dtypes.as_dtype(output_dtype).np)
    reserve = logits.shape[0] * ((n + 3) // 4 * 4) * 2 * 256
    key, counter = kernel_stream("Multinomial", seed, (logits.dtype.name, output_dtype), 0, blocks=reserve)
    return xp.asarray(samplers.multinomial(key, counter, logits, n, samplers.threads()).astype(dtypes.as_dtype(output_dtype).np))


def _gamma(xp, alpha, shape=(), seed=None):
    alpha = on_host(xp, alpha)
    per = int(np.prod(shape, dtype=np.int64))
    out_shape = tuple(shape) + alpha.shape
    if per == 0 or alpha.size == 0:
        return xp.zeros(out_shape, alpha.dtype)
    key, counter = kernel_stream("RandomGamma", seed, alpha.dtype.name, per * alpha.size)
    values = samplers.gamma(key, counter, alpha, per, exp_log1p=False)
    return xp.asarray(values.astype(alpha.dtype).reshape(out_shape))


def _poisson(xp, rate, shape=(), seed=None, dtype="float32"):
    rate, np_dtype = on_host(xp, rate), dtypes.as_dtype(dtype).np
    per = int(np.prod(shape, dtype=np.int64))
    out_shape = tuple(shape) + rate.shape
    if per == 0 or rate.size == 0:
        return xp.zeros(out_shape, np_dtype)
    key, counter = kernel_stream("RandomPoissonV2", seed, (rate.dtype.name, dtype), per * rate.size)
    values = samplers.poisson(key, counter, rate, per, samplers.highest_of(np_dtype))
    return xp.asarray(values.astype(np_dtype).reshape(out_shape))


_SHAPE = {"shape": "shape"}  # TensorFlow's input: in a graph a Const, or a tensor known when it runs (tf.shape(x))
op("RandomUniform", _kernel("RandomUniform", _uniform_values), dtypes.FLOATS, shape=shapes.random,
   host_args=_SHAPE, stateful=True)
op("RandomStandardNormal", _kernel("RandomStandardNormal", lambda k, c, n, t: philox.normal(k, c, n, t)),
   dtypes.FLOATS, shape=shapes.random, host_args=_SHAPE, stateful=True)
op("TruncatedNormal", _kernel("TruncatedNormal", lambda k, c, n, t: philox.truncated_normal(k, c, n, t)),
   dtypes.FLOATS, shape=shapes.random, host_args=_SHAPE, stateful=True)
op("RandomUniformInt", _kernel("RandomUniformInt", _int_values), dtypes.INTEGERS, shape=shapes.random,
   host_args=_SHAPE, stateful=True)
op("RandomShuffle", _shuffle, None, devices=(CPU,), shape=shapes.same, stateful=True)
op("Multinomial", _multinomial, dtypes.FLOATS, shape=lambda n, s, a, d: (dtypes.as_dtype(a["output_dtype"]),
                                                                        (s[0][0] if s[0] else None, None)),
   host_args={"num_samples": "num_samples"}, stateful=True, mixed_dtypes=True)
op("RandomGamma", _gamma, dtypes.FLOATS, shape=lambda n, s, a, d: (d, tuple(a["shape"]) + tuple(s[0] or ())),
   host_args=("shape",), stateful=True, devices=(CPU,))
op("RandomPoissonV2", _poisson, None, shape=lambda n, s, a, d: (dtypes.as_dtype(a["dtype"]),
                                                               tuple(a["shape"]) + tuple(s[0] or ())),
   host_args=("shape",), stateful=True, mixed_dtypes=True, devices=(CPU,))


@public("random.uniform", "compat.v1.random_uniform")
def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    from ..math.math_ops import add, multiply, subtract
    from ...runtime.values import constant

    dt = dtypes.as_dtype(dtype)
    shape = packed(shape)
    dims = shape if symbolic(shape) else check_dims(host_arg(shape, slow_list=False), "RandomUniform")
    if dt.is_integer and maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
    if not context().eager and (symbolic(dims) or not any(isinstance(v, Tensor) for v in (minval, maxval))):
        from . import random_graph

        bounds = {"minval": int(minval), "maxval": int(maxval)} if dt.is_integer else {}
        return random_graph.uniform(dims, minval, 1 if maxval is None else maxval, dt,
                                    dict(shape=dims, **bounds, dtype=dt.name, seed=seed_pair(seed)), name)
    if dt.is_integer:
        low, high = host_arg(minval, dt)[()], host_arg(maxval, dt)[()]
        return execute("RandomUniformInt", (), {"shape": dims, "minval": int(low), "maxval": int(high),
                                                "dtype": dt.name, "seed": seed_pair(seed)}, name=name, dtype=dt)
    zero = isinstance(minval, int) and minval == 0
    one = maxval is None or (isinstance(maxval, int) and maxval == 1)
    low = None if zero and one else constant(minval, dt)
    high = None if zero and one else constant(1 if maxval is None else maxval, dt)
    rnd = execute("RandomUniform", (), {"shape": dims, "dtype": dt.name, "seed": seed_pair(seed)}, name=name, dtype=dt)
    if zero:  # TensorFlow scales only when asked to
        return rnd if one else multiply(rnd, high)
    return add(multiply(rnd, subtract(high, low)), low)


def _scaled(op_type, shape, mean, stddev, dtype, seed, name):
    from ..math.math_ops import add, multiply
    from ...runtime.values import constant

    dt = dtypes.as_dtype(dtype)
    shape = packed(shape)
    dims = shape if symbolic(shape) else check_dims(host_arg(shape), op_type)
    if not context().eager and (symbolic(dims) or not any(isinstance(v, Tensor) for v in (mean, stddev))):
        from . import random_graph

        default = "random_normal" if op_type == "RandomStandardNormal" else "truncated_normal"
        attrs = {"shape": dims, "dtype": dt.name, "seed": seed_pair(seed)}
        return random_graph.scaled(op_type, default, dims, mean, stddev, dt, attrs, name)
    mean_t, std_t = constant(mean, dt), constant(stddev, dt)
    rnd = execute(op_type, (), {"shape": dims, "dtype": dt.name, "seed": seed_pair(seed)}, name=name, dtype=dt)
    return add(multiply(rnd, std_t), mean_t)


@public("random.normal", "compat.v1.random_normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _scaled("RandomStandardNormal", shape, mean, stddev, dtype, seed, name)


@public("random.truncated_normal", "compat.v1.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _scaled("TruncatedNormal", shape, mean, stddev, dtype, seed, name)


@public("random.shuffle", "compat.v1.random_shuffle")
def shuffle(value, seed=None, name=None):
    from ..declare import as_tensor

    x = as_tensor(value)
    return execute("RandomShuffle", (x,), {"seed": seed_pair(seed), "T": x.dtype.name}, name=name)


@public("random.categorical")
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    from ..declare import as_tensor, op_scope

    if not context().eager:  # TensorFlow's scope around the op: categorical/Multinomial, …/num_samples
        with op_scope("categorical", name):
            return _categorical(as_tensor(logits, name="logits"), num_samples, dtype, seed, None)
    return _categorical(as_tensor(logits), num_samples, dtype, seed, name)


def _categorical(logits, num_samples, dtype, seed, name):
    dt = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    samplers.check_output_dtype(dt)
    n = host_arg(num_samples, slow_list=False)
    return execute("Multinomial", (logits,), {"num_samples": n, "seed": seed_pair(seed), "output_dtype": dt.name},
                   name=name)


@public("compat.v1.multinomial", "compat.v1.random.multinomial")
def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    return categorical(logits, num_samples, output_dtype, seed, name)


@public("random.gamma", "compat.v1.random_gamma")
def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    from ..array.array_ops import broadcast_to
    from ..array.manip_ops import broadcast_dynamic_shape
    from ..math.math_ops import divide, maximum
    from .stateless_random_ops import as_tensor_of
    from ..array.array_ops import shape as shape_of

    dt = dtypes.as_dtype(dtype)
    dims = check_dims(host_arg(shape), "RandomGamma")
    alpha, beta = as_tensor_of(alpha, dt), as_tensor_of(1 if beta is None else beta, dt)
    alpha = broadcast_to(alpha, broadcast_dynamic_shape(shape_of(alpha), shape_of(beta)))
    rnd = execute("RandomGamma", (alpha,), {"shape": dims, "seed": seed_pair(seed)}, name=name)
    return maximum(np.finfo(dt.np).tiny, divide(rnd, beta))


@public("random.poisson")
def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    from ..declare import as_tensor

    dims = check_dims(host_arg(shape), "RandomPoissonV2")
    rate = as_tensor(lam)
    dt = dtypes.as_dtype(dtype)
    return execute("RandomPoissonV2", (rate,), {"shape": dims, "seed": seed_pair(seed), "dtype": dt.name}, name=name)


@public("compat.v1.random_poisson", "compat.v1.random.poisson")
def poisson_v1(lam, shape, dtype=dtypes.float32, seed=None, name=None):
    """TensorFlow 1's ``random_poisson``: the rate first."""
    return poisson(shape, lam, dtype, seed, name)
