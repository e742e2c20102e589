"""The C library's math functions, elementwise on NumPy arrays: what TensorFlow's CPU kernels call
(``logf``/``sinf``/``cosf`` for float32, ``log``/``sin``/``cos`` for float64), so the values built
on them (Box-Muller normals) round as TensorFlow's do. NumPy's own ufuncs differ from the C
library in the last bit now and then (about 1 value in 70)."""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np


def _load() -> dict:
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:  # no C math library to ask: NumPy's values
        return {}
    out = {}
    for name, kind in (("logf", ctypes.c_float), ("sinf", ctypes.c_float), ("cosf", ctypes.c_float),
                       ("log1pf", ctypes.c_float), ("expm1f", ctypes.c_float), ("expf", ctypes.c_float),
                       ("lgamma", ctypes.c_double)):
        fn = getattr(lib, name, None)
        if fn is not None:
            fn.restype, fn.argtypes = kind, [kind]
            out[name] = fn
    return out


_C = _load()
# how far (in ulps) from the float nearest the exact value namef's result can be pushed over to the
# next one: 1 - its largest error (logf is off by up to ~0.8 ulp, sinf and cosf by ~0.56)
_TIES = {"log": 0.15, "sin": 0.4, "cos": 0.4}


def scalar_f32(name: str, x) -> np.float32:
    """One float32 ``namef`` (``log1pf``, ``expm1f`` …) from the C library, else NumPy's."""
    fn = _C.get(name + "f")
    return np.float32(fn(float(x))) if fn is not None else getattr(np, name)(np.float32(x))


def lgamma(x: float) -> float:
    """The C library's ``lgamma`` (Python's ``math.lgamma`` is CPython's own)."""
    fn = _C.get("lgamma")
    return fn(x) if fn is not None else math.lgamma(x)


_CODES = {"log": 0, "sin": 1, "cos": 2}


def _native():
    """The C module's elementwise loop over the C library (``None``: a Python loop instead)."""
    from ...runtime.native import FASTPATH

    return getattr(FASTPATH, "libm_map", None)


def f64(name: str, x: np.ndarray) -> np.ndarray:
    """``name`` (``log``, ``sin``, ``cos``) of float64 values: the C library's (Python's ``math`` calls it)."""
    native = _native()
    if native is not None:
        x = np.ascontiguousarray(x, np.float64)
        out = np.empty_like(x)
        native(_CODES[name] + 3, x, out)
        return out
    return np.fromiter(map(getattr(math, name), x.tolist()), np.float64, x.size)


def f32(name: str, x: np.ndarray) -> np.ndarray:
    """``name`` of float32 values as the C library's ``namef``: NumPy in double rounded once,
    and the C library's own result where that rounding is a near tie (where ``namef``, within
    its error bound, may round the other way)."""
    exact = getattr(np, name)(x.astype(np.float64))
    out = exact.astype(np.float32)
    fn = _C.get(name + "f")
    if fn is None:
        return out
    ulp = np.abs(np.spacing(out).astype(np.float64))
    near = np.nonzero(np.abs(exact - out.astype(np.float64)) > _TIES[name] * ulp)[0]
    if near.size:
        native = _native()
        if native is not None:
            ties = np.ascontiguousarray(x[near], np.float32)
            exact_ties = np.empty_like(ties)
            native(_CODES[name], ties, exact_ties)
            out[near] = exact_ties
        else:
            out[near] = np.fromiter(map(fn, x[near].tolist()), np.float32, near.size)
    return out
