"""Small host matrix products run on one BLAS thread (runtime/blas_threads.py): the same values,
and the library's thread setting as the program left it."""

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
