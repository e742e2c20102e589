"""Keras under ``--compute none``: the values Keras reads back on the host (a metric's result, the
loss and predictions a ``MirroredStrategy`` step gathers) are not computed; the constants a
computing run makes of them are still made — placed, traced and accounted alike — without values."""

from __future__ import annotations

import numpy as np

from ..runtime import dtypes
from ..runtime.compute_mode import Uncomputed
from ..runtime.eager.executor import execute_const


def constant(shape, dtype, name=None):
    """The eager constant of a value that was not computed."""
    dtype = dtypes.as_dtype(dtype)
    return execute_const(Uncomputed(tuple(int(d) for d in shape), np.dtype(dtype.np), "_EagerConst"), dtype, name)


class HostValue:
    """A value Keras would hold on the host (a float, a NumPy array), not computed: converting it
    to a tensor makes the constant a computing run makes of the value."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtypes.as_dtype(dtype)

    def __tf_tensor__(self, dtype=None, name=None):
        return constant(self.shape, dtype or self.dtype, name)
