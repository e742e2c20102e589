"""Keras initializers, drawn as Keras 3 draws them: an unseeded initializer takes its seed from
Python's ``random`` module when it is made (``randint(1, 10**9)``, so ``set_random_seed`` fixes
it), and every call runs TensorFlow's stateless random ops with the seed ``[seed, 0]``
(``StatelessRandomGetKeyCounter``, ``StatelessRandomUniformV2``, then ``Sub``, ``Mul``, ``AddV2``
as the guide's log shows) — the values equal Keras's."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import math
import random

import numpy as np

import devtrace as tf
from .serializable import Configurable


class Initializer(Configurable):
    def __call__(self, shape, dtype="float32"):
        raise NotImplementedError


class Constant(Initializer):
    """``tf.keras.initializers.Constant(value)``: every element ``value``."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype="float32"):
        return tf.fill(list(shape), tf.constant(self.value, dtype))


class Zeros(Constant):
    def __init__(self):
        super().__init__(0.0)

    def __call__(self, shape, dtype="float32"):
        return tf.zeros(list(shape), dtype)


class Ones(Constant):
    def __init__(self):
        super().__init__(1.0)

    def __call__(self, shape, dtype="float32"):
        return tf.ones(list(shape), dtype)


class _Random(Initializer):
    def __init__(self, seed=None):
        self.seed = seed if seed is not None else random.randint(1, int(1e9))  # Keras's make_default_seed

    def _seed(self):
        return [(self.seed & 0xFFFFFFFF ^ 0x80000000) - 0x80000000, 0]  # draw_seed: int32 bits of [seed, 0]


class RandomUniform(_Random):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype="float32"):
        return tf.random.stateless_uniform(list(shape), self._seed(), minval=self.minval, maxval=self.maxval,
                                           dtype=dtype)


class RandomNormal(_Random):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype="float32"):
        return tf.random.stateless_normal(list(shape), self._seed(), mean=self.mean, stddev=self.stddev, dtype=dtype)


class TruncatedNormal(RandomNormal):
    def __call__(self, shape, dtype="float32"):
        return tf.random.stateless_truncated_normal(list(shape), self._seed(), mean=self.mean, stddev=self.stddev,
                                                    dtype=dtype)


def _fans(shape):
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(_Random):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        super().__init__(seed)
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape, dtype="float32"):
        fan_in, fan_out = _fans(tuple(shape))
        n = {"fan_in": fan_in, "fan_out": fan_out}.get(self.mode, (fan_in + fan_out) / 2.0)
        scale = self.scale / max(1.0, n)
        seed, shape = self._seed(), list(shape)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978  # the truncated distribution's spread
            return tf.random.stateless_truncated_normal(shape, seed, stddev=stddev, dtype=dtype)
        if self.distribution == "untruncated_normal":
            return tf.random.stateless_normal(shape, seed, stddev=math.sqrt(scale), dtype=dtype)
        limit = math.sqrt(3.0 * scale)
        return tf.random.stateless_uniform(shape, seed, minval=-limit, maxval=limit, dtype=dtype)


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "uniform", seed)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "uniform", seed)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


_BY_NAME = {"glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_uniform": HeUniform,
            "he_normal": HeNormal, "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal,
            "random_normal": RandomNormal, "random_uniform": RandomUniform, "uniform": RandomUniform,
            "normal": RandomNormal, "truncated_normal": TruncatedNormal, "zeros": Zeros, "ones": Ones,
            "constant": Constant}


def get(identifier):
    """A new initializer for a name or class (an unseeded one draws its seed now), or the object."""
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        raise ValueError(f"Could not interpret initializer identifier: {identifier}")
    return _BY_NAME[identifier]()


__getattr__ = _missing("keras.initializers")
