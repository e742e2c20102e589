"""Keras initializers, drawn as Keras 3 draws them: an unseeded initializer takes its seed from
Python's ``random`` module when it is made (``randint(1, 10**9)``, so ``set_random_seed`` fixes
it), and every call runs TensorFlow's stateless random ops with the seed ``[seed, 0]``
(``StatelessRandomGetKeyCounter``, ``StatelessRandomUniformV2``, then ``Sub``, ``Mul``, ``AddV2``
as the guide's log shows) — the values equal Keras's."""

from __future__ import annotations

import copy

from devtrace.util.namespace import missing as _missing

import math
import random

import numpy as np

import devtrace as tf
from . import identifiers, keywords
from .serializable import Configurable


class Initializer(Configurable):
    def __call__(self, shape, dtype="float32"):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return self.__class__.from_config(self.get_config())


class Constant(Initializer):
    """``tf.keras.initializers.Constant(value)``: every element ``value``."""

    def __init__(self, value=0.0):
        self.value = value

    def get_config(self):
        return {"value": self.value}

    def __call__(self, shape, dtype="float32"):
        return tf.fill(list(shape), tf.constant(self.value, dtype))


class Zeros(Constant):
    def __init__(self):
        super().__init__(0.0)

    def get_config(self):
        return {}

    def __call__(self, shape, dtype="float32"):
        return tf.zeros(list(shape), dtype)


class Ones(Constant):
    def __init__(self):
        super().__init__(1.0)

    def get_config(self):
        return {}

    def __call__(self, shape, dtype="float32"):
        return tf.ones(list(shape), dtype)


class _Random(Initializer):
    def __init__(self, seed=None):
        self._seed_arg = seed
        self.seed = seed if seed is not None else random.randint(1, int(1e9))  # Keras's make_default_seed

    def get_config(self):
        return {"seed": self._seed_arg}

    def _seed(self):
        return [(self.seed & 0xFFFFFFFF ^ 0x80000000) - 0x80000000, 0]  # draw_seed: int32 bits of [seed, 0]


class RandomUniform(_Random):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def get_config(self):
        return {"seed": self._seed_arg, "minval": self.minval, "maxval": self.maxval}

    def __call__(self, shape, dtype="float32"):
        return tf.random.stateless_uniform(list(shape), self._seed(), minval=self.minval, maxval=self.maxval,
                                           dtype=dtype)


class RandomNormal(_Random):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def get_config(self):
        return {"seed": self._seed_arg, "mean": self.mean, "stddev": self.stddev}

    def __call__(self, shape, dtype="float32"):
        return tf.random.stateless_normal(list(shape), self._seed(), mean=self.mean, stddev=self.stddev, dtype=dtype)


class TruncatedNormal(RandomNormal):
    def __call__(self, shape, dtype="float32"):
        return tf.random.stateless_truncated_normal(list(shape), self._seed(), mean=self.mean, stddev=self.stddev,
                                                    dtype=dtype)


def _fans(shape, input_axes=None, output_axes=None):
    if input_axes is not None and output_axes is not None:  # Keras 3.15's: an EinsumDense kernel's own axes
        return int(np.prod([shape[a] for a in input_axes])), int(np.prod([shape[a] for a in output_axes]))
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(_Random):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        super().__init__(seed)
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes

    def get_config(self):
        return {"seed": self._seed_arg, "scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "input_axes": self.input_axes, "output_axes": self.output_axes}

    def with_axes(self, input_axes, output_axes):
        """Keras's EinsumDense clone: the same seed, its fans over the kernel's input and output axes."""
        clone = copy.copy(self)
        clone.input_axes, clone.output_axes = list(input_axes), list(output_axes)
        return clone

    def __call__(self, shape, dtype="float32"):
        fan_in, fan_out = _fans(tuple(shape), self.input_axes, self.output_axes)
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
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "uniform", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._seed_arg, "input_axes": self.input_axes, "output_axes": self.output_axes}


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._seed_arg, "input_axes": self.input_axes, "output_axes": self.output_axes}


class HeUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "uniform", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._seed_arg, "input_axes": self.input_axes, "output_axes": self.output_axes}


class HeNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._seed_arg, "input_axes": self.input_axes, "output_axes": self.output_axes}


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "uniform", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._seed_arg, "input_axes": self.input_axes, "output_axes": self.output_axes}


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._seed_arg, "input_axes": self.input_axes, "output_axes": self.output_axes}


class Orthogonal(_Random):
    """Keras's: a normal draw of the flattened shape (rows at least columns), its QR's ``q`` with
    the signs of ``r``'s diagonal (``Qr``, ``MatrixDiagPartV3``, ``Sign``, ``Mul`` as TensorFlow's
    log shows), transposed back when rows were fewer, times ``gain``."""

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def get_config(self):
        return {"seed": self._seed_arg, "gain": self.gain}

    def __call__(self, shape, dtype="float32"):
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. Received: shape={shape} "
                             f"of rank {len(shape)}.")
        rows, cols = int(np.prod(shape[:-1])), int(shape[-1])
        a = tf.random.stateless_normal([max(rows, cols), min(rows, cols)], self._seed(), dtype=dtype)
        q, r = tf.linalg.qr(a)
        q = q * tf.math.sign(tf.linalg.diag_part(r))
        if rows < cols:
            q = tf.transpose(q)
        return self.gain * tf.reshape(q, list(shape))


class Identity(Initializer):
    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype="float32"):
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. Received: "
                             f"shape={shape} of rank {len(shape)}.")
        return self.gain * tf.eye(shape[0], shape[1], dtype=dtype)


def serialize(initializer):
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": initializer.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _CLASSES.get(name)
    if cls is None:
        raise ValueError(f"Could not interpret initializer identifier: {config}")
    return cls(**config.get("config", {}))


def get(identifier):
    """A new initializer for a name, class or config dict (an unseeded one draws its seed now), the
    object itself, or for an array or tensor an initializer giving it."""
    if hasattr(identifier, "shape") and hasattr(identifier, "dtype") and not callable(identifier):
        value = identifier

        def initialize_fn(shape, dtype=None):
            return tf.cast(tf.convert_to_tensor(value), dtype or "float32")
        return initialize_fn
    return identifiers.lookup("initializer", identifier, ALL_OBJECTS_DICT)


_CLASSES = {cls.__name__: cls for cls in (Constant, Zeros, Ones, RandomUniform, RandomNormal, TruncatedNormal,
                                          VarianceScaling, GlorotUniform, GlorotNormal, HeUniform, HeNormal,
                                          LecunUniform, LecunNormal, Orthogonal, Identity)}

# Keras 3's other names for the same classes
constant, zeros, ones, identity, orthogonal = Constant, Zeros, Ones, Identity, Orthogonal
random_normal, random_uniform, truncated_normal, variance_scaling = RandomNormal, RandomUniform, TruncatedNormal, \
    VarianceScaling
glorot_normal, glorot_uniform, he_normal, he_uniform, lecun_normal, lecun_uniform = GlorotNormal, GlorotUniform, \
    HeNormal, HeUniform, LecunNormal, LecunUniform
IdentityInitializer, OrthogonalInitializer = Identity, Orthogonal
ALL_OBJECTS_DICT = identifiers.table(Initializer, Constant, Identity, Ones, Zeros, GlorotNormal, GlorotUniform,
                                     HeNormal, HeUniform, LecunNormal, LecunUniform, Orthogonal, RandomNormal,
                                     RandomUniform, TruncatedNormal, VarianceScaling,
                                     aliases={"IdentityInitializer": Identity, "normal": RandomNormal, "one": Ones,
                                              "OrthogonalInitializer": Orthogonal, "uniform": RandomUniform,
                                              "zero": Zeros})

__getattr__ = _missing("keras.initializers")
