"""The host heap kept for reuse while a program runs under ``devtrace run``.

Every op's output is a new NumPy array, freed when its tensor dies; a training step makes and
frees the same large arrays every step. glibc's malloc gives arrays above its mmap threshold
fresh pages from the kernel and hands large free blocks at the top of its heap back to it, so each
step faults all those pages in again (zeroed by the kernel: a quarter of a convnet step's CPU
time at batch 128). TensorFlow's allocators keep their memory. So does ``devtrace run``: arrays up
to 32 MiB come from the heap, which keeps up to 256 MiB of free memory at its top. Only with
glibc, and not when the user set malloc's thresholds (``MALLOC_*_`` or ``GLIBC_TUNABLES``).
"""

from __future__ import annotations

import ctypes
import os

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
MMAP_THRESHOLD = 32 << 20  # glibc's largest
TRIM_THRESHOLD = 256 << 20


def keep_freed_memory() -> bool:
    """Tune glibc's malloc as described above; whether it was done."""
    if "GLIBC_TUNABLES" in os.environ or any(name.startswith("MALLOC_") for name in os.environ):
        return False
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # glibc only: its mallopt takes these parameters
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
