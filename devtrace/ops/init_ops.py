"""TensorFlow 2's initializers (``tf.zeros_initializer``, ``tf.ones_initializer``,
``tf.constant_initializer``, ``tf.random_uniform_initializer``, ``tf.random_normal_initializer``):
objects that, called with a shape and a dtype, make the tensor through the ops (``Fill``,
``Const``, a random op), so what they make is placed and logged like any other op's output.

A seeded random initializer draws from the stateless ops with the seed ``[seed, 0]`` (the same
numbers every call, as TensorFlow's); an unseeded one from the stateful ops.
"""

from __future__ import annotations

_PARTITION_KWARGS = ["partition_shape", "partition_offset"]


def _tf():
    import devtrace

    return devtrace


class Initializer:
    """The base class: ``__call__(shape, dtype)``, ``get_config()``, ``from_config(config)``."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)

    def _check_kwargs(self, kwargs, partitions=True):
        for name in kwargs:
            if name not in _PARTITION_KWARGS:
                raise TypeError(f"Keyword argument should be one of {_PARTITION_KWARGS}. Received: {name}")
            if not partitions:
                raise ValueError(f"{type(self).__name__} initializer doesn't support partition-related arguments")
        return kwargs.get("partition_shape")


def _numeric_or_bool(dtype):
    dtype = _tf().as_dtype(dtype)
    if dtype.name in ("string", "resource", "variant") or dtype.name.startswith(("qint", "quint")):
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype}.")
    return dtype


class Zeros(Initializer):
    """Tensors of zeros."""

    def __call__(self, shape, dtype=None, **kwargs):
        shape = self._check_kwargs(kwargs) or shape
        return _tf().zeros(shape, _numeric_or_bool(_tf().float32 if dtype is None else dtype))


class Ones(Initializer):
    """Tensors of ones."""

    def __call__(self, shape, dtype=None, **kwargs):
        shape = self._check_kwargs(kwargs) or shape
        return _tf().ones(shape, _numeric_or_bool(_tf().float32 if dtype is None else dtype))


class Constant(Initializer):
    """Tensors of ``value`` (a scalar, filled in; or as many values as the shape holds)."""

    def __init__(self, value=0, support_partition=False):
        import numpy as np

        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. Expected Python scalar, "
                            "list or tuple of values, or numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        self._check_kwargs(kwargs, partitions=self.support_partition)
        return _tf().constant(self.value, dtype=None if dtype is None else _tf().as_dtype(dtype), shape=shape)

    def get_config(self):
        return {"value": self.value}


class RandomUniform(Initializer):
    """Uniform numbers in ``[minval, maxval)``."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None, **kwargs):
        shape = self._check_kwargs(kwargs) or shape
        dtype = _tf().as_dtype(_tf().float32 if dtype is None else dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype}.")
        random = _tf().random
        if self.seed is not None:
            return random.stateless_uniform(shape, [self.seed, 0], minval=self.minval, maxval=self.maxval, dtype=dtype)
        return random.uniform(shape, minval=self.minval, maxval=self.maxval, dtype=dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    """Normal numbers of ``mean`` and ``stddev``."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None, **kwargs):
        shape = self._check_kwargs(kwargs) or shape
        dtype = _tf().as_dtype(_tf().float32 if dtype is None else dtype)
        if not dtype.is_floating:
            raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}.")
        random = _tf().random
        if self.seed is not None:
            return random.stateless_normal(shape, [self.seed, 0], mean=self.mean, stddev=self.stddev, dtype=dtype)
        return random.normal(shape, mean=self.mean, stddev=self.stddev, dtype=dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}
