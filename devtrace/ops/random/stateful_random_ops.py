"""``tf.random.Generator``: a Philox state in a variable (``[counter_lo, counter_hi, key]``).
Each draw runs TensorFlow's ops: ``Prod`` of the shape, ``RngReadAndSkip`` (the state read,
its counter moved 256 blocks per output element), the state sliced into counter and key, then
the stateless op (``StatelessRandomNormalV2`` …) — TensorFlow's values for a seed. ThreeFry is
refused as TensorFlow's CPU kernels refuse it."""

from __future__ import annotations

import os

import numpy as np

from ... import hooks
from ...errors import UnimplementedError
from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.eager.variables import Variable
from ...runtime.graph.graph import init_scope
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..math import math_ops
from ..array.array_ops import cast, check_dims, concat, reshape, stack, zeros, zeros_like
from ..array.split_ops import unstack
from ..declare import as_tensor, host_arg, on_host, op, public
from ..math.reduction_ops import reduce_prod
from .stateless_random_ops import PHILOX, THREEFRY, algorithm_number, as_tensor_of, binomial_values

_SIZES = {PHILOX: 3, THREEFRY: 2}
_SKIP = 256  # blocks reserved per output element


def _alg(alg) -> int:
    value = algorithm_number(alg)
    if value is None:
        raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are philox for the Philox "
                         f"algorithm, threefry for the ThreeFry algorithm, and auto_select for auto-selection.")
    return value


def _advance(xp, state, lo: int, hi: int, blocks: int) -> None:
    """Move the state variable's counter (its buffer, in place) ``blocks`` on, carrying into the
    high word."""
    moved = lo + blocks
    words = [moved & (2**64 - 1), (hi + (moved >> 64)) & (2**64 - 1)]
    state[:2] = xp.asarray(np.asarray([w - 2**64 if w >= 2**63 else w for w in words], np.int64))


def _make_1d_state(size: int, seed):
    """A seed as the state TensorFlow makes of it, with its ops: an int's low 64-bit words
    first, a shorter list zero-padded in front."""
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        seed = [(seed >> (64 * i)) & (2**64 - 1) for i in range(size)]
    if isinstance(seed, (list, tuple)):
        seed = [int(w) - 2**64 if int(w) >= 2**63 else w for w in seed]
    state = reshape(cast(seed, dtypes.int64), [-1])[0:size]
    padding = zeros([int(math_ops.maximum(size - int(state.shape[0]), 0))], dtypes.int64)
    return concat([padding, state], axis=0)


def _read_and_skip(xp, state, alg, delta):
    """``RngReadAndSkip``: the state as it was; the variable's buffer (this input) moved on by
    ``delta`` outputs' 256 blocks each, carrying into the high counter word."""
    old = on_host(xp, state).copy()
    lo, hi = (int(v) & (2**64 - 1) for v in old[:2])
    _advance(xp, state, lo, hi, int(on_host(xp, delta)) * _SKIP)
    return xp.asarray(old)


def _stateful_binomial(xp, state, alg, counts, probs, shape=(), dtype="int32"):
    """``StatefulRandomBinomial``: draws as the stateless op's from the state's stream, which
    moves on by 200 (units of 256 blocks) per batch member per four samples."""
    if int(on_host(xp, alg)) != PHILOX:
        raise ValueError(f"Unsupported algorithm id: {int(on_host(xp, alg))}")
    counts, probs, old = on_host(xp, counts), on_host(xp, probs), on_host(xp, state).copy()
    lo, hi, key = (int(v) & (2**64 - 1) for v in old)
    batch = np.broadcast_shapes(counts.shape, probs.shape) if len(shape) >= max(counts.ndim, probs.ndim) else ()
    per = int(np.prod(shape[:len(shape) - len(batch)], dtype=np.int64))
    values = binomial_values(key, (lo, hi), counts, probs, shape, dtypes.as_dtype(dtype).np)
    _advance(xp, state, lo, hi, int(np.prod(batch, dtype=np.int64)) * 200 * (per + 3) // 4 * _SKIP)
    return xp.asarray(values)


op("RngReadAndSkip", _read_and_skip, {"int64"}, shape=lambda n, s, a, d: (dtypes.int64, (3,)), stateful=True,
   mixed_dtypes=True)
op("StatefulRandomBinomial", _stateful_binomial, None, devices=(CPU,), shape=lambda n, s, a, d: (dtypes.as_dtype(a["dtype"]),
                                                                                  tuple(a["shape"])),
   host_args=("shape",), stateful=True, mixed_dtypes=True)


@public("random.create_rng_state", "random.experimental.create_rng_state")
def create_rng_state(seed, alg):
    """The state ``Generator.from_seed`` starts from: the seed's 64-bit words, zero-padded."""
    return _make_1d_state(_SIZES[_alg(alg)], seed)


@public("random.Generator", "random.experimental.Generator")
class Generator:
    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state, alg = copy_from.state.read_value(), copy_from.algorithm
        elif state is None or alg is None:
            raise AssertionError()
        self._alg = _alg(alg)
        where = hooks.DISTRIBUTION[0]() if hooks.DISTRIBUTION else None
        self._strategy = where[0] if where else None  # its draws then differ per replica
        with init_scope():  # as TensorFlow's: a generator made while a tf.function traces is made eagerly, once
            value = as_tensor(state if not isinstance(state, (list, tuple)) else np.asarray(state, np.int64))
            _check_size(value.shape, self._alg)
            self._state = Variable(cast(value, dtypes.int64) if value.dtype != dtypes.int64 else value,
                                   name="StateVar", trainable=False)

    def _trackable_children(self):
        """What a ``tf.train.Checkpoint`` saves of a generator: its state variable."""
        return [("state", self._state)]

    @classmethod
    def from_seed(cls, seed, alg=None):
        number = _alg(alg if alg is not None else "philox")
        with init_scope():
            return cls(state=create_rng_state(seed, number), alg=number)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        number = _alg(alg if alg is not None else "philox")
        return cls.from_seed(int.from_bytes(os.urandom(8 * _SIZES[number]), "little"), number)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        return cls(state=list(np.asarray(counter, np.int64).reshape(-1)) + [int(key)], alg=alg)

    @property
    def state(self):
        return self._state

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self):
        return self._state[-1]

    def reset(self, state) -> None:
        self._state.assign(state)

    def reset_from_seed(self, seed) -> None:
        self._state.assign(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter) -> None:
        self._state.assign(np.asarray(list(np.asarray(counter, np.int64).reshape(-1)) + [int(key)], np.int64))

    def skip(self, delta):
        """``RngReadAndSkip``: the state before; the counter moved on by ``delta`` outputs."""
        if self._alg == THREEFRY:
            raise UnimplementedError(f"{{{{function_node __wrapped__RngReadAndSkip_device_{self._state.device}}}}} "
                                     f"Non-XLA devices don't support the ThreeFry algorithm. [Op:RngReadAndSkip] name: ",
                                     op="RngReadAndSkip")
        alg = constant(self._alg, dtypes.int32)
        delta = cast(delta, dtypes.uint64)
        state = self._state._local()
        return execute("RngReadAndSkip", (state._value, alg, delta), resource=state._handle, dtype=dtypes.int64)

    def _key_counter(self, shape):
        """TensorFlow's ``_prepare_key_counter``: the stream a draw of ``shape`` reads."""
        counter_key = self.skip(reduce_prod(shape))
        counter = _as_uint64(counter_key[:2])
        return self._replica_key(_as_uint64(counter_key[2:3])), counter

    def _replica_key(self, key):
        """TensorFlow's ``_preprocess_key``: in a replica of the generator's strategy, the key
        hashed with the replica id (a full-int draw keyed by the key, countered by ``[id, 0]``)."""
        where = hooks.DISTRIBUTION[0]() if self._strategy is not None and hooks.DISTRIBUTION else None
        if not where or where[1] is None:
            return key
        counter = cast(constant(np.asarray([where[1], 0], np.int32)), dtypes.uint64)
        return execute("StatelessRandomUniformFullIntV2", (key, counter, constant(self._alg, dtypes.int32)),
                       {"shape": (1,), "dtype": "uint64"}, dtype=dtypes.uint64)

    def _stateless(self, op_type, shape, dtype, extra=()):
        if isinstance(shape, Tensor):
            dims = tuple(int(d) for d in shape.numpy().reshape(-1))
        elif hasattr(shape, "_op"):
            raise NotImplementedError("devtrace does not implement tf.random.Generator draws of a shape computed "
                                      "in the graph yet")
        else:
            dims = tuple(int(d) for d in np.asarray(shape).reshape(-1))
            shape = constant(np.asarray(dims, np.int64), _shape_dtype(dims))
        key, counter = self._key_counter(shape)
        alg = constant(self._alg, dtypes.int32)
        return execute(op_type, (key, counter, alg, *extra), {"shape": check_dims(dims, op_type), "dtype": dtype.name},
                       dtype=dtype)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        mean, stddev = as_tensor_of(mean, dt), as_tensor_of(stddev, dt)
        rnd = self._stateless("StatelessRandomNormalV2", shape, dt)
        return math_ops.add(math_ops.multiply(rnd, stddev), mean, name=name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        mean, stddev = as_tensor_of(mean, dt), as_tensor_of(stddev, dt)
        rnd = self._stateless("StatelessTruncatedNormalV2", shape, dt)
        return math_ops.add(math_ops.multiply(rnd, stddev), mean, name=name)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        if dt.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dt}, minval and maxval must be both `None` or both non-`None`; "
                                 f"got minval={minval} and maxval={maxval}")
            if minval is None:
                return self.uniform_full_int(shape, dt, name)
        low, high = as_tensor_of(minval, dt), as_tensor_of(1 if maxval is None else maxval, dt)
        if dt.is_integer:
            return self._stateless("StatelessRandomUniformIntV2", shape, dt, (low, high))
        rnd = self._stateless("StatelessRandomUniformV2", shape, dt)
        return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(high, low)), low, name=name)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        return self._stateless("StatelessRandomUniformFullIntV2", shape, dtypes.as_dtype(dtype))

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        _eager_only()
        dt = dtypes.as_dtype(dtype)
        counts, probs = as_tensor(counts), as_tensor(probs)
        dims = check_dims(host_arg(shape), "StatefulRandomBinomial")
        state = self._state._local()
        return execute("StatefulRandomBinomial", (state._value, constant(self._alg, dtypes.int64), counts, probs),
                       {"shape": dims, "dtype": dt.name}, resource=state._handle, dtype=dt, name=name)

    def make_seeds(self, count=1):
        keys = self.uniform_full_int([count], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1) -> list:
        keys = self.uniform_full_int([count], dtypes.int64)
        padding = [constant(0, dtypes.int64)] * (_SIZES[self._alg] - 1)
        return [Generator(state=stack(padding + [k]), alg=self._alg) for k in unstack(keys, num=count)]


def _eager_only():
    if not context().eager:
        raise NotImplementedError("devtrace does not implement tf.random.Generator.binomial inside tf.function or "
                                  "a graph yet")


def _shape_dtype(shape):
    """``_shape_tensor``'s dtype: int64 when a dimension needs it."""
    return dtypes.int64 if any(abs(int(d)) >= 2**31 for d in np.asarray(shape).reshape(-1)) else dtypes.int32


def _check_size(shape, alg):
    size = _SIZES[alg]
    if tuple(shape) != (size,):
        raise ValueError(f"Shapes {shape} and [{size}] are incompatible")


def _as_uint64(words):
    """The state's int64 words as the stateless ops' uint64 key and counter (``Bitcast``)."""
    return execute("Bitcast", (words,), {"type": "uint64"})


_GLOBAL: list = []


@public("random.get_global_generator", "random.experimental.get_global_generator")
def get_global_generator() -> Generator:
    if not _GLOBAL:
        _GLOBAL.append(Generator.from_non_deterministic_state())
    return _GLOBAL[0]


@public("random.set_global_generator", "random.experimental.set_global_generator")
def set_global_generator(generator: Generator) -> None:
    _GLOBAL[:] = [generator]
