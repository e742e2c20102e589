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
    if maxval is None:
        maxval = 1
    return execute("RandomUniform", (), {"shape": check_dims(host_arg(shape), "RandomUniform"), "minval": minval,
                                         "maxval": maxval, "dtype": dt.name, "seed": seed}, name=name, dtype=dt)
