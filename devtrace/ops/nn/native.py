"""The C loops of the nn kernels (``runtime/_fastpath_nn.c``): one pass where NumPy takes several.
Each kernel keeps its NumPy code, the reference the C loop is tested against bit for bit, for CuPy
arrays, other dtypes and a build without the C module."""

from __future__ import annotations

import numpy as np

from ...runtime import blas_threads
from ...runtime.native import FASTPATH

NATIVE = FASTPATH  # None: the NumPy code everywhere (tests set it so for the reference)


def loop(name, xp, dtype):
    """The C loop ``name`` for host arrays of ``dtype``, or None (CuPy, other dtypes, no C module)."""
    if xp is not np or dtype not in (np.float32, np.float64):
        return None
    return getattr(NATIVE, name, None)


def threads(elements: int) -> int:
    """Threads a C loop over ``elements`` array elements splits over (two on idle cores for a big one:
    ``runtime/blas_threads.loop_threads``); the values are the same either way."""
    return blas_threads.loop_threads(elements)
