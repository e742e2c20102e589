"""``--compute none``'s eager constants of values that were not computed: where a computing run
makes a constant from a value it computed on the host (an eager gradient assembled with NumPy,
Keras's metric results), the same constant is made — placed, traced and accounted alike — with
an :class:`~devtrace.runtime.compute_mode.Uncomputed` value."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..compute_mode import Uncomputed
from .executor import execute_const


def computed(tensor) -> bool:
    """Whether an eager tensor holds a value (always, but under ``--compute none``)."""
    return type(tensor._value) is not Uncomputed


def constant(shape, dtype, name=None):
    """The eager constant of a value that was not computed."""
    dtype = dtypes.as_dtype(dtype)
    return execute_const(Uncomputed(tuple(int(d) for d in shape), np.dtype(dtype.np), "_EagerConst"), dtype, name)
