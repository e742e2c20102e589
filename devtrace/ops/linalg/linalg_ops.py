"""``tf.linalg``: inverses, determinants, solves, decompositions (``Svd``, ``Qr``,
``SelfAdjointEigV2`` … as multi-output ops), diagonals, bands, ``Einsum`` and norms — each
op by TensorFlow's name, its kernel NumPy's (CuPy's on a real GPU) linear algebra."""

from __future__ import annotations

import collections

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ...runtime.tensor import Tensor
from ..array import array_ops
from ..math import complex_ops, math_ops, reduction_ops
from ..declare import as_tensor, host_arg, on_host, op, public
from .. import shapes
from .diag_ops import diag, diag_part, set_diag  # noqa: F401 (linalg_grad reads them here)

_F = frozenset(("float16", "float32", "float64", "complex64", "complex128"))
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


def _unknown(name, shapes, attrs, dtype):
    return dtype, None


def _outputs(n):
    return lambda name, shapes, attrs, dtype: ([(dtype, None)] * n, None)


def _inverse(xp, x, adjoint=False):
    try:
        out = xp.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise ValueError("Input is not invertible.") from None
    return xp.conj(xp.swapaxes(out, -1, -2)) if adjoint else out


def _slogdet(xp, x):
    sign, logabs = xp.linalg.slogdet(x)
    return xp.asarray(sign, dtype=x.dtype), xp.asarray(logabs, dtype=x.dtype)


def _svd(xp, x, compute_uv=True, full_matrices=False):
    if not compute_uv:
        return (xp.linalg.svd(x, compute_uv=False).astype(x.dtype),)
    u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(x.dtype), u.astype(x.dtype), xp.conj(xp.swapaxes(vh, -1, -2)).astype(x.dtype)


def _qr(xp, x, full_matrices=False):
    q, r = xp.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype), r.astype(x.dtype)


def _lu(xp, x, output_idx_type="int32"):
    """Partial pivoting (the largest magnitude in the column), as Eigen's PartialPivLU: L and U in one matrix."""
    lu = on_host(xp, x).copy()
    perm = np.broadcast_to(np.arange(lu.shape[-1]), lu.shape[:-1]).copy()
    for m, p in zip(lu.reshape((-1,) + lu.shape[-2:]), perm.reshape(-1, lu.shape[-1])):
        for k in range(len(m)):
            pivot = k + int(np.argmax(np.abs(m[k:, k])))
            m[[k, pivot]], p[[k, pivot]] = m[[pivot, k]], p[[pivot, k]]
            if m[k, k] != 0:
                m[k + 1:, k] /= m[k, k]
                m[k + 1:, k + 1:] -= np.outer(m[k + 1:, k], m[k, k + 1:])
    return xp.asarray(lu), xp.asarray(perm.astype(output_idx_type))


def _cholesky(xp, x):
    """Eigen's unblocked LLT (TensorFlow's kernel) in the input's precision, column by column from
    the lower triangle: LAPACK's rounds differently. NaNs where it fails, as TensorFlow's CPU kernel."""
    low = xp.tril(x)
    for k in range(x.shape[-1]):
        row = low[..., k, :k]
        d = low[..., k, k] - xp.sum(row * xp.conj(row), axis=-1)
        if bool(xp.any(d.real <= 0)):
            return xp.tril(xp.full(x.shape, xp.nan, dtype=x.dtype))
        d = xp.sqrt(d)
        low[..., k, k] = d
        below = low[..., k + 1:, k] - xp.matmul(low[..., k + 1:, :k], xp.conj(row)[..., None])[..., 0]
        low[..., k + 1:, k] = below / d[..., None]
    return low


def _eigh(xp, x, compute_v=True):
    w, v = xp.linalg.eigh(x)
    return (w.astype(x.dtype), v.astype(x.dtype)) if compute_v else (w.astype(x.dtype),)


def _eig(xp, x, Tout="complex64", compute_v=True):
    w, v = np.linalg.eig(on_host(xp, x))
    out = dtypes.as_dtype(Tout).np
    return xp.asarray(w.astype(out)), xp.asarray(v.astype(out) if compute_v else np.zeros((0,), out))


def _band_part(xp, x, num_lower=-1, num_upper=-1):
    rows, cols = x.shape[-2], x.shape[-1]
    i = xp.arange(rows)[:, None]
    j = xp.arange(cols)[None, :]
    keep = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
    return xp.where(keep, x, xp.zeros((), dtype=x.dtype))


def _einsum(xp, *xs, equation=""):
    seen = {}
    for spec, x in zip(equation.replace(" ", "").split("->")[0].split(","), xs):
        if "." in spec or len(spec) != x.ndim:
            continue
        for axis, (label, dim) in enumerate(zip(spec, x.shape)):
            if seen.setdefault(label, dim) != dim:
                raise ValueError(f"Expected dimension {seen[label]} at axis {axis} of the input shaped "
                                 f"[{','.join(map(str, x.shape))}] but got dimension {dim}")
    try:
        return xp.einsum(equation, *xs)
    except ValueError as e:
        raise ValueError(f"Expected dimensions to agree in einsum {equation!r}: {e}") from None


def _expm(xp, x):
    """Scaling and squaring with a Taylor series (the result TensorFlow's Padé gives, to float precision)."""
    host = on_host(xp, x).astype(np.complex128 if np.iscomplexobj(x) else np.float64)
    norm = np.abs(host).sum(axis=-2).max() if host.size else 0.0
    s = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0 else 0
    a = host / (2 ** s)
    out = term = np.broadcast_to(np.eye(host.shape[-1]), host.shape).copy()
    for k in range(1, 20):
        term = term @ a / k
        out = out + term
    for _ in range(s):
        out = out @ out
    return xp.asarray(out.astype(x.dtype))


def _solve_ls(xp, a, b, l2_regularizer=0.0, fast=True):
    """Least squares, batched. ``fast``: TensorFlow's regularised normal equations ``(AᴴA + λI) x
    = Aᴴb`` (``x = Aᴴ (AAᴴ + λI)⁻¹ b`` when A is wide); else a complete orthogonal decomposition
    per matrix, the regulariser ignored, as TensorFlow's kernel does."""
    a, b = on_host(xp, a), on_host(xp, b)
    if not fast:
        pairs = zip(a.reshape((-1,) + a.shape[-2:]), b.reshape((-1,) + b.shape[-2:]))
        x = np.stack([np.linalg.lstsq(p, q, rcond=None)[0] for p, q in pairs])
        return xp.asarray(x.reshape(a.shape[:-2] + x.shape[-2:]).astype(a.dtype))
    ah = np.conj(np.swapaxes(a, -1, -2))
    m, n = a.shape[-2:]
    if m >= n:
        x = np.linalg.solve(ah @ a + l2_regularizer * np.eye(n), ah @ b)
    else:
        x = ah @ np.linalg.solve(a @ ah + l2_regularizer * np.eye(m), b)
    return xp.asarray(x.astype(a.dtype))


op("MatrixInverse", _inverse, _F, shape=_unknown)
op("MatrixDeterminant", lambda xp, x: xp.asarray(xp.linalg.det(x), dtype=x.dtype), _F, shape=_unknown)
op("LogMatrixDeterminant", _slogdet, _F, shape=_outputs(2), multi=True)
def _matrix_solve(xp, a, b, adjoint=False):
    """TensorFlow's MatrixSolveOp: its input checks and texts, then the solve."""
    if a.ndim != b.ndim:
        raise ValueError("All input tensors must have the same rank.")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError("First input (lhs) must be a square matrix.")
    if a.shape[-2] != b.shape[-2]:
        raise ValueError("Input matrix and rhs are incompatible.")
    try:
        return xp.linalg.solve(xp.conj(xp.swapaxes(a, -1, -2)) if adjoint else a, b)
    except np.linalg.LinAlgError:
        raise ValueError("Input matrix is not invertible.") from None


op("MatrixSolve", _matrix_solve, _F, shape=_unknown)


def _triangular_solve(xp, a, b, lower=True, adjoint=False):
    """Forward (backward) substitution in the input's precision, as TensorFlow's kernel: an LU
    solve would pivot and round differently."""
    t = xp.tril(a) if lower else xp.triu(a)
    if adjoint:
        t, lower = xp.conj(xp.swapaxes(t, -1, -2)), not lower
    x = xp.zeros(xp.broadcast_arrays(t[..., :1], b)[1].shape, dtype=xp.result_type(t, b))
    for i in range(t.shape[-1]) if lower else reversed(range(t.shape[-1])):
        done = xp.matmul(t[..., i:i + 1, :], x)[..., 0, :]  # rows not solved yet are still zero
        x[..., i, :] = (b[..., i, :] - done) / t[..., i, i:i + 1]
    return x


op("MatrixTriangularSolve", _triangular_solve, _F, shape=_unknown)
op("MatrixSolveLs", _solve_ls, _F, devices=(CPU,), shape=_unknown)  # CPU only, as TensorFlow: lstsq(fast=True) composes GPU ops
op("Svd", _svd, _F, shape=_outputs(3), multi=True)
op("Qr", _qr, _F, shape=_outputs(2), multi=True)
op("Lu", _lu, _F, shape=_outputs(2), multi=True)
op("Cholesky", _cholesky, _F, shape=_unknown)
op("SelfAdjointEigV2", _eigh, _F, shape=_outputs(2), multi=True)
op("Eig", _eig, _F, devices=(CPU,), shape=_outputs(2), multi=True)
op("MatrixBandPart", _band_part, None, shape=shapes.same, host_args={"num_lower": "num_lower", "num_upper": "num_upper"})
op("Einsum", _einsum, None, shape=shapes.einsum, number_attr="N")
op("Cross", lambda xp, a, b: xp.cross(a, b), None, shape=lambda name, shapes, attrs, dtype: (dtype, shapes[0]))
op("MatrixExponential", _expm, _F, devices=(CPU, GPU), shape=_unknown)


@public("linalg.inv")
def inv(input, adjoint=False, name=None):  # noqa: A002 (TensorFlow's names)
    return execute("MatrixInverse", (as_tensor(input),), {"adjoint": bool(adjoint)} if adjoint else None, name=name)


@public("linalg.det")
def det(input, name=None):  # noqa: A002
    return execute("MatrixDeterminant", (as_tensor(input),), name=name)


@public("linalg.slogdet")
def slogdet(input, name=None):  # noqa: A002
    return LogMatrixDeterminant(*execute("LogMatrixDeterminant", (as_tensor(input),), name=name))


@public("linalg.logdet")
def logdet(matrix, name=None):
    """log det of a Hermitian positive definite matrix: 2 * sum(log(diag(cholesky)))."""
    chol = cholesky(matrix)
    return math_ops.multiply(2.0, reduction_ops.reduce_sum(math_ops.log(diag_part(chol)), axis=[-1]))


@public("linalg.solve")
def solve(matrix, rhs, adjoint=False, name=None):
    return execute("MatrixSolve", (as_tensor(matrix), as_tensor(rhs)), {"adjoint": bool(adjoint)}, name=name)


@public("linalg.triangular_solve")
def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    return execute("MatrixTriangularSolve", (as_tensor(matrix), as_tensor(rhs)),
                   {"lower": bool(lower), "adjoint": bool(adjoint)}, name=name)


@public("linalg.lstsq")
def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """TensorFlow's: ``fast`` solves the normal equations by Cholesky (ops with GPU kernels), else
    — or for a large batch of small matrices — ``MatrixSolveLs`` (CPU only)."""
    matrix, rhs = as_tensor(matrix), as_tensor(rhs)
    if not fast or _io_bound(matrix):
        attrs = {"l2_regularizer": float(l2_regularizer), "fast": bool(fast)}
        return execute("MatrixSolveLs", (matrix, rhs), attrs, name=name)
    rows, cols = matrix.shape[-2:]
    over = rows >= cols  # A^H A x = A^H b, else x = A^H (A A^H)^-1 b
    gramian = math_ops.matmul(matrix, matrix, adjoint_a=over, adjoint_b=not over)
    if l2_regularizer != 0:
        gramian = math_ops.add(gramian, math_ops.multiply(
            l2_regularizer, eye(cols if over else rows, batch_shape=matrix.shape[:-2], dtype=matrix.dtype)))
    chol = execute("Cholesky", (gramian,))
    if over:
        return _cholesky_solve(chol, math_ops.matmul(matrix, rhs, adjoint_a=True))
    return math_ops.matmul(matrix, _cholesky_solve(chol, rhs), adjoint_a=True)


def _io_bound(matrix) -> bool:
    """TensorFlow's ``_use_composite_impl`` turned round: over ~256 kB of matrices, more of them
    than a matrix's smaller side."""
    shape = tuple(matrix.shape)
    batch = int(np.prod(shape[:-2], dtype=np.int64))
    return int(np.prod(shape, dtype=np.int64)) * matrix.dtype.size > 256000 and batch > min(shape[-2:])


def _cholesky_solve(chol, rhs):
    y = execute("MatrixTriangularSolve", (chol, rhs), {"lower": True, "adjoint": False})
    return execute("MatrixTriangularSolve", (chol, y), {"lower": True, "adjoint": True})


@public("linalg.svd")
def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    out = execute("Svd", (as_tensor(tensor),), {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)},
                  name=name)
    if out[0].dtype.is_complex:  # TensorFlow's wrapper: the singular values' real part (a Real op)
        out = (complex_ops.real(out[0]),) + tuple(out[1:])
    return tuple(out) if compute_uv else out[0]


@public("linalg.qr")
def qr(input, full_matrices=False, name=None):  # noqa: A002
    q, r = execute("Qr", (as_tensor(input),), {"full_matrices": bool(full_matrices)}, name=name)
    return collections.namedtuple("Qr", ["q", "r"])(q, r)


@public("linalg.lu")
def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002
    lu_, p = execute("Lu", (as_tensor(input),), {"output_idx_type": dtypes.as_dtype(output_idx_type).name}, name=name)
    return collections.namedtuple("Lu", ["lu", "p"])(lu_, p)


@public("linalg.cholesky")
def cholesky(input, name=None):  # noqa: A002
    return execute("Cholesky", (as_tensor(input),), name=name)


@public("linalg.eigh")
def eigh(tensor, name=None):
    return tuple(execute("SelfAdjointEigV2", (as_tensor(tensor),), {"compute_v": True}, name=name))


@public("linalg.eigvalsh")
def eigvalsh(tensor, name=None):
    return execute("SelfAdjointEigV2", (as_tensor(tensor),), {"compute_v": False}, name=name)[0]


def _eig(tensor, compute_v, name):
    x = as_tensor(tensor)
    out = "complex128" if x.dtype.name in ("float64", "complex128") else "complex64"
    return tuple(execute("Eig", (x,), {"Tout": out, "compute_v": compute_v}, name=name))


@public("linalg.eig", "eig")
def eig(tensor, name=None):
    return _eig(tensor, True, name)


@public("linalg.eigvals", "eigvals")
def eigvals(tensor, name=None):
    return _eig(tensor, False, name)[0]


@public("linalg.pinv")
def pinv(a, rcond=None, validate_args=False, name=None):
    s, u, v = svd(a)
    host = [t.numpy() for t in (s, u, v)]
    cutoff = (rcond if rcond is not None else 10 * max(a.shape[-2:]) * np.finfo(host[0].dtype).eps) * host[0].max()
    inv_s = np.where(host[0] > cutoff, 1 / np.where(host[0] > cutoff, host[0], 1), 0).astype(host[0].dtype)
    return math_ops.matmul(math_ops.multiply(v, array_ops.constant(inv_s)), u, transpose_b=True)


@public("linalg.expm")
def expm(input, name=None):  # noqa: A002
    return execute("MatrixExponential", (as_tensor(input),), name=name)


@public("linalg.band_part", "compat.v1.matrix_band_part")
def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    attrs = {"num_lower": int(host_arg(num_lower, dtypes.int64)), "num_upper": int(host_arg(num_upper, dtypes.int64))}
    return execute("MatrixBandPart", (as_tensor(input),), attrs, name=name)


@public("einsum", "linalg.einsum")
def einsum(equation, *inputs, **kwargs):
    return execute("Einsum", tuple(as_tensor(x) for x in inputs), {"equation": equation}, name=kwargs.get("name"))


@public("linalg.cross")
def cross(a, b, name=None):
    return execute("Cross", (as_tensor(a), as_tensor(b)), name=name)


@public("linalg.trace", "compat.v1.trace")
def trace(x, name=None):
    return reduction_ops.reduce_sum(diag_part(x), axis=[-1], name=name)


@public("linalg.matvec")
def matvec(a, b, transpose_a=False, adjoint_a=False, name=None):
    a, b = as_tensor(a), as_tensor(b)
    out = math_ops.matmul(a, array_ops.expand_dims(b, -1), transpose_a=transpose_a or adjoint_a)
    return array_ops.squeeze(out, axis=[-1])


@public("tensordot", "linalg.tensordot")
def tensordot(a, b, axes, name=None):
    a, b = as_tensor(a), as_tensor(b)
    if isinstance(axes, int):
        axes = (list(range(len(a.shape) - axes, len(a.shape))), list(range(axes)))
    letters = "abcdefghijklmnopqrstuvwxyz"
    sa = list(letters[:len(a.shape)])
    sb = list(letters[len(a.shape):len(a.shape) + len(b.shape)])
    for i, j in zip(*[[x] if isinstance(x, int) else list(x) for x in axes]):
        sb[j] = sa[i]
    shared = {sa[i] for i in ([axes[0]] if isinstance(axes[0], int) else axes[0])}
    out = [c for c in sa + sb if c not in shared]
    return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b)


_NORMS = ("euclidean", "fro", 1, 2, np.inf)


@public("norm", "linalg.norm")
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002 (TensorFlow's name)
    x = as_tensor(tensor)
    matrix = isinstance(axis, (list, tuple)) and len(axis) == 2
    if matrix and ord not in _NORMS:
        raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got {ord}")
    keep = bool(keepdims)
    if ord in ("euclidean", "fro", 2) and not (matrix and ord == 2):
        return math_ops.sqrt(reduction_ops.reduce_sum(x * x, axis=axis, keepdims=keep))
    if ord == 1 and not matrix:
        return reduction_ops.reduce_sum(math_ops.abs_(x), axis=axis, keepdims=keep)
    if ord == np.inf and not matrix:
        return reduction_ops.reduce_max(math_ops.abs_(x), axis=axis, keepdims=keep)
    host = np.linalg.norm(x.numpy(), ord=ord, axis=tuple(axis) if matrix else axis, keepdims=keep)
    return array_ops.constant(np.asarray(host, x.dtype.np))


@public("linalg.adjoint")
def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions (``matrix_transpose(conjugate=True)``)."""
    return matrix_transpose(matrix, conjugate=True)


@public("linalg.matrix_transpose", "linalg.transpose")
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swap the last two axes (a batch of matrices stays a batch)."""
    x = as_tensor(a)
    perm = list(range(len(x.shape)))
    perm[-2:] = perm[-1], perm[-2]
    out = array_ops.transpose(x, perm, name=name)
    return complex_ops.conj(out) if conjugate else out


@public("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    dt = dtypes.as_dtype(dtype)
    cols = num_rows if num_columns is None else num_columns
    if (num_columns is None or num_columns is num_rows or not isinstance(cols, Tensor) and not isinstance(
            num_rows, Tensor) and cols == num_rows) and not batch_shape:
        return diag(array_ops.ones([num_rows], dt), name=name or "eye")
    host = np.broadcast_to(np.eye(num_rows, cols, dtype=dt.np), tuple(batch_shape or ()) + (num_rows, cols))
    return array_ops.constant(host.copy(), dt)
