"""Small host matrix products run on one BLAS thread (runtime/blas_threads.py): the same values,
and the library's thread setting as the program left it."""

import os
import threading
import time

import numpy as np
import pytest

from devtrace.runtime import blas_threads


@pytest.mark.parametrize("shape", [(32, 784, 128), (2, 3, 4), (4, 64, 64, 64)])
def test_same_product_and_setting_restored(shape):
    rng = np.random.default_rng(0)
    a = rng.random(shape[:-2] + shape[-2:-1] + (shape[-1],), dtype=np.float32)
    b = rng.random(shape[:-2] + (shape[-1], shape[-2]), dtype=np.float32)
    before = blas_threads._get() if blas_threads._get else None
    assert np.array_equal(blas_threads.matmul(np, a, b), np.matmul(a, b))
    if before is not None:
        assert blas_threads._get() == before


def test_found_with_numpys_openblas():
    config = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    if "openblas" not in str(config.get("name", "")).lower():
        pytest.skip("NumPy is not built with OpenBLAS here")
    assert blas_threads._FOUND is not None


@pytest.mark.parametrize("load,below", [(0.5, blas_threads.QUIET_SERIAL_BELOW), (2.5, blas_threads.QUIET_SERIAL_BELOW),
                                        (3.0, blas_threads.BUSY_SERIAL_BELOW), (64.0, blas_threads.BUSY_SERIAL_BELOW)])
def test_products_go_serial_from_a_lower_size_when_cores_are_idle(load, below, monkeypatch):
    """Idle cores (the program's own threads may fill them): products from about a million
    multiply-adds on every BLAS thread; cores taken by other work too (load average at least 1.5
    per core): on one thread up to a hundred times that."""
    monkeypatch.setattr(blas_threads, "_MODE", "auto")
    monkeypatch.setattr(blas_threads, "_checked_at", -1e9)
    monkeypatch.setattr(blas_threads, "_CORES", 2)
    monkeypatch.setattr(blas_threads.os, "getloadavg", lambda: (load, load, load))
    assert blas_threads._serial_below() == below
    monkeypatch.setattr(blas_threads.os, "getloadavg", lambda: (1000.0 - load,) * 3)
    assert blas_threads._serial_below() == below  # read again a second later at the soonest


class _FakeOpenBLAS:
    """The two entry points ``_short_spin`` calls, recording the environment each one saw."""

    def __init__(self, environ):
        self.environ, self.calls = environ, []

    def openblas_read_env(self):
        self.calls.append(("read_env", self.environ.get("OPENBLAS_THREAD_TIMEOUT")))

    def blas_thread_shutdown_(self):
        self.calls.append(("shutdown", self.environ.get("OPENBLAS_THREAD_TIMEOUT")))


def test_short_spin_sets_the_timeout_while_openblas_reads_it_then_removes_it():
    environ = {"PATH": "/bin"}
    lib = _FakeOpenBLAS(environ)
    assert blas_threads._short_spin(lib, environ) is True
    assert lib.calls == [("read_env", str(blas_threads.SPIN_TIMEOUT)), ("shutdown", str(blas_threads.SPIN_TIMEOUT))]
    assert environ == {"PATH": "/bin"}  # the program and its children see no change


def test_short_spin_keeps_a_users_own_timeout():
    environ = {"OPENBLAS_THREAD_TIMEOUT": "20"}
    lib = _FakeOpenBLAS(environ)
    assert blas_threads._short_spin(lib, environ) is False
    assert lib.calls == [] and environ == {"OPENBLAS_THREAD_TIMEOUT": "20"}


def test_short_spin_leaves_an_openblas_without_the_entry_points():
    environ = {}
    assert blas_threads._short_spin(object(), environ) is False
    assert environ == {}


def _worker_ticks(main):
    """CPU clock ticks (user + system) of this process's threads other than ``main``."""
    total = 0
    for tid in os.listdir("/proc/self/task"):
        if int(tid) != main:
            with open(f"/proc/self/task/{tid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total


def test_openblas_workers_sleep_right_after_a_threaded_product():
    """Loaded in ``auto`` mode, devtrace cut the workers' spin: after a product on every thread they
    take no CPU time while the program does something else (OpenBLAS's own default spins them about
    a tenth of a second: ten clock ticks)."""
    if blas_threads._lib is None or blas_threads._get() < 2 or not os.path.isdir("/proc/self/task"):
        pytest.skip("no multi-threaded OpenBLAS here")
    assert blas_threads.SHORT_SPIN == (blas_threads._MODE == "auto" and "OPENBLAS_THREAD_TIMEOUT" not in os.environ)
    if not blas_threads.SHORT_SPIN:
        pytest.skip("the spin is the user's (OPENBLAS_THREAD_TIMEOUT) or the library's (DEVTRACE_BLAS_THREADS)")
    a = np.ones((256, 256), np.float32)  # about a millisecond of work on each thread
    np.matmul(a, a)
    time.sleep(0.01)  # the product's workers finished
    before = _worker_ticks(threading.get_native_id())
    np.matmul(a, a)
    time.sleep(0.2)
    assert _worker_ticks(threading.get_native_id()) - before <= 1


@pytest.mark.parametrize("a_shape,b_shape,threads", [
    ((9, 21632), (21632, 32), 1),  # a first convolution's filter gradient: 288 outputs, on one thread
    ((64, 4096), (4096, 16), 1),  # 1024 outputs
    ((288, 847), (847, 64), 2),  # a second one's (a chunk of it): 18432 outputs, on every thread
    ((64, 512), (512, 64), 2),  # 4096 outputs
])
def test_narrow_products_run_on_one_thread_even_on_idle_cores(a_shape, b_shape, threads, monkeypatch):
    """OpenBLAS splits a product's output among its threads, never the inner dimension: an output
    of under ``NARROW_OUTPUT`` elements runs on one thread however long the inner dimension."""
    seen = []
    monkeypatch.setattr(blas_threads, "_serial_below", lambda: blas_threads.QUIET_SERIAL_BELOW)
    monkeypatch.setattr(blas_threads, "_get", lambda: 2)
    monkeypatch.setattr(blas_threads, "_set", seen.append)
    a, b = np.ones(a_shape, np.float32), np.ones(b_shape, np.float32)
    assert np.array_equal(blas_threads.matmul(np, a, b), np.matmul(a, b))
    assert seen == ([1, 2] if threads == 1 else [])
