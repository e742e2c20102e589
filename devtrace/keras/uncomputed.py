"""Keras under ``--compute none``: the values Keras reads back on the host (a metric's result, the
loss and predictions a ``MirroredStrategy`` step gathers) are not computed; the constants a
computing run makes of them are still made — placed, traced and accounted alike — without values."""

from __future__ import annotations

from ..runtime import dtypes
from ..runtime.eager.uncomputed import constant


class HostValue:
    """A value Keras would hold on the host (a float, a NumPy array), not computed: converting it
    to a tensor makes the constant a computing run makes of the value."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtypes.as_dtype(dtype)

    def __tf_tensor__(self, dtype=None, name=None):
        return constant(self.shape, dtype or self.dtype, name)
