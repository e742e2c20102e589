"""Gradients of linear-algebra, slicing and scatter ops, after TensorFlow's ``linalg_grad.py``,
``array_grad.py`` and its scatter gradients: each is ``fn(op, grad)`` returning one gradient per
input (``None``: none). Ops without a gradient in TensorFlow (``Unique``, ``Svd`` …) still raise
its ``LookupError``."""

from __future__ import annotations

from ..array import array_ops
from ..math import complex_ops
from ..array import indexing_ops
from . import linalg_ops
from ..array import manip_ops
from ..math import math_ops
from ..array import scatter_ops
from ..declare import gradient, not_differentiable
from ..math.math_grad import reduce_to


def _matmul(a, b, adjoint_a=False, adjoint_b=False):
    return math_ops.matmul(a, b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)


@gradient("MatrixInverse")
def _matrix_inverse_grad(op, grad):
    ainv = op.outputs[0]
    return (math_ops.negative(_matmul(ainv, _matmul(grad, ainv, adjoint_b=True), adjoint_a=True)),)


@gradient("MatrixDeterminant")
def _matrix_determinant_grad(op, grad):
    a, det = op.inputs[0], op.outputs[0]
    inverse_t = linalg_ops.inv(a, adjoint=True)
    scale = array_ops.reshape(math_ops.multiply(grad, det), list(det.shape) + [1, 1])
    return (math_ops.multiply(scale, inverse_t),)


@gradient("MatrixSolve")
def _matrix_solve_grad(op, grad):
    a, adjoint, c = op.inputs[0], op.attrs.get("adjoint", False), op.outputs[0]
    grad_b = linalg_ops.solve(a, grad, adjoint=not adjoint)
    grad_a = math_ops.negative(_matmul(c, grad_b, adjoint_b=True) if adjoint else _matmul(grad_b, c, adjoint_b=True))
    return grad_a, grad_b


@gradient("MatrixBandPart")
def _matrix_band_part_grad(op, grad):
    return (linalg_ops.band_part(grad, op.attrs["num_lower"], op.attrs["num_upper"]),)


@gradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    return (reduce_to(grad, op.inputs[0].shape),)


@gradient("ReverseV2")
def _reverse_grad(op, grad):
    return (array_ops.reverse(grad, list(op.attrs["axis"])),)


@gradient("Slice")
def _slice_grad(op, grad):
    """The slice's gradient padded back to the input's shape with zeros."""
    shape = tuple(op.inputs[0].shape)
    begin, out = op.attrs["begin"], tuple(grad.shape)
    paddings = [[b, d - b - s] for b, d, s in zip(begin, shape, out)]
    return (manip_ops.pad(grad, paddings),)


@gradient("GatherNd")
def _gather_nd_grad(op, grad):
    params, indices = op.inputs
    return scatter_ops.scatter_nd(indices, grad, list(params.shape)), None


@gradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return None, indexing_ops.gather_nd(grad, op.inputs[0])


@gradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    _, indices, updates = op.inputs
    return (scatter_ops.tensor_scatter_nd_update(grad, indices, array_ops.zeros_like(updates)), None,
            indexing_ops.gather_nd(grad, indices))


@gradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    return grad, None, indexing_ops.gather_nd(grad, op.inputs[1])


@gradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    return grad, None, math_ops.negative(indexing_ops.gather_nd(grad, op.inputs[1]))


def _tensor_scatter_min_or_max_grad(op, grad):
    """To the tensor's elements and the updates equal to the result, shared among ties."""
    x, indices, updates = op.inputs
    out = op.outputs[0]
    x_indicators = array_ops.cast(math_ops.equal(x, out), grad.dtype)
    y_indicators = array_ops.cast(math_ops.equal(updates, indexing_ops.gather_nd(out, indices)), grad.dtype)
    indicators = math_ops.add(x_indicators, scatter_ops.scatter_nd(indices, y_indicators, list(x.shape)))
    shared = math_ops.divide(grad, indicators)
    return (math_ops.multiply(shared, x_indicators), None,
            math_ops.multiply(indexing_ops.gather_nd(shared, indices), y_indicators))


gradient("TensorScatterMax")(_tensor_scatter_min_or_max_grad)
gradient("TensorScatterMin")(_tensor_scatter_min_or_max_grad)
not_differentiable("RandomShuffle", "RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal",
                   "StringToNumber", "AsString", "ReduceJoin", "StringFormat", "StringJoin", "StringLength",
                   "StringLower", "StringUpper", "StringStrip", "Substr", "StaticRegexFullMatch",
                   "StaticRegexReplace")


def _einsum_operand_grad(grad, out, others, labels, target):
    """The gradient of one operand (``labels``): ``grad`` contracted with the other operands,
    broadcast over the labels the forward pass summed away, then put on the diagonals its
    repeated labels (a trace, ``ii``) read."""
    dims = dict(zip(labels, tuple(target.shape)))
    unique = "".join(dict.fromkeys(labels))
    known = set(out).union(*[set(o) for _, o in others])
    kept = "".join(c for c in unique if c in known)
    spec = ",".join([out] + [o for _, o in others]) + "->" + kept
    g = linalg_ops.einsum(spec, grad, *[t for t, _ in others])
    if kept != unique:
        shape = [dims[c] if c in known else 1 for c in unique]
        g = math_ops.multiply(array_ops.reshape(g, shape), array_ops.ones([dims[c] for c in unique], g.dtype))
    if unique == labels:
        return g
    fresh = iter(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in labels + out)
    renamed, eyes = "", []
    for c in labels:
        if c in renamed:
            renamed += next(fresh)
            eyes.append((c + renamed[-1], linalg_ops.eye(dims[c], dtype=g.dtype)))
        else:
            renamed += c
    return linalg_ops.einsum(",".join([unique] + [e for e, _ in eyes]) + "->" + renamed, g, *[t for _, t in eyes])


def _explicit_einsum(equation, inputs):
    """``(operand labels, output labels)`` of an equation: an implicit output made explicit (the
    labels used once, sorted), an ellipsis replaced by labels of its own (right-aligned)."""
    lhs, arrow, out = equation.partition("->")
    specs = lhs.split(",")
    if not arrow:
        letters = [c for c in lhs if c.isalpha()]
        out = ("..." if "..." in lhs else "") + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    if "..." in equation:
        extra = [len(x.shape) - len(spec) + 3 for x, spec in zip(inputs, specs) if "..." in spec]
        fresh = "".join(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in equation)[:max(extra)]
        specs = [spec.replace("...", fresh[len(fresh) - len(x.shape) + len(spec) - 3:]) for x, spec in zip(inputs, specs)]
        out = out.replace("...", fresh)
    sizes = {}
    for x, spec in zip(inputs, specs):
        for c, d in zip(spec, tuple(x.shape)):
            if sizes.setdefault(c, d) != d or len(set(out)) != len(out):  # broadcast dims, or an output trace
                raise LookupError("gradient registry has no entry for: Einsum")
    return specs, out


@gradient("Einsum")
def _einsum_grad(op, grad):
    """TensorFlow's einsum gradient (on the conjugated operands): contractions, outer products,
    transposes, reductions and traces, with ellipses standing for the same dims in every operand."""
    specs, out = _explicit_einsum(op.attrs["equation"].replace(" ", ""), op.inputs)
    inputs = [complex_ops.conj(x) for x in op.inputs]
    grads = []
    for k, (x, labels) in enumerate(zip(inputs, specs)):
        others = [(t, s) for j, (t, s) in enumerate(zip(inputs, specs)) if j != k]
        grads.append(_einsum_operand_grad(grad, out, others, labels, x))
    return grads


@gradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, grad):
    return (linalg_ops.set_diag(array_ops.zeros_like(op.inputs[0]), grad),)


def _adjoint(x):
    return linalg_ops.matrix_transpose(x, conjugate=True)


def _triangle(x, lower):
    return linalg_ops.band_part(x, -1, 0) if lower else linalg_ops.band_part(x, 0, -1)


@gradient("MatrixTriangularSolve")
def _triangular_solve_grad(op, grad):
    a, c, lower = op.inputs[0], op.outputs[0], op.attrs.get("lower", True)
    adjoint = op.attrs.get("adjoint", False)
    grad_b = linalg_ops.solve(_triangle(a, lower), grad, adjoint=not adjoint)
    grad_a = math_ops.negative(_matmul(c, grad_b, adjoint_b=True) if adjoint else _matmul(grad_b, c, adjoint_b=True))
    return _triangle(grad_a, lower), grad_b


@gradient("Cholesky")
def _cholesky_grad(op, grad):
    """TensorFlow's: Φ(Lᴴ·Ḡ) with the diagonal halved, pushed through L⁻¹ on both sides, symmetrised."""
    chol = op.outputs[0]
    n = tuple(chol.shape)[-1]
    chol_inverse = linalg_ops.solve(_triangle(chol, True), linalg_ops.eye(n, dtype=chol.dtype))
    middle = _matmul(chol, grad, adjoint_a=True)
    middle = linalg_ops.set_diag(middle, math_ops.multiply(linalg_ops.diag_part(middle), array_ops.constant(
        0.5, chol.dtype)))
    middle = linalg_ops.band_part(middle, -1, 0)
    grad_a = _matmul(_matmul(chol_inverse, middle, adjoint_a=True), chol_inverse)
    grad_a = math_ops.add(grad_a, _adjoint(grad_a))
    return (math_ops.multiply(grad_a, array_ops.constant(0.5, chol.dtype)),)


@gradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, _sign_grad, grad):
    a = op.inputs[0]
    scale = array_ops.reshape(grad, list(grad.shape) + [1, 1])
    return (math_ops.multiply(scale, linalg_ops.inv(a, adjoint=True)),)


@gradient("MatrixDiagV3")
def _matrix_diag_grad(op, grad):
    return (linalg_ops.diag_part(grad),)


@gradient("MatrixSetDiagV3")
def _matrix_set_diag_grad(op, grad):
    diagonal = op.inputs[1]
    return linalg_ops.set_diag(grad, array_ops.zeros_like(diagonal)), linalg_ops.diag_part(grad)


@gradient("Cross")
def _cross_grad(op, grad):
    a, b = op.inputs
    return linalg_ops.cross(b, grad), linalg_ops.cross(grad, a)


@gradient("SelfAdjointEigV2")
def _self_adjoint_eig_grad(op, grad_e, grad_v=None):
    """TensorFlow's: V (diag(Ē) + F ∘ VᴴV̄) Vᴴ, F the inverse eigenvalue gaps, symmetrised
    (eigenvalues only: V computed again, Ē alone)."""
    if grad_v is None:
        e, v = linalg_ops.eigh(op.inputs[0])
        inner = linalg_ops.diag(grad_e)
    else:
        e, v = op.outputs
        gaps = math_ops.subtract(array_ops.expand_dims(e, -2), array_ops.expand_dims(e, -1))
        f = linalg_ops.set_diag(math_ops.reciprocal(linalg_ops.set_diag(gaps, array_ops.ones_like(e))),
                                array_ops.zeros_like(e))
        inner = math_ops.add(linalg_ops.diag(grad_e), math_ops.multiply(f, _matmul(v, grad_v, adjoint_a=True)))
    grad_a = _matmul(v, _matmul(inner, v, adjoint_b=True))
    grad_a = linalg_ops.band_part(math_ops.add(grad_a, _adjoint(grad_a)), -1, 0)
    return (linalg_ops.set_diag(grad_a, math_ops.multiply(linalg_ops.diag_part(grad_a),
                                                          array_ops.constant(0.5, grad_a.dtype))),)


def _right_solve_adjoint(x, r):
    """``x · r⁻ᴴ`` for an upper-triangular ``r``."""
    return _adjoint(linalg_ops.solve(_triangle(r, False), _adjoint(x)))


@gradient("Qr")
def _qr_grad(op, dq, dr):
    """TensorFlow's QR gradient: a square or deep matrix directly, a wide one ``[X | Y]`` through its
    square part; complex matrices with the correction of the diagonal's imaginary part."""
    a = op.inputs[0]
    q, r = op.outputs
    rows, cols = tuple(a.shape)[-2:]  # the input's: a function graph does not know the outputs' shapes
    if rows > cols and op.attrs.get("full_matrices"):
        raise NotImplementedError(f"QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
                                  f"r.shape={tuple(a.shape)} with nrows={rows}and ncols={cols}.")
    if rows >= cols:
        return (_qr_grad_deep(q, r, dq, dr),)
    y, dv = a[..., :, rows:], dr[..., :, rows:]
    dx = _qr_grad_deep(q, r[..., :, :rows], math_ops.add(dq, _matmul(y, dv, adjoint_b=True)), dr[..., :, :rows])
    return (array_ops.concat([dx, _matmul(q, dv)], -1),)


def _qr_grad_deep(q, r, dq, dr):
    qdq = _matmul(q, dq, adjoint_a=True)
    rdr = _matmul(r, dr, adjoint_b=True)
    tril = linalg_ops.band_part(math_ops.add(math_ops.subtract(qdq, _adjoint(qdq)),
                                             math_ops.subtract(rdr, _adjoint(rdr))), -1, 0)
    grad_a = _matmul(q, math_ops.add(dr, _right_solve_adjoint(tril, r)))
    grad_b = _right_solve_adjoint(math_ops.subtract(dq, _matmul(q, qdq)), r)
    out = math_ops.add(grad_a, grad_b)
    if q.dtype.is_complex:
        m = math_ops.subtract(rdr, _adjoint(qdq))
        diagonal = linalg_ops.diag_part(m)
        imaginary = math_ops.subtract(diagonal, array_ops.cast(complex_ops.real(diagonal), q.dtype))
        correction = linalg_ops.set_diag(array_ops.zeros_like(m), imaginary)
        out = math_ops.add(out, _right_solve_adjoint(_matmul(q, _adjoint(correction)), r))
    return out


def _safe_reciprocal(x):
    return math_ops.multiply(x, math_ops.reciprocal(math_ops.add(math_ops.multiply(x, x),
                                                                 array_ops.constant(1e-20, x.dtype))))


def _svd_grad_core(s, u, v, grads, m, n, full):
    """TensorFlow's SVD gradient for ``m <= n`` (``full``: V square, when ``n - m <= 1``)."""
    grad_s, grad_u, grad_v = grads
    s_mat, s2, s_inv = linalg_ops.diag(s), math_ops.multiply(s, s), linalg_ops.diag(_safe_reciprocal(s))
    f = linalg_ops.set_diag(_safe_reciprocal(math_ops.subtract(array_ops.expand_dims(s2, -2),
                                                               array_ops.expand_dims(s2, -1))), array_ops.zeros_like(s))
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    v_gv = _matmul(v1, grad_v1, adjoint_a=True)
    f_u = math_ops.multiply(f, _matmul(u, grad_u, adjoint_a=True))
    f_v = math_ops.multiply(f, v_gv)
    inner = math_ops.add(math_ops.add(linalg_ops.diag(grad_s), _matmul(math_ops.add(f_u, _adjoint(f_u)), s_mat)),
                         _matmul(s_mat, math_ops.add(f_v, _adjoint(f_v))))
    grad = _matmul(u, _matmul(inner, v1, adjoint_b=True))
    if n != m:
        gv1t = _adjoint(grad_v1)
        rest = math_ops.subtract(gv1t, _matmul(_matmul(gv1t, v1), v1, adjoint_b=True))
        if full:
            rest = math_ops.subtract(rest, _matmul(_matmul(v1, grad_v[..., :, m:], adjoint_a=True), v[..., :, m:],
                                                   adjoint_b=True))
        grad = math_ops.add(grad, _matmul(_matmul(u, s_inv), rest))
    if s.dtype.is_complex:  # the phase of each singular pair
        diagonal = linalg_ops.diag(linalg_ops.diag_part(v_gv))
        term = _matmul(u, _matmul(_matmul(s_inv, math_ops.subtract(_adjoint(diagonal), diagonal)), v1, adjoint_b=True))
        grad = math_ops.add(grad, math_ops.multiply(term, array_ops.constant(0.5, term.dtype)))
    return grad


def _value_text(t) -> str:
    """How TensorFlow's message shows a tensor: its values (eagerly), else the symbolic tensor."""
    return str(t.numpy()) if t._device is not None else str(t)


@gradient("Svd")
def _svd_grad(op, grad_s, grad_u=None, grad_v=None):
    """TensorFlow's SVD gradient (singular values only, or U and V; full ones when ``|m - n| <= 1``)."""
    a = op.inputs[0]
    grad_s = array_ops.cast(grad_s, a.dtype)
    if not op.attrs.get("compute_uv", True):
        _, u, v = linalg_ops.svd(a)
        return (_matmul(u, _matmul(linalg_ops.diag(grad_s), v, adjoint_b=True)),)
    s, u, v = op.outputs
    s = array_ops.cast(s, a.dtype)
    m, n = tuple(a.shape)[-2:]
    full = op.attrs.get("full_matrices", False)
    if full and abs(m - n) > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
                                  f"Received: m={min(m, n)} and n={max(m, n)} from op input={_value_text(a)} with shape={tuple(a.shape)}.")
    if m > n:  # the gradient of Aᴴ = V S Uᴴ, transposed back
        return (_adjoint(_svd_grad_core(s, v, u, (grad_s, grad_v, grad_u), n, m, full)),)
    return (_svd_grad_core(s, u, v, (grad_s, grad_u, grad_v), m, n, full),)


@gradient("MatrixExponential")
def _matrix_exponential_grad(op, grad):
    """The upper-right block of exp([[Aᴴ, Ḡ], [0, Aᴴ]]) (the Fréchet derivative's adjoint)."""
    a_t = _adjoint(op.inputs[0])  # Aᴴ
    n = tuple(a_t.shape)[-1]
    zeros = array_ops.zeros_like(a_t)
    block = array_ops.concat([array_ops.concat([a_t, grad], -1), array_ops.concat([zeros, a_t], -1)], -2)
    return (linalg_ops.expm(block)[..., :n, n:],)


@gradient("MatrixSolveLs")
def _matrix_solve_ls_grad(op, grad):
    """TensorFlow's least-squares gradient through the regularised Gramian (over- and
    under-determined systems)."""
    if not op.attrs.get("fast", True):
        raise ValueError("Gradient not defined for fast=False")
    a, b = op.inputs[0], op.inputs[1]
    x = op.outputs[0]
    m, n = tuple(a.shape)[-2:]
    l2 = float(op.attrs.get("l2_regularizer", 0.0))
    if m >= n:
        gram = _matmul(a, a, adjoint_a=True)
        gram = math_ops.add(gram, linalg_ops.eye(n, dtype=a.dtype) * l2) if l2 else gram
        z = linalg_ops.solve(gram, grad)
        xzt = _matmul(x, z, adjoint_b=True)
        grad_a = math_ops.add(math_ops.negative(_matmul(a, math_ops.add(xzt, _adjoint(xzt)))),
                              _matmul(b, z, adjoint_b=True))
        return grad_a, _matmul(a, z)
    gram = _matmul(a, a, adjoint_b=True)
    gram = math_ops.add(gram, linalg_ops.eye(m, dtype=a.dtype) * l2) if l2 else gram
    grad_b = linalg_ops.solve(gram, _matmul(a, grad))
    tmp = linalg_ops.solve(gram, b)
    a1 = math_ops.negative(_matmul(grad_b, _matmul(tmp, a, adjoint_a=True)))
    a2 = _matmul(tmp, math_ops.subtract(grad, _matmul(a, grad_b, adjoint_a=True)), adjoint_b=True)
    return math_ops.add(a1, a2), grad_b


@gradient("Eig")
def _eig_grad(op, grad_e, grad_v):
    """TensorFlow's (distinct eigenvalues): A's gradient solves Vᴴ X = M Vᴴ, M = diag(Ē) plus, with
    the eigenvectors, the conjugated inverse eigenvalue gaps times Vᴴ V̄ less its real diagonal's part;
    cast back to the input's dtype (a real input: the real part)."""
    a = op.inputs[0]
    if op.attrs.get("compute_v", True):
        e, v = op.outputs
        vh = _adjoint(v)
        gaps = math_ops.subtract(array_ops.expand_dims(e, -2), array_ops.expand_dims(e, -1))
        f = complex_ops.conj(linalg_ops.set_diag(_safe_reciprocal(gaps), array_ops.zeros_like(e)))
        vgv = _matmul(vh, grad_v)
        real_diagonal = linalg_ops.diag(array_ops.cast(complex_ops.real(linalg_ops.diag_part(vgv)), vgv.dtype))
        mid = math_ops.add(linalg_ops.diag(grad_e),
                           math_ops.multiply(f, math_ops.subtract(vgv, _matmul(_matmul(vh, v), real_diagonal))))
    else:
        vh = _adjoint(linalg_ops.eig(a)[1])
        mid = linalg_ops.diag(grad_e)
    return (array_ops.cast(linalg_ops.solve(vh, _matmul(mid, vh)), a.dtype),)
