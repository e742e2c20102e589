"""``tf.nn.experimental.stateless_dropout`` and ``general_dropout``: ``tf.nn.dropout`` with the
random numbers from a stateless op (a seed) or from any sampler (``tf.random.Generator.uniform``).
As TensorFlow's: the kept values are scaled by ``1 / (1 - rate)`` (``Mul``) and the dropped ones
replaced by zeros (``SelectV2``) where the uniform numbers are below ``rate``."""

from __future__ import annotations

import numbers

from ..array import array_ops
from ..math import math_ops
from ..random import stateless_random_ops
from ..declare import as_tensor, public


def _dropout(x, rate, noise_shape, sampler):
    if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    x = as_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype={x.dtype}")
    if isinstance(rate, numbers.Real) and rate == 0:
        return x
    shape = list(x.shape) if noise_shape is None else [d if n is None else n for d, n in
                                                         zip(x.shape, noise_shape)]
    random = sampler(shape=shape, dtype=x.dtype)
    kept = math_ops.multiply(x, 1 / (1 - rate))
    return array_ops.where(random >= rate, kept, array_ops.zeros_like(x))


@public("nn.experimental.stateless_dropout")
def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    def sampler(shape, dtype):
        return stateless_random_ops.stateless_uniform(shape, seed=seed, dtype=dtype, alg=rng_alg or "auto_select")

    return _dropout(x, rate, noise_shape, sampler)


@public("nn.experimental.general_dropout")
def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    return _dropout(x, rate, noise_shape, uniform_sampler)
