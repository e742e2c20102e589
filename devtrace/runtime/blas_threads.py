"""Matrix products on the host with as many BLAS threads as their size pays for.

OpenBLAS (NumPy's) splits every product above a small size across all its threads, which spin
while they wait; a training step's products are small (a batch of 32 through a 784x128 layer), and
on a CPU shared with other work the spinning threads take the cores the program needs: such a
product runs several times slower on two threads than on one. TensorFlow's CPU kernels (Eigen)
size their parallelism by the product's cost instead. So do these: below ``SERIAL_BELOW``
multiply-adds, a product runs on one thread and the library's setting is put back after it, so
nothing else in the process (the program's own NumPy) sees a change. Without OpenBLAS (another
BLAS, CuPy) a product simply runs.
"""

from __future__ import annotations

import ctypes
import glob
import os

import numpy as np

SERIAL_BELOW = 1 << 27  # multiply-adds under which one thread is faster
SERIAL_FROM = 1 << 16  # and under which OpenBLAS uses one thread anyway


def _openblas():
    """``(set_num_threads, get_num_threads)`` of the OpenBLAS NumPy uses, or None."""
    paths = []
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.rsplit("/", 1)[-1].lower()})
    except OSError:
        pass
    if not paths:  # not Linux: NumPy's wheels keep it next to the package
        base = os.path.dirname(os.path.dirname(np.__file__))
        paths = glob.glob(os.path.join(base, "numpy.libs", "*openblas*")) + \
            glob.glob(os.path.join(base, "numpy", ".dylibs", "*openblas*"))
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in ("scipy_openblas", "openblas"):
            for suffix in ("64_", ""):
                setter = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                getter = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                if setter is not None and getter is not None:
                    setter.argtypes, setter.restype, getter.restype = [ctypes.c_int], None, ctypes.c_int
                    return setter, getter
    return None


_FOUND = _openblas() if os.environ.get("DEVTRACE_BLAS_THREADS", "auto") == "auto" else None
_set, _get = _FOUND or (None, None)


def matmul(xp, a, b):
    """``xp.matmul(a, b)``; a small product on the host on one BLAS thread."""
    if _set is None or xp is not np or a.ndim < 2 or b.ndim < 2 or not SERIAL_FROM <= a.size * b.shape[-1] < SERIAL_BELOW:
        return xp.matmul(a, b)
    threads = _get()
    if threads <= 1:
        return np.matmul(a, b)
    _set(1)
    try:
        return np.matmul(a, b)
    finally:
        _set(threads)
