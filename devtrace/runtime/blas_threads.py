"""Matrix products on the host with as many BLAS threads as their size, and the machine, pay for.

OpenBLAS (NumPy's) splits every product above a small size across all its threads, which spin
while they wait. On a machine with idle cores that pays from about a million multiply-adds: on
two quiet cores a convolution's ``3872x288 @ 288x64`` takes 0.8 ms on two threads and 1.6 ms on
one, even a dense layer's ``32x784 @ 784x128`` 0.050 ms against 0.078 ms, and TensorFlow's CPU
kernels (Eigen) use every core for such products too. On a machine whose cores are all taken by
other work, though, a spinning thread waits for a core its partner does not get: the same products
ran up to a hundred times slower on two threads than on one (measured with four other processes
on two cores). So below ``SERIAL_BELOW`` multiply-adds a product runs on one thread, and that
threshold is ``QUIET_SERIAL_BELOW`` while the machine's load average (read at most once a second)
is under ``BUSY_LOAD`` times its cores, ``BUSY_SERIAL_BELOW`` when not: the program's own threads
count in the load (a training step on every thread of two cores makes it about 2), other work
beyond them takes the cores the spinning threads need. The library's setting is put back after each
product, so nothing else in the process (the program's own NumPy) sees a change. Without OpenBLAS
(another BLAS, CuPy) a product simply runs.

A product with a narrow output (under ``NARROW_OUTPUT`` elements: a first convolution's filter
gradient ``(9, 21632) @ (21632, 32)``, a dense layer's few classes) runs on one thread at any size:
OpenBLAS splits the output's rows and columns among its threads, never the inner dimension, so each
thread streams most of the long operands for a few outputs of its own. On two quiet cores, with
operands just written (as a training step's are), the filter gradient took 0.66 ms on two threads
and 0.28 ms on one; ``(16, 8192) @ (8192, 64)`` 0.45 and 0.24 ms.

The nn kernels' C loops over a whole tensor (``ops/nn/native.py``) take the same judgement:
``loop_threads`` splits a big one over two threads while the machine's cores are idle.

OpenBLAS's worker threads spin after each product, about 2**28 cycles (a tenth of a second), before
they sleep: on two cores, exactly while a training step's next ops (BiasAdd, Relu, MaxPool … , whose
C loops want the second core) run, so a loop's second half waited for the spinning worker's time
slices (the worker took 35% of a CNN step's CPU samples; Relu, ReluGrad, BiasAdd and MaxPool ran 2-4
times slower than after a product that left no spinning thread). So when this module loads, in
``auto`` mode, the workers' spin is cut to ``2**SPIN_TIMEOUT`` cycles, about 50 µs: long enough for a
convolution's products a chunk after another (an im2col or col2im of 20-30 µs between them) and a
backward pass's products an op after another to find the workers awake, short enough that the next
op's loops find the second core free. (At OpenBLAS's least, 2**4, every chunk's product waited for
its workers to wake: Conv2D and Conv2DBackpropInput took 0.2-0.4 ms more a step.)
OpenBLAS reads that setting (``OPENBLAS_THREAD_TIMEOUT``) from the environment only when its
threads start, so the variable is set while OpenBLAS re-reads its environment and the threads are
stopped (they restart at the next threaded product), then removed: the program's own environment
and its child processes see no change, and it works whether NumPy was imported before devtrace or
not. The process's other products (the program's own NumPy) sleep as soon, too. A user's own
``OPENBLAS_THREAD_TIMEOUT`` is kept as it is, and so is the library's whole setting under
``DEVTRACE_BLAS_THREADS`` other than ``auto`` (``1`` never wakes the workers at all).

``DEVTRACE_BLAS_THREADS``: ``auto`` (the default) as above; ``1``: every product and loop on one
thread (a machine known to be busy, or timings that must not depend on its load); anything else
(``blas``): the library's own setting for every product, loops on one thread.
"""

from __future__ import annotations

import ctypes
import glob
import os
import time

import numpy as np

QUIET_SERIAL_BELOW = 1 << 20  # multiply-adds under which one thread is faster on idle cores
BUSY_SERIAL_BELOW = 1 << 27  # ... and on cores taken by other work
BUSY_LOAD = 1.5  # load average per core from which the machine's cores count as taken
SERIAL_FROM = 1 << 16  # and under which OpenBLAS uses one thread anyway
NARROW_OUTPUT = 1 << 12  # output elements under which a product runs on one thread at any size
LOOP_SPLIT_FROM = 1 << 18  # elements from which an nn C loop runs on two threads on idle cores


def _openblas():
    """``(set_num_threads, get_num_threads, library)`` of the OpenBLAS NumPy uses, or None."""
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
                    return setter, getter, lib
    return None


SPIN_TIMEOUT = 17  # OPENBLAS_THREAD_TIMEOUT: a worker spins 2**17 cycles (50 µs at 2.6 GHz) before it sleeps


def _short_spin(lib, environ=os.environ) -> bool:
    """Cut OpenBLAS's worker spin to ``SPIN_TIMEOUT`` (see the module's docstring): True when it was.
    Not when the user set ``OPENBLAS_THREAD_TIMEOUT`` (kept), nor on an OpenBLAS without the two
    entry points (``openblas_read_env``, ``blas_thread_shutdown_``)."""
    read_env = getattr(lib, "openblas_read_env", None)
    shutdown = getattr(lib, "blas_thread_shutdown_", None)
    if "OPENBLAS_THREAD_TIMEOUT" in environ or read_env is None or shutdown is None:
        return False
    environ["OPENBLAS_THREAD_TIMEOUT"] = str(SPIN_TIMEOUT)
    try:
        read_env()
        shutdown()  # the threads restart, with the short spin, at the next threaded product
    finally:
        del environ["OPENBLAS_THREAD_TIMEOUT"]
    return True


_MODE = os.environ.get("DEVTRACE_BLAS_THREADS", "auto")
_FOUND = _openblas() if _MODE in ("auto", "1") else None
_set, _get, _lib = _FOUND or (None, None, None)
SHORT_SPIN = _MODE == "auto" and _lib is not None and _short_spin(_lib)
SERIAL_BELOW = BUSY_SERIAL_BELOW if _MODE == "auto" else 1 << 62  # the threshold now (_serial_below)
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
_checked_at = -1.0  # when the load was last read (time.monotonic)


def _serial_below() -> int:
    """``SERIAL_BELOW``, from the load average when it was last read over a second ago."""
    global SERIAL_BELOW, _checked_at
    now = time.monotonic()
    if _MODE == "auto" and now - _checked_at >= 1.0:
        _checked_at = now
        try:
            busy = os.getloadavg()[0] >= BUSY_LOAD * _CORES
        except OSError:  # no load average here
            busy = False
        SERIAL_BELOW = BUSY_SERIAL_BELOW if busy else QUIET_SERIAL_BELOW
    return SERIAL_BELOW


def matmul(xp, a, b, out=None):
    """``xp.matmul(a, b)`` (into ``out`` when given); a small or narrow product on the host on one BLAS thread."""
    into = {} if out is None else {"out": out}
    if _set is None or xp is not np or a.ndim < 2 or b.ndim < 2 or not SERIAL_FROM <= a.size * b.shape[-1] or \
            (a.size * b.shape[-1] >= _serial_below() and a.shape[-2] * b.shape[-1] >= NARROW_OUTPUT):
        return xp.matmul(a, b, **into)
    threads = _get()
    if threads <= 1:
        return np.matmul(a, b, **into)
    _set(1)
    try:
        return np.matmul(a, b, **into)
    finally:
        _set(threads)


def loop_threads(elements: int) -> int:
    """Threads an nn C loop (``ops/nn/native.py``) over ``elements`` takes: two on a machine with an
    idle core, as the products above judge it, from ``LOOP_SPLIT_FROM`` elements (a loop of a tenth of
    a millisecond or more: a thread's start costs tens of microseconds); else one.
    ``DEVTRACE_BLAS_THREADS`` other than ``auto``: one."""
    if _MODE != "auto" or _CORES < 2 or elements < LOOP_SPLIT_FROM:
        return 1
    return 2 if _serial_below() == QUIET_SERIAL_BELOW else 1
