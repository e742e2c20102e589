"""More of ``tf.linalg``: ``sqrtm``/``logm`` (``MatrixSquareRoot``, ``MatrixLogarithm``: CPU kernels
as TensorFlow's), the tridiagonal ops (``TridiagonalMatMul``, ``TridiagonalSolve``: CPU and GPU),
and what TensorFlow composes from ops: ``cholesky_solve``, the ``lu_*`` family, ``matrix_rank``,
``normalize`` and ``eigh_tridiagonal``."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ...runtime.values import constant
from ..declare import API, as_tensor, on_host, op, public

_FC = frozenset(("float32", "float64", "complex64", "complex128"))


def _eig_function(fn):
    """``V fn(Λ) V⁻¹`` per matrix (the eigendecomposition of each), on the host."""
    def kernel(xp, x):
        host = on_host(xp, x)
        out = np.empty(host.shape, np.result_type(host.dtype, np.complex64))
        for index in np.ndindex(*host.shape[:-2]):
            w, v = np.linalg.eig(host[index].astype(np.complex128))
            out[index] = (v * fn(w)) @ np.linalg.inv(v)
        if host.dtype.kind != "c":
            out = out.real
        return xp.asarray(out.astype(host.dtype))
    return kernel


op("MatrixSquareRoot", _eig_function(np.sqrt), _FC, devices=(CPU,), shape=lambda name, shapes, attrs, dtype:
   (dtype, shapes[0]))
op("MatrixLogarithm", _eig_function(np.log), {"complex64", "complex128"}, devices=(CPU,),
   shape=lambda name, shapes, attrs, dtype: (dtype, shapes[0]))


@public("linalg.sqrtm", "matrix_square_root")
def sqrtm(input, name=None):  # noqa: A002
    return execute("MatrixSquareRoot", (as_tensor(input),), name=name)


@public("linalg.logm")
def logm(input, name=None):  # noqa: A002
    return execute("MatrixLogarithm", (as_tensor(input),), name=name)


def _tridiagonal_matmul(xp, superdiag, maindiag, subdiag, rhs):
    """``rhs`` (…, M, N) times the tridiagonal matrix of the three diagonals (…, 1, M)."""
    sup, main, sub = superdiag[..., 0, :, None], maindiag[..., 0, :, None], subdiag[..., 0, :, None]
    out = main * rhs
    out[..., :-1, :] += sup[..., :-1, :] * rhs[..., 1:, :]
    out[..., 1:, :] += sub[..., 1:, :] * rhs[..., :-1, :]
    return out


def _tridiagonal_solve(xp, diagonals, rhs, partial_pivoting=True, perturb_singular=False):
    host_d, host_r = on_host(xp, diagonals), on_host(xp, rhs)
    out = np.empty(host_r.shape, host_r.dtype)
    m = host_d.shape[-1]
    for index in np.ndindex(*host_d.shape[:-2]):
        d = host_d[index]
        full = np.diag(d[1]) + np.diag(d[0][:-1], 1) + np.diag(d[2][1:], -1) if m > 1 else np.diag(d[1])
        try:
            out[index] = np.linalg.solve(full, host_r[index])
        except np.linalg.LinAlgError:
            from ...errors import InvalidArgumentError
            raise InvalidArgumentError("The matrix is not invertible.") from None
    return xp.asarray(out)


op("TridiagonalMatMul", _tridiagonal_matmul, _FC, shape=lambda name, shapes, attrs, dtype: (dtype, shapes[-1]))
op("TridiagonalSolve", _tridiagonal_solve, _FC, shape=lambda name, shapes, attrs, dtype: (dtype, shapes[-1]))


def _compact_diagonals(diagonals, diagonals_format, m=None):
    """The three diagonals as one (…, 3, M) tensor, from any of TensorFlow's formats."""
    if diagonals_format == "compact":
        return as_tensor(diagonals)
    if diagonals_format == "sequence":
        sup, main, sub = (as_tensor(d) for d in diagonals)
        return API["stack"]([sup, main, sub], axis=-2)
    if diagonals_format == "matrix":
        x = as_tensor(diagonals)
        n = int(x.shape[-1])
        main = API["linalg.diag_part"](x)
        padding = API["zeros_like"](main[..., :1])
        sup = API["concat"]([API["linalg.diag_part"](x, k=1), padding], -1) if n > 1 else padding
        sub = API["concat"]([padding, API["linalg.diag_part"](x, k=-1)], -1) if n > 1 else padding
        return API["stack"]([sup, main, sub], axis=-2)
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


@public("linalg.tridiagonal_matmul")
def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    compact = _compact_diagonals(diagonals, diagonals_format)
    sup, main, sub = (API["expand_dims"](d, -2) for d in API["unstack"](compact, axis=-2))
    return execute("TridiagonalMatMul", (sup, main, sub, as_tensor(rhs)), name=name)


@public("linalg.tridiagonal_solve")
def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    compact = _compact_diagonals(diagonals, diagonals_format)
    rhs = as_tensor(rhs)
    vector = rhs.shape.rank == compact.shape.rank - 1
    if vector:
        rhs = API["expand_dims"](rhs, -1)
    if transpose_rhs:
        rhs = API["linalg.adjoint"](rhs) if conjugate_rhs else API["linalg.matrix_transpose"](rhs)
    elif conjugate_rhs:
        rhs = API["math.conj"](rhs)
    out = execute("TridiagonalSolve", (compact, rhs), {"partial_pivoting": bool(partial_pivoting),
                                                       "perturb_singular": bool(perturb_singular)}, name=name)
    return API["squeeze"](out, [-1]) if vector else out


@public("linalg.cholesky_solve")
def cholesky_solve(chol, rhs, name=None):
    """``A x = rhs`` from ``A``'s Cholesky factor: two triangular solves."""
    y = API["linalg.triangular_solve"](chol, rhs, lower=True, adjoint=False)
    return API["linalg.triangular_solve"](chol, y, lower=True, adjoint=True, name=name)


def _lower_upper(lower_upper):
    lu = as_tensor(lower_upper)
    n = int(lu.shape[-1])
    lower = API["add"](API["linalg.band_part"](lu, -1, 0), API["linalg.eye"](n, dtype=lu.dtype))
    lower = API["subtract"](lower, API["linalg.diag"](API["linalg.diag_part"](lu)))
    upper = API["linalg.band_part"](lu, 0, -1)
    return lower, upper


@public("linalg.lu_solve")
def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """``A x = rhs`` from ``tf.linalg.lu``'s factors: ``rhs``' rows permuted, then two triangular solves."""
    lower, upper = _lower_upper(lower_upper)
    permuted = API["gather"](as_tensor(rhs), as_tensor(perm), axis=-2, batch_dims=as_tensor(perm).shape.rank - 1)
    y = API["linalg.triangular_solve"](lower, permuted, lower=True)
    return API["linalg.triangular_solve"](upper, y, lower=False, name=name)


@public("linalg.lu_matrix_inverse")
def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    lu = as_tensor(lower_upper)
    eye = API["linalg.eye"](int(lu.shape[-1]), batch_shape=[int(d) for d in lu.shape[:-2]], dtype=lu.dtype)
    return lu_solve(lu, perm, eye, name=name)


@public("linalg.lu_reconstruct")
def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """``L U`` with its rows put back in the input's order (the inverse permutation)."""
    lower, upper = _lower_upper(lower_upper)
    product = API["matmul"](lower, upper)
    perm = as_tensor(perm)
    inverse = API["math.invert_permutation"](perm) if perm.shape.rank == 1 else API["argsort"](perm, axis=-1)
    return API["gather"](product, inverse, axis=-2, batch_dims=perm.shape.rank - 1, name=name)


@public("linalg.matrix_rank")
def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above ``tol`` (default ``max(s) * max(m, n) * eps``)."""
    a = as_tensor(a)
    s = API["linalg.svd"](a, compute_uv=False)
    if tol is None:
        m, n = (int(d) for d in a.shape[-2:])
        eps = float(np.finfo(a.dtype.real_dtype.np if a.dtype.is_complex else a.dtype.np).eps)
        tol = API["multiply"](API["reduce_max"](s, axis=-1, keepdims=True), constant(eps * max(m, n), s.dtype))
    else:
        tol = API["cast"](as_tensor(tol), s.dtype)
    return API["reduce_sum"](API["cast"](API["greater"](s, tol), dtypes.int32), axis=-1, name=name)


@public("linalg.normalize")
def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 (TensorFlow's name)
    """``tensor`` over its norm, and the norm (kept dims)."""
    x = as_tensor(tensor)
    norm = API["linalg.norm"](x, ord=ord, axis=axis, keepdims=True)
    norm = API["cast"](norm, x.dtype)
    return API["math.divide"](x, norm, name=name), norm


@public("linalg.eigh_tridiagonal")
def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """The eigenvalues (ascending; with ``eigvals_only=False`` the eigenvectors too) of the Hermitian
    tridiagonal matrix with diagonal ``alpha`` and off-diagonal ``beta``; ``select`` ``"v"``/``"i"``
    keep those in a value or index range."""
    alpha, beta = as_tensor(alpha), as_tensor(beta)
    n = int(alpha.shape[0])
    if n > 1:
        upper = API["linalg.diag"](beta, k=1, num_rows=n, num_cols=n)
        lower = API["linalg.diag"](API["math.conj"](beta) if beta.dtype.is_complex else beta, k=-1,
                                   num_rows=n, num_cols=n)
        matrix = API["add"](API["add"](API["linalg.diag"](API["cast"](alpha, beta.dtype)), upper), lower)
    else:
        matrix = API["reshape"](alpha, [1, 1])
    values, vectors = API["linalg.eigh"](matrix)
    values = API["cast"](values, alpha.dtype) if not alpha.dtype.is_complex else values
    if select in ("i", "v"):
        host = values.numpy()
        if select == "i":
            lo, hi = (int(v) for v in select_range)
            keep = np.arange(lo, hi + 1)
        else:
            lo, hi = (float(v) for v in select_range)
            keep = np.nonzero((host > lo) & (host <= hi))[0]
        index = constant(keep.astype(np.int32))
        values = API["gather"](values, index)
        vectors = API["gather"](vectors, index, axis=1)
    elif select != "a":
        raise ValueError(f"Invalid select: {select!r}")
    return values if eigvals_only else (values, vectors)
