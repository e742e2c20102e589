"""``tf.linalg.LinearOperator`` and its structured subclasses: each describes its matrix by how it
builds it from ops (``to_dense``); ``matmul``, ``solve``, ``determinant`` … run the dense linear
algebra ops on that (TensorFlow exploits the structure for speed; the values are the same), and
``matmul``/``adjoint``/``inverse`` of operators give operators, as TensorFlow's. Also
``tf.linalg.experimental.conjugate_gradient``."""

from __future__ import annotations

import collections

import numpy as np

from ...runtime import dtypes
from ...runtime.tensor import Tensor
from ...runtime.tensor_shape import TensorShape
from ...runtime.values import constant
from ..declare import API, as_tensor, public


def _t(x, dtype=None):
    if isinstance(x, Tensor):
        return x
    return as_tensor(x) if dtype is None else constant(x, dtypes.as_dtype(dtype))


class LinearOperator:
    """A matrix (or a batch of them) known by its structure."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite and is_non_singular is False:
            raise ValueError("A positive definite matrix is always non-singular.")
        if is_self_adjoint and is_square is False:
            raise ValueError("A self-adjoint matrix is always square.")
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = True if is_positive_definite else is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_set = is_square
        self._name = name or type(self).__name__
        self._parameters = dict(parameters or {})

    # -- what a subclass gives
    def _to_dense(self):
        raise NotImplementedError(f"devtrace does not implement {type(self).__name__}.to_dense yet")

    # -- properties
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)
    parameters = property(lambda self: dict(self._parameters))
    is_non_singular = property(lambda self: self._is_non_singular)
    is_self_adjoint = property(lambda self: self._is_self_adjoint)
    is_positive_definite = property(lambda self: self._is_positive_definite)

    @property
    def is_square(self):
        if self._is_square_set is not None:
            return self._is_square_set
        shape = self.shape
        return None if shape[-1] is None else shape[-1] == shape[-2]

    @property
    def shape(self) -> TensorShape:
        return self.to_dense().shape

    @property
    def batch_shape(self) -> TensorShape:
        return TensorShape(list(self.shape)[:-2])

    @property
    def tensor_rank(self):
        return self.shape.rank

    @property
    def domain_dimension(self):
        return self.shape[-1]

    @property
    def range_dimension(self):
        return self.shape[-2]

    def shape_tensor(self, name="shape_tensor"):
        return API["shape"](self.to_dense())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        return self.shape_tensor()[:-2]

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        return constant(self.shape.rank, dtypes.int32)

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        return self.shape_tensor()[-1]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        return self.shape_tensor()[-2]

    # -- the matrix and what it does
    def to_dense(self, name="to_dense"):
        return self._to_dense()

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return LinearOperatorComposition([left, right])
        return API["matmul"](self.to_dense(), _t(x, self.dtype), adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec"):
        return API["linalg.matvec"](self.to_dense(), _t(x, self.dtype), adjoint_a=adjoint)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            return LinearOperatorComposition([left.inverse(), rhs.adjoint() if adjoint_arg else rhs])
        rhs = _t(rhs, self.dtype)
        if adjoint_arg:
            rhs = API["linalg.adjoint"](rhs)
        return API["linalg.solve"](self.to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        return API["squeeze"](self.solve(API["expand_dims"](_t(rhs, self.dtype), -1), adjoint=adjoint), [-1])

    def determinant(self, name="det"):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be square.")
        return API["linalg.det"](self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        return API["linalg.slogdet"](self.to_dense())[1]

    def trace(self, name="trace"):
        return API["linalg.trace"](self.to_dense())

    def diag_part(self, name="diag_part"):
        return API["linalg.diag_part"](self.to_dense())

    def add_to_tensor(self, x, name="add_to_tensor"):
        return API["add"](self.to_dense(), _t(x, self.dtype))

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return API["linalg.eigvalsh"](self.to_dense())

    def cond(self, name="cond"):
        s = API["linalg.svd"](self.to_dense(), compute_uv=False)
        return API["math.divide"](API["reduce_max"](s, axis=-1), API["reduce_min"](s, axis=-1))

    def adjoint(self, name=None):
        return self if self.is_self_adjoint else LinearOperatorAdjoint(self)

    H = property(adjoint)

    def inverse(self, name=None):
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        return LinearOperatorInversion(self)

    def cholesky(self, name="cholesky"):
        if not (self.is_positive_definite and self.is_self_adjoint):
            raise ValueError("Cholesky decomposition only exists for positive definite self-adjoint operators.")
        return LinearOperatorLowerTriangular(API["linalg.cholesky"](self.to_dense()), is_non_singular=True)

    def assert_non_singular(self, name="assert_non_singular"):
        return None

    def assert_positive_definite(self, name="assert_positive_definite"):
        return None

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        return None

    def __repr__(self):
        return (f'<tf.linalg.{type(self).__name__} "{self.name}" batch_shape={list(self.batch_shape)} '
                f'shape={list(self.shape)} dtype={self.dtype.name}>')


def _hints(kw):
    return {k: kw.get(k) for k in ("is_non_singular", "is_self_adjoint", "is_positive_definite", "is_square")}


class LinearOperatorFullMatrix(LinearOperator):
    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = _t(matrix)
        super().__init__(self._matrix.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name, {"matrix": matrix})

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorDiag"):
        self._diag = _t(diag)
        if is_self_adjoint is None and not self._diag.dtype.is_complex:
            is_self_adjoint = True
        super().__init__(self._diag.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"diag": diag})

    diag = property(lambda self: self._diag)

    def _to_dense(self):
        return API["linalg.diag"](self._diag)

    def determinant(self, name="det"):
        return API["reduce_prod"](self._diag, axis=-1)

    def diag_part(self, name="diag_part"):
        return self._diag


class LinearOperatorIdentity(LinearOperator):
    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False, name="LinearOperatorIdentity"):
        self._num_rows = int(_t(num_rows).numpy()) if isinstance(num_rows, Tensor) else int(num_rows)
        self._batch = [] if batch_shape is None else [int(d) for d in np.asarray(
            batch_shape.numpy() if isinstance(batch_shape, Tensor) else batch_shape).reshape(-1)]
        super().__init__(dtype or dtypes.float32, None, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name, {"num_rows": num_rows, "batch_shape": batch_shape, "dtype": dtype})

    def _to_dense(self):
        return API["linalg.eye"](self._num_rows, batch_shape=self._batch or None, dtype=self.dtype)


class LinearOperatorScaledIdentity(LinearOperator):
    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorScaledIdentity"):
        self._multiplier = _t(multiplier)
        self._num_rows = int(_t(num_rows).numpy()) if isinstance(num_rows, Tensor) else int(num_rows)
        super().__init__(self._multiplier.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name, {"num_rows": num_rows, "multiplier": multiplier})

    multiplier = property(lambda self: self._multiplier)

    def _to_dense(self):
        eye = API["linalg.eye"](self._num_rows, dtype=self.dtype)
        return API["multiply"](API["expand_dims"](API["expand_dims"](self._multiplier, -1), -1), eye)


class LinearOperatorLowerTriangular(LinearOperator):
    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorLowerTriangular"):
        self._tril = _t(tril)
        super().__init__(self._tril.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"tril": tril})

    def _to_dense(self):
        return API["linalg.band_part"](self._tril, -1, 0)


class LinearOperatorZeros(LinearOperator):
    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        self._rows = int(num_rows)
        self._cols = self._rows if num_columns is None else int(num_columns)
        self._batch = [] if batch_shape is None else [int(d) for d in batch_shape]
        if is_square and self._rows != self._cols:
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got num_rows({self._rows}) != "
                             f"num_columns({self._cols})")
        super().__init__(dtype or dtypes.float32, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         self._rows == self._cols, name, {"num_rows": num_rows, "num_columns": num_columns})

    def _to_dense(self):
        return API["zeros"](self._batch + [self._rows, self._cols], self.dtype)


class LinearOperatorAdjoint(LinearOperator):
    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operator = operator
        super().__init__(operator.dtype, None, operator.is_non_singular, operator.is_self_adjoint,
                         operator.is_positive_definite, operator.is_square, name or operator.name + "_adjoint",
                         {"operator": operator})

    operator = property(lambda self: self._operator)

    def _to_dense(self):
        return API["linalg.adjoint"](self._operator.to_dense())


class LinearOperatorInversion(LinearOperator):
    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operator = operator
        super().__init__(operator.dtype, None, True, operator.is_self_adjoint, operator.is_positive_definite, True,
                         name or operator.name + "_inv", {"operator": operator})

    operator = property(lambda self: self._operator)

    def _to_dense(self):
        return API["linalg.inv"](self._operator.to_dense())


class LinearOperatorComposition(LinearOperator):
    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        self._operators = list(operators)
        super().__init__(self._operators[0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name or "_o_".join(o.name for o in self._operators), {"operators": operators})

    operators = property(lambda self: list(self._operators))

    def _to_dense(self):
        out = self._operators[-1].to_dense()
        for o in reversed(self._operators[:-1]):
            out = o.matmul(out)
        return out


def _block(rows):
    """A dense matrix from rows of blocks (``None``: zeros)."""
    return API["concat"]([API["concat"](row, -1) for row in rows], -2)


class LinearOperatorBlockDiag(LinearOperator):
    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        self._operators = list(operators)
        super().__init__(self._operators[0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name or "_ds_".join(o.name for o in self._operators), {"operators": operators})

    operators = property(lambda self: list(self._operators))

    def _to_dense(self):
        denses = [o.to_dense() for o in self._operators]
        rows = []
        for i, d in enumerate(denses):
            row = [d if j == i else API["zeros"]([int(d.shape[-2]), int(e.shape[-1])], self.dtype)
                   for j, e in enumerate(denses)]
            rows.append(row)
        return _block(rows)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorBlockLowerTriangular"):
        self._operators = [list(row) for row in operators]
        super().__init__(self._operators[0][0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name, {"operators": operators})

    operators = property(lambda self: [list(r) for r in self._operators])

    def _to_dense(self):
        diagonal = [row[-1].to_dense() for row in self._operators]
        rows = []
        for i, row in enumerate(self._operators):
            blocks = [o.to_dense() for o in row]
            blocks += [API["zeros"]([int(diagonal[i].shape[-2]), int(diagonal[j].shape[-1])], self.dtype)
                       for j in range(i + 1, len(self._operators))]
            rows.append(blocks)
        return _block(rows)


class LinearOperatorKronecker(LinearOperator):
    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operators = list(operators)
        super().__init__(self._operators[0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name or "_x_".join(o.name for o in self._operators), {"operators": operators})

    operators = property(lambda self: list(self._operators))

    def _to_dense(self):
        out = self._operators[0].to_dense()
        for o in self._operators[1:]:
            b = o.to_dense()
            m, n = int(out.shape[-2]), int(out.shape[-1])
            p, q = int(b.shape[-2]), int(b.shape[-1])
            prod = API["einsum"]("ij,kl->ikjl", out, b)
            out = API["reshape"](prod, [m * p, n * q])
        return out


class LinearOperatorLowRankUpdate(LinearOperator):
    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        self._base, self._u = base_operator, _t(u, base_operator.dtype)
        self._v = self._u if v is None else _t(v, base_operator.dtype)
        self._d = None if diag_update is None else _t(diag_update, base_operator.dtype)
        super().__init__(base_operator.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name, {"base_operator": base_operator, "u": u, "diag_update": diag_update, "v": v})

    def _to_dense(self):
        u = self._u if self._d is None else API["multiply"](self._u, API["expand_dims"](self._d, -2))
        return API["add"](self._base.to_dense(), API["matmul"](u, self._v, adjoint_b=True))


class LinearOperatorHouseholder(LinearOperator):
    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        self._axis = _t(reflection_axis)
        super().__init__(self._axis.dtype, None, is_non_singular, True, is_positive_definite, True, name,
                         {"reflection_axis": reflection_axis})

    reflection_axis = property(lambda self: self._axis)

    def _to_dense(self):
        v = API["expand_dims"](self._axis, -1)
        n = int(self._axis.shape[-1])
        norm = API["matmul"](v, v, adjoint_a=True)
        outer = API["math.divide"](API["matmul"](v, v, adjoint_b=True), norm)
        return API["subtract"](API["linalg.eye"](n, dtype=self.dtype), API["multiply"](constant(2, self.dtype), outer))


class LinearOperatorPermutation(LinearOperator):
    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        self._perm = _t(perm)
        super().__init__(dtype, None, True, is_self_adjoint, is_positive_definite, True, name,
                         {"perm": perm, "dtype": dtype})

    perm = property(lambda self: self._perm)

    def _to_dense(self):
        return API["one_hot"](self._perm, int(self._perm.shape[-1]), dtype=self.dtype)


class LinearOperatorToeplitz(LinearOperator):
    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        self._col, self._row = _t(col), _t(row)
        super().__init__(self._col.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"col": col, "row": row})

    col = property(lambda self: self._col)
    row = property(lambda self: self._row)

    def _to_dense(self):
        n = int(self._col.shape[-1])
        # [row[n-1] … row[1], col[0] … col[n-1]]; entry (i, j) is col[i - j] or row[j - i]
        line = API["concat"]([API["reverse"](self._row[..., 1:], [-1]), self._col], -1)
        index = (n - 1) + np.arange(n)[:, None] - np.arange(n)[None, :]
        return API["gather"](line, constant(index.astype(np.int32)), axis=-1)


class _Circulant(LinearOperator):
    _rank = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        self._spectrum = _t(spectrum)
        super().__init__(input_output_dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name or type(self).__name__, {"spectrum": spectrum, "input_output_dtype": input_output_dtype})

    spectrum = property(lambda self: self._spectrum)

    def convolution_kernel(self, name="convolution_kernel"):
        spectrum = self._spectrum if self._spectrum.dtype.is_complex else API["cast"](self._spectrum, dtypes.complex64)
        ifft = {1: API["signal.ifft"], 2: API["signal.ifft2d"], 3: API["signal.ifft3d"]}[self._rank]
        h = ifft(spectrum)
        return h if self.dtype.is_complex else API["cast"](API["math.real"](h), self.dtype)

    def _to_dense(self):
        h = self.convolution_kernel()
        dims = [int(d) for d in h.shape[-self._rank:]]
        n = int(np.prod(dims))
        flat = API["reshape"](h, [n])
        grids = np.indices(dims).reshape(self._rank, -1)  # each position's coordinates
        diff = (grids[:, :, None] - grids[:, None, :]) % np.array(dims)[:, None, None]
        index = np.ravel_multi_index(tuple(diff), dims)
        return API["gather"](flat, constant(index.astype(np.int32)))


class LinearOperatorCirculant(_Circulant):
    _rank = 1


class LinearOperatorCirculant2D(_Circulant):
    _rank = 2


class LinearOperatorCirculant3D(_Circulant):
    _rank = 3


class LinearOperatorTridiag(LinearOperator):
    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        from .linalg_more import _compact_diagonals

        self._format = diagonals_format
        self._diagonals = diagonals if diagonals_format == "sequence" else _t(diagonals)
        self._compact = _compact_diagonals(diagonals, diagonals_format)
        super().__init__(self._compact.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name, {"diagonals": diagonals, "diagonals_format": diagonals_format})

    diagonals = property(lambda self: self._diagonals)
    diagonals_format = property(lambda self: self._format)

    def _to_dense(self):
        sup, diag, sub = API["unstack"](self._compact, axis=-2)
        n = int(diag.shape[-1])
        main = API["linalg.diag"](diag)
        if n == 1:
            return main
        upper = API["linalg.diag"](sup[..., :-1], k=1, num_rows=n, num_cols=n)
        lower = API["linalg.diag"](sub[..., 1:], k=-1, num_rows=n, num_cols=n)
        return API["add"](API["add"](main, upper), lower)


for _cls in (LinearOperator, LinearOperatorFullMatrix, LinearOperatorDiag, LinearOperatorIdentity,
             LinearOperatorScaledIdentity, LinearOperatorLowerTriangular, LinearOperatorZeros, LinearOperatorAdjoint,
             LinearOperatorInversion, LinearOperatorComposition, LinearOperatorBlockDiag,
             LinearOperatorBlockLowerTriangular, LinearOperatorKronecker, LinearOperatorLowRankUpdate,
             LinearOperatorHouseholder, LinearOperatorPermutation, LinearOperatorToeplitz, LinearOperatorCirculant,
             LinearOperatorCirculant2D, LinearOperatorCirculant3D, LinearOperatorTridiag):
    public(f"linalg.{_cls.__name__}")(_cls)


CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


@public("linalg.experimental.conjugate_gradient")
def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """Solves ``operator x = rhs`` for a self-adjoint positive definite operator by (preconditioned)
    conjugate gradients; stops when the residual's norm is under ``tol`` times ``rhs``'s, or after ``max_iter``."""
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")
    rhs = _t(rhs, operator.dtype)
    x = API["zeros_like"](rhs) if x is None else _t(x, operator.dtype)
    r = API["subtract"](rhs, operator.matvec(x))
    z = r if preconditioner is None else preconditioner.matvec(r)
    p = z
    gamma = API["reduce_sum"](API["multiply"](API["math.conj"](r) if r.dtype.is_complex else r, z), axis=-1)
    limit = API["multiply"](constant(float(tol), rhs.dtype.real_dtype if rhs.dtype.is_complex else rhs.dtype),
                            API["linalg.norm"](rhs, axis=-1))
    i = 0
    while i < max_iter and bool(API["reduce_any"](API["greater"](API["linalg.norm"](r, axis=-1), limit)).numpy()):
        z_op = operator.matvec(p)
        alpha = API["math.divide"](gamma, API["reduce_sum"](API["multiply"](p, z_op), axis=-1))
        x = API["add"](x, API["multiply"](API["expand_dims"](alpha, -1), p))
        r = API["subtract"](r, API["multiply"](API["expand_dims"](alpha, -1), z_op))
        z = r if preconditioner is None else preconditioner.matvec(r)
        new_gamma = API["reduce_sum"](API["multiply"](r, z), axis=-1)
        beta = API["math.divide"](new_gamma, gamma)
        p = API["add"](z, API["multiply"](API["expand_dims"](beta, -1), p))
        gamma = new_gamma
        i += 1
    return CGState(constant(i, dtypes.int32), x, r, p, gamma)
