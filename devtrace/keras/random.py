"""``keras.random`` as Keras 3's TensorFlow backend draws: every draw is one of TensorFlow's
stateless random ops with a seed from ``draw_seed`` — an int ``s`` gives ``[s, 0]``; a
``SeedGenerator`` gives its state (an int64 ``[seed, counter]`` variable) and steps the counter;
no seed uses the global generator, stepped as Keras steps it (``(state + 1) * 5387 % 933199``) —
cast to int32 by ``floormod`` (Keras's ``_cast_seed``). An int seed gives Keras's values."""

from __future__ import annotations

import random as _python_random

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from .naming import snake, unique
from .variables import KerasVariable

_GLOBAL: list = []


class SeedGenerator:
    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        if name is None:  # Keras's auto_name: counted with the layers' names, from 0 again after clear_session
            name = unique(snake(type(self).__name__))
        self.name, self._initial_seed = name, seed
        if seed is None:
            seed = make_default_seed()
        if not isinstance(seed, int):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        with tf.name_scope(self.name):
            self.state = KerasVariable(tf.constant([seed, 0], tf.int64), trainable=False, name="seed_generator_state")

    def next(self, ordered=True):
        value = self.state.read_value() * 1
        if ordered:
            self.state.assign(self.state + tf.constant([0, 1], tf.int64))
        else:
            self.state.assign((self.state + 1) * 5387 % 933199)
        return value

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}


def make_default_seed():
    return _python_random.randint(1, int(1e9))


def draw_seed(seed):
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if isinstance(seed, int) and not isinstance(seed, bool):
        return tf.constant([seed, 0], tf.int64)
    if seed is None:
        if not _GLOBAL:
            _GLOBAL.append(SeedGenerator())
        return _GLOBAL[0].next(ordered=False)
    raise ValueError(f"Argument `seed` must be either an integer or an instance of `SeedGenerator`. Received: "
                     f"seed={seed} (of type {type(seed)})")


def _seed(seed):
    return tf.cast(tf.math.floormod(draw_seed(seed), 2147483646), tf.int32)


def _shape(shape):
    return [shape] if isinstance(shape, int) else list(shape)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return tf.random.stateless_normal(_shape(shape), _seed(seed), mean=mean, stddev=stddev, dtype=dtype or "float32")


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    dtype = dtype or "float32"
    return tf.random.stateless_uniform(_shape(shape), _seed(seed), minval=tf.cast(minval, dtype),
                                       maxval=tf.cast(maxval, dtype), dtype=dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return tf.random.stateless_truncated_normal(_shape(shape), _seed(seed), mean=mean, stddev=stddev,
                                                dtype=dtype or "float32")


def categorical(logits, num_samples, dtype="int32", seed=None):
    return tf.cast(tf.random.stateless_categorical(logits, num_samples, seed=_seed(seed)), dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    inner = dtype if tf.as_dtype(dtype).name in ("int32", "int64") else "int64"
    out = tf.random.stateless_uniform(_shape(shape), _seed(seed), minval=minval, maxval=maxval, dtype=inner)
    return tf.cast(out, dtype)


def dropout(inputs, rate, noise_shape=None, seed=None):
    x = tf.convert_to_tensor(inputs)
    if rate == 1.0:
        return tf.zeros_like(x)
    if rate == 0.0:
        return x
    seed = _seed(seed)
    if noise_shape is not None:
        noise_shape = [x.shape[i] if d is None else d for i, d in enumerate(noise_shape)]
    return tf.nn.experimental.stateless_dropout(x, rate=rate, noise_shape=noise_shape, seed=seed)


def shuffle(x, axis=0, seed=None):
    x = tf.convert_to_tensor(x)
    indices = tf.argsort(tf.random.stateless_uniform([x.shape[axis]], seed=_seed(seed)))
    return tf.gather(x, indices, axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    return tf.random.stateless_gamma(_shape(shape), alpha=alpha, dtype=dtype or "float32", seed=_seed(seed))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    return tf.random.stateless_binomial(shape=_shape(shape), seed=_seed(seed), counts=counts, probs=probabilities,
                                        output_dtype=dtype or "float32")


def beta(shape, alpha, beta, dtype=None, seed=None):
    dtype = dtype or "float32"
    seed_1 = _seed(seed)
    seed_2 = seed_1 + 12
    alpha = tf.broadcast_to(tf.convert_to_tensor(alpha, dtype=dtype), _shape(shape))
    beta = tf.broadcast_to(tf.convert_to_tensor(beta, dtype=dtype), _shape(shape))
    a = tf.random.stateless_gamma(_shape(shape), alpha=alpha, seed=seed_1, dtype=dtype)
    b = tf.random.stateless_gamma(_shape(shape), alpha=beta, seed=seed_2, dtype=dtype)
    return a / (a + b)


__all__ = ["SeedGenerator", "beta", "binomial", "categorical", "dropout", "gamma", "normal", "randint", "shuffle",
           "truncated_normal", "uniform"]
__getattr__ = _missing("keras.random")
