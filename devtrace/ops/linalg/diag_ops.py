"""Diagonals: ``MatrixDiagV3``, ``MatrixDiagPartV3``, ``MatrixSetDiagV3`` with TensorFlow's band of
diagonals ``k = (lo, hi)`` and its ``align`` of the shorter ones; ``Diag``/``DiagPart`` (the
tensor diagonals of ``tf.linalg.tensor_diag``); ``BandedTriangularSolve`` (CPU only, as TensorFlow)."""

from __future__ import annotations

import numpy as np

from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..array import array_ops
from ..declare import as_tensor, on_host, op, public

_F = frozenset(("float16", "float32", "float64", "complex64", "complex128"))


def _band(k):
    ks = np.asarray(k).reshape(-1)
    return int(ks[0]), int(ks[-1])


def _length(rows, cols, d):
    return min(rows + min(0, d), cols - max(0, d))


def _offset(align, d, length, max_len):
    """Where diagonal ``d``'s values start in its row of the packed band (right-aligned: padded first)."""
    upper, lower = align.split("_")
    return max_len - length if (upper if d >= 0 else lower) == "RIGHT" else 0


def _positions(rows, cols, d):
    j = np.arange(_length(rows, cols, d))
    return j - min(0, d), j + max(0, d)


def _diag_part(xp, x, k=0, padding_value=0, align="RIGHT_LEFT"):
    lo, hi = _band(k)
    rows, cols = x.shape[-2:]
    max_len = max(_length(rows, cols, d) for d in range(lo, hi + 1))
    out = xp.full(x.shape[:-2] + (hi - lo + 1, max_len), padding_value, dtype=x.dtype)
    for i, d in enumerate(range(hi, lo - 1, -1)):
        r, c = _positions(rows, cols, d)
        start = _offset(align, d, len(r), max_len)
        out[..., i, start:start + len(r)] = x[..., r, c]
    return out[..., 0, :] if lo == hi else out


def _set_diag(xp, x, diagonal, k=0, align="RIGHT_LEFT"):
    lo, hi = _band(k)
    rows, cols = x.shape[-2:]
    band = diagonal if lo != hi else diagonal[..., None, :]
    max_len = band.shape[-1]
    want = max(_length(rows, cols, d) for d in range(lo, hi + 1))
    if band.shape[-2] != hi - lo + 1 or max_len != want:
        raise ValueError(f"diagonal must be shaped [..., {hi - lo + 1}, {want}] (k=({lo}, {hi})), got "
                         f"[{','.join(map(str, diagonal.shape))}]")
    out = x.copy()
    for i, d in enumerate(range(hi, lo - 1, -1)):
        r, c = _positions(rows, cols, d)
        start = _offset(align, d, len(r), max_len)
        out[..., r, c] = band[..., i, start:start + len(r)]
    return out


def _diag(xp, diagonal, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    lo, hi = _band(k)
    band = diagonal if lo != hi else diagonal[..., None, :]
    max_len = band.shape[-1]
    rows = num_rows if num_rows > 0 else max_len - min(hi, 0)
    cols = num_cols if num_cols > 0 else max_len + max(lo, 0)
    if num_rows <= 0 and num_cols <= 0:  # neither given: TensorFlow makes the matrix square
        rows = cols = max(rows, cols)
    x = xp.full(band.shape[:-2] + (rows, cols), padding_value, dtype=diagonal.dtype)
    for i, d in enumerate(range(hi, lo - 1, -1)):
        r, c = _positions(rows, cols, d)
        start = _offset(align, d, len(r), max_len)
        x[..., r, c] = band[..., i, start:start + len(r)]
    return x


def _tensor_diag(xp, d):
    flat = d.reshape(-1)
    return xp.diag(flat).reshape(d.shape + d.shape)


def _tensor_diag_part(xp, x):
    half = x.ndim // 2
    n = int(np.prod(x.shape[:half], dtype=np.int64))
    return xp.diagonal(x.reshape(n, n)).reshape(x.shape[:half]).copy()


def _banded_triangular_solve(xp, bands, b, lower=True, adjoint=False):
    """Substitution on a band stored as rows of diagonals: ``set_diag``'s with ``k=(1-K, 0)`` (upper:
    ``(0, K-1)``) and ``align='LEFT_RIGHT'``."""
    bands, rhs = on_host(xp, bands), on_host(xp, b)
    n, width = rhs.shape[-2], bands.shape[-2]
    k = (1 - width, 0) if lower else (0, width - 1)
    dense = _set_diag(np, np.zeros(bands.shape[:-2] + (n, n), bands.dtype), bands, k=k, align="LEFT_RIGHT")
    if adjoint:
        dense, lower = np.conj(np.swapaxes(dense, -1, -2)), not lower
    x = np.zeros(np.broadcast_shapes(dense.shape[:-2], rhs.shape[:-2]) + rhs.shape[-2:], np.result_type(dense, rhs))
    for i in range(n) if lower else reversed(range(n)):
        done = (dense[..., i:i + 1, :] @ x)[..., 0, :]
        x[..., i, :] = (rhs[..., i, :] - done) / dense[..., i, i:i + 1]
    return xp.asarray(x)


def _unknown(name, shapes, attrs, dtype):
    return dtype, None


def _one_band(attrs):
    """The single diagonal ``k`` names, or ``None`` for a band (its shape is left unknown)."""
    k = attrs.get("k", 0)
    low, high = _band(k) if not hasattr(k, "shape") else (None, None)
    return low if low is not None and low == high else None


def _diag_shape(name, shapes, attrs, dtype):
    """One diagonal of vectors of length n, default rows and columns: matrices of n + |k| squared."""
    x, k = shapes[0], _one_band(attrs)
    if x is None or not x or k is None or attrs.get("num_rows", -1) != -1 or attrs.get("num_cols", -1) != -1:
        return dtype, None
    n = None if x[-1] is None else x[-1] + abs(k)
    return dtype, tuple(x[:-1]) + (n, n)


def _diag_part_shape(name, shapes, attrs, dtype):
    """The main diagonal of a batch of matrices: its length is the shorter side."""
    x = shapes[0]
    if x is None or len(x) < 2 or _one_band(attrs) != 0:
        return dtype, None
    return dtype, tuple(x[:-2]) + (None if None in x[-2:] else min(x[-2:]),)


_DIAG_HOST = {"k": "k", "num_rows": "num_rows", "num_cols": "num_cols", "padding_value": "padding_value"}
op("MatrixDiagV3", _diag, None, shape=_diag_shape, host_args=_DIAG_HOST)
op("MatrixDiagPartV3", _diag_part, None, shape=_diag_part_shape, host_args={"k": "k", "padding_value": "padding_value"})
op("MatrixSetDiagV3", _set_diag, None, shape=_unknown, host_args={"k": "k"})
op("Diag", _tensor_diag, None, shape=_unknown)
op("DiagPart", _tensor_diag_part, None, shape=_unknown)
op("BandedTriangularSolve", _banded_triangular_solve, _F, devices=(CPU,), shape=_unknown)


def _k(k):
    ks = np.asarray(k.numpy() if hasattr(k, "numpy") else k).reshape(-1)
    return tuple(int(v) for v in ks) if len(ks) > 1 else int(ks[0])


@public("linalg.diag", "compat.v1.matrix_diag")
def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    d = as_tensor(diagonal)
    attrs = {"k": _k(k), "num_rows": int(num_rows), "num_cols": int(num_cols),
             "padding_value": np.asarray(padding_value, d.dtype.np).item(), "align": align}
    return execute("MatrixDiagV3", (d,), attrs, name=name)


@public("linalg.diag_part", "compat.v1.matrix_diag_part")
def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    x = as_tensor(input)
    attrs = {"k": _k(k), "padding_value": np.asarray(padding_value, x.dtype.np).item(), "align": align}
    return execute("MatrixDiagPartV3", (x,), attrs, name=name)


@public("linalg.set_diag", "compat.v1.matrix_set_diag")
def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    x = as_tensor(input)
    d = as_tensor(diagonal) if not isinstance(diagonal, list) else array_ops.constant(diagonal, x.dtype)
    return execute("MatrixSetDiagV3", (x, d), {"k": _k(k), "align": align}, name=name)


@public("linalg.tensor_diag", "compat.v1.diag")
def tensor_diag(diagonal, name=None):
    return execute("Diag", (as_tensor(diagonal),), name=name)


@public("linalg.tensor_diag_part", "compat.v1.diag_part")
def tensor_diag_part(input, name=None):  # noqa: A002
    return execute("DiagPart", (as_tensor(input),), name=name)


@public("linalg.banded_triangular_solve")
def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    return execute("BandedTriangularSolve", (as_tensor(bands), as_tensor(rhs)),
                   {"lower": bool(lower), "adjoint": bool(adjoint)}, name=name)
