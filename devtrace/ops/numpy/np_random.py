"""tf.experimental.numpy.random: draws from devtrace's random ops (tnp's defaults: float64)."""

from __future__ import annotations

from .np_array_ops import tf
from .np_dtypes import default_float, tf_dtype


def seed(s):
    tf("random.set_seed")(s)


def _shape(size):
    if size is None:
        return []
    return [int(size)] if isinstance(size, int) else [int(s) for s in size]


def uniform(low=0.0, high=1.0, size=None):
    return tf("random.uniform")(_shape(size), low, high, dtype=tf_dtype(default_float()))


def random(size=None):
    return uniform(0.0, 1.0, size)


def rand(*size):
    return uniform(0.0, 1.0, list(size))


def standard_normal(size=None):
    return tf("random.normal")(_shape(size), dtype=tf_dtype(default_float()))


def randn(*args):
    return standard_normal(list(args))


def randint(low, high=None, size=None, dtype="int64"):
    if high is None:
        low, high = 0, low
    return tf("random.uniform")(_shape(size), low, high, dtype=tf_dtype(dtype))


def poisson(lam=1.0, size=None):
    return tf("random.poisson")(_shape(size), lam, dtype="int64")
