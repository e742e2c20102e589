"""Gradients of the math ops, after TensorFlow's ``math_grad.py``: each is ``fn(op, grad)``
returning one gradient per input (``None``: no gradient). They run as ordinary ops, colocated
with the forward op, so the backward pass is placed, logged and accounted like the forward."""

from __future__ import annotations

import numpy as np

from ...runtime.dtypes import FLOATS
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ..array import array_ops
from . import complex_ops, math_ops, reduction_ops
from ..array.broadcast_grad import reduce_args
from ..declare import gradient, graph_shape, not_differentiable, op, op_scope, unary, with_host_inputs
from .. import shapes

not_differentiable("Less", "LessEqual", "Greater", "GreaterEqual")

# y = sqrt(x): dx = grad * 0.5 / y, one op, as TensorFlow's SqrtGrad
op("SqrtGrad", lambda xp, y, dy: dy * 0.5 / xp.conj(y), FLOATS | {"complex64", "complex128"}, shape=shapes.same)
# y = tanh(x): dx = grad * (1 - y²), one op, as TensorFlow's TanhGrad (given conj(y))
op("TanhGrad", lambda xp, y, dy: dy * (1 - y * y), FLOATS | {"complex64", "complex128"}, shape=shapes.same)


def reduce_to(grad, shape):
    """``grad`` summed over the axes broadcasting added to ``shape`` (TensorFlow's
    BroadcastGradientArgs + Sum + Reshape, computed from the static shapes)."""
    if getattr(shape, "rank", 0) is None or grad.shape.rank is None:  # a py_function's: nothing to reduce by
        return grad
    shape = tuple(shape)
    if tuple(grad.shape) == shape:
        return grad
    lead = len(grad.shape) - len(shape)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape) if d == 1 and grad.shape[lead + i] != 1]
    return array_ops.reshape(math_ops.reduce_sum(grad, axes), _static(shape))


def _conj(x):
    """A complex op's gradient is ``grad * conj(f'(x))`` (TensorFlow's convention): its formulas
    read the conjugates of the op's inputs and outputs (a real tensor is its own: no op)."""
    return complex_ops.conj(x)


def _static(shape) -> list:
    """A shape for ``Reshape``: an unknown dim (a function's batch) is ``-1``."""
    return [-1 if d is None else d for d in shape]


def _reduce_args(op, gx, gy):
    """TensorFlow's ``_ReduceGradientArgs``: each input's gradient summed over the axes broadcasting
    added to it (``broadcast_grad``)."""
    return reduce_args(op, gx, gy, reduce_to)


def _known(t) -> bool:
    return t.shape.rank is not None and None not in tuple(t.shape)


def _same_known(op, grad) -> bool:
    """TensorFlow's ``_ShapesFullySpecifiedAndEqual``: no reduction to do."""
    x, y = op.inputs
    return _known(x) and tuple(x.shape) == tuple(y.shape) == tuple(grad.shape)


def _scalar_skipped(op) -> bool:
    """TensorFlow's fast path: the second input is a scalar whose gradient is not needed."""
    return 1 in op.skip_input_indices and tuple(op.inputs[1].shape) == ()


@gradient("AddV2")
def _add_grad(op, grad):
    if _scalar_skipped(op):
        return grad, None
    if _same_known(op, grad):
        return grad, grad
    skip = op.skip_input_indices
    return _reduce_args(op, None if 0 in skip else grad, None if 1 in skip else grad)


@gradient("Sub")
def _sub_grad(op, grad):
    if _scalar_skipped(op):
        return grad, None
    if _same_known(op, grad):
        return grad, math_ops.negative(grad)
    skip = op.skip_input_indices
    return _reduce_args(op, None if 0 in skip else grad, None if 1 in skip else math_ops.negative(grad))


@gradient("Mul")
def _mul_grad(op, grad):
    x, y = op.inputs
    if _scalar_skipped(op):
        return math_ops.multiply(grad, _conj(y)), None
    if _same_known(op, grad) and grad.dtype.name in ("int32", "float32"):
        return math_ops.multiply(grad, y), math_ops.multiply(grad, x)  # TensorFlow's fast path: both, no reduction
    skip = op.skip_input_indices
    gx = None if 0 in skip else math_ops.multiply(grad, _conj(y))
    gy = None if 1 in skip else math_ops.multiply(grad, _conj(x))
    return _reduce_args(op, gx, gy)


@gradient("RealDiv")
def _real_div_grad(op, grad):
    x, y = (_conj(t) for t in op.inputs)
    skip = op.skip_input_indices
    gx = None if 0 in skip else math_ops.divide(grad, y)
    gy = None
    if 1 not in skip:
        gy = grad * math_ops.divide(math_ops.divide(math_ops.negative(x), y), y)  # TensorFlow's operator: mul
    return _reduce_args(op, gx, gy)


@gradient("Neg")
def _neg_grad(op, grad):
    return (math_ops.negative(grad),)


@gradient("Square")
def _square_grad(op, grad):
    x = _conj(op.inputs[0])
    return (math_ops.multiply(grad, math_ops.multiply(x, array_ops.constant(2, x.dtype))),)


@gradient("Sqrt")
def _sqrt_grad(op, grad):
    return (execute("SqrtGrad", (op.outputs[0], grad)),)


@gradient("SqrtGrad")
def _sqrt_grad_grad(op, grad):
    """Second order: ``z = dy / (2 y)``, so ``dz/dy = -z / y`` and ``dz/d(dy) = 1 / (2 y)`` (TensorFlow's)."""
    y, z = op.inputs[0], op.outputs[0]
    ga = math_ops.divide(grad, y)
    return (math_ops.negative(math_ops.multiply(_conj(ga), z)),
            math_ops.multiply(ga, array_ops.constant(0.5, ga.dtype)))


@gradient("AddN")
def _add_n_grad(op, grad):
    return (grad,) * len(op.inputs)


@gradient("MatMul")
def _matmul_grad(op, grad):
    """TensorFlow's, on the conjugated inputs; an adjoint is a transpose of the conjugate (whose
    gradient is conjugated back); a batch gradient is summed over the dims broadcasting added."""
    a, b = op.inputs
    ca, cb = op.attrs.get("adjoint_a", False), op.attrs.get("adjoint_b", False)
    ta, tb = op.attrs.get("transpose_a", False) or ca, op.attrs.get("transpose_b", False) or cb
    ga, gb = _matmul_parts(a if ca else _conj(a), b if cb else _conj(b), ta, tb, grad, op.skip_input_indices)
    ga = None if ga is None else reduce_to(_conj(ga) if ca else ga, a.shape)
    gb = None if gb is None else reduce_to(_conj(gb) if cb else gb, b.shape)
    return ga, gb


def _matmul_parts(a, b, ta, tb, grad, skip):
    matmul = math_ops.matmul
    if not ta and not tb:
        ga = None if 0 in skip else matmul(grad, b, transpose_b=True)
        gb = None if 1 in skip else matmul(a, grad, transpose_a=True)
    elif not ta and tb:
        ga = None if 0 in skip else matmul(grad, b)
        gb = None if 1 in skip else matmul(grad, a, transpose_a=True)
    elif ta and not tb:
        ga = None if 0 in skip else matmul(b, grad, transpose_b=True)
        gb = None if 1 in skip else matmul(a, grad)
    else:
        ga = None if 0 in skip else matmul(b, grad, transpose_a=True, transpose_b=True)
        gb = None if 1 in skip else matmul(grad, a, transpose_a=True, transpose_b=True)
    return ga, gb


@gradient("Cast")
def _cast_grad(op, grad):
    (x,) = op.inputs
    if not (x.dtype.is_floating or x.dtype.is_complex) or not (grad.dtype.is_floating or grad.dtype.is_complex):
        return (None,)
    return (array_ops.cast(grad, x.dtype),)


@gradient("Reshape")
def _reshape_grad(op, grad):
    """Back to the input's shape: in a graph, TensorFlow's ``array_ops.shape`` of it (a ``Shape``
    Const when fully known, else a ``Shape`` node); a ``Reshape``'s input with one unknown dim (and
    no zero one) by a ``-1`` in its place, as TensorFlow's ``_ReshapeGrad``."""
    (x,) = op.inputs
    shape = graph_shape(x)
    if shape is not None:
        return (with_host_inputs("Reshape", (grad,), (shape,), {"shape": tuple(x.shape)}),)
    dims = None if x.shape.rank is None else tuple(x.shape)
    if context().eager or (op.type == "Reshape" and dims is not None and dims.count(None) == 1 and 0 not in dims):
        return (array_ops.reshape(grad, _static(dims)),)
    hint = None if dims is None else _static(dims)
    return (with_host_inputs("Reshape", (grad,), (array_ops.shape(x),), {"shape": hint}),)


@gradient("Identity")
def _identity_grad(op, grad):
    return (grad,)


@gradient("ReadVariableOp")
def _read_variable_grad(op, grad):
    return (grad,)


stop_gradient = unary("StopGradient", lambda xp, x: x.copy(), None, ("stop_gradient",))
not_differentiable("StopGradient")


@gradient("Sigmoid")
def _sigmoid_grad(op, grad):
    y = _conj(op.outputs[0])
    return (math_ops.multiply(grad, math_ops.multiply(y, math_ops.subtract(array_ops.constant(1, y.dtype), y))),)


@gradient("Tanh")
def _tanh_grad(op, grad):
    return (execute("TanhGrad", (_conj(op.outputs[0]), grad)),)


@gradient("TanhGrad")
def _tanh_grad_grad(op, grad):
    """Second order, TensorFlow's: ``grad * -2 * dy * y`` for ``y``, ``TanhGrad(y, grad)`` for ``dy``."""
    a, b = _conj(op.inputs[0]), _conj(op.inputs[1])
    return grad * -2.0 * b * a, execute("TanhGrad", (a, grad))


def _erf_family(scale):
    """Erf/Erfc: ``grad * scale * exp(-x²)`` (scale ±2/√π), as TensorFlow's."""
    def grad_fn(op, grad):
        x = op.inputs[0]
        factor = array_ops.constant(scale, grad.dtype)
        return (math_ops.multiply(math_ops.multiply(grad, factor), math_ops.exp(math_ops.negative(math_ops.square(x)))),)
    return grad_fn


gradient("Erf")(_erf_family(2 / np.sqrt(np.pi)))
gradient("Erfc")(_erf_family(-2 / np.sqrt(np.pi)))


@gradient("L2Loss")
def _l2_loss_grad(op, grad):
    return (math_ops.multiply(op.inputs[0], grad),)


@gradient("Exp")
def _exp_grad(op, grad):
    return (grad * _conj(op.outputs[0]),)  # TensorFlow's `grad * y`: a node named mul


@gradient("Log")
def _log_grad(op, grad):
    return (math_ops.multiply(grad, math_ops.reciprocal(_conj(op.inputs[0]))),)  # TensorFlow's (its half-precision rounding)


gradient("Sign")(lambda op, grad: (array_ops.zeros_like(op.inputs[0]),))  # TensorFlow's: zeros, not None


@gradient("Abs")
def _abs_grad(op, grad):
    return (math_ops.multiply(grad, math_ops.sign(op.inputs[0])),)


@gradient("Pow")
def _pow_grad(op, grad):
    """As TensorFlow's: conjugates for complex inputs; ``log(x)`` taken as 0 where it is undefined
    (``x <= 0``; complex: ``x == 0``)."""
    x, y = (_conj(t) for t in op.inputs)
    skip = op.skip_input_indices
    one = array_ops.constant(1, x.dtype)
    gx = None if 0 in skip else reduce_to(
        math_ops.multiply(grad, math_ops.multiply(y, math_ops.pow_(x, math_ops.subtract(y, one)))), x.shape)
    gy = None
    if 1 not in skip:
        zeros = array_ops.zeros_like(x)
        defined = math_ops.not_equal(x, zeros) if x.dtype.is_complex else math_ops.greater(x, zeros)
        log_x = array_ops.where(defined, math_ops.log(array_ops.where(defined, x, array_ops.ones_like(x))), zeros)
        gy = reduce_to(math_ops.multiply(grad, math_ops.multiply(_conj(op.outputs[0]), log_x)), y.shape)
    return gx, gy


def _select_grad(op, grad, pick_first):
    x, y = op.inputs
    mask = array_ops.cast(math_ops.greater_equal(x, y) if pick_first else math_ops.less_equal(x, y), grad.dtype)
    rest = math_ops.subtract(array_ops.constant(1, grad.dtype), mask)
    return reduce_to(math_ops.multiply(grad, mask), x.shape), reduce_to(math_ops.multiply(grad, rest), y.shape)


gradient("Maximum")(lambda op, grad: _select_grad(op, grad, True))
gradient("Minimum")(lambda op, grad: _select_grad(op, grad, True))


@gradient("Softmax")
def _softmax_grad(op, grad):
    """TensorFlow's, with its operators (a graph's ``mul``, ``sub`` nodes)."""
    y = op.outputs[0]
    inner = math_ops.reduce_sum(grad * y, -1, keepdims=True)
    return ((grad - inner) * y,)


@gradient("Transpose")
def _transpose_grad(op, grad):
    """Transposed back by the inverse permutation: in a graph TensorFlow's ``InvertPermutation`` of
    the forward node's ``perm`` input, eagerly the inverse computed on the host."""
    perm = op.attrs["perm"]
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    node = getattr(op.outputs[0], "_op", None)  # a graph's forward node
    if node is None or not node._n_host:
        return (array_ops.transpose(grad, inverse),)
    inverted = execute("InvertPermutation", (node._inputs[-1],))
    with op_scope("transpose") as scope:  # array_ops.transpose's scope
        return (with_host_inputs("Transpose", (grad,), (inverted,), {"perm": tuple(inverse)}, scope),)


not_differentiable("Equal", "NotEqual", "ArgMax", "ArgMin", "Shape", "ZerosLike", "OnesLike", "Round", "Floor",
                   "IsNan", "IsInf", "IsFinite", "LogicalAnd", "LogicalOr", "LogicalNot")


# -- more elementwise math (TensorFlow's math_grad.py) -------------------------------------------

def _c(value, like):
    return array_ops.constant(value, like.dtype)


def _unary_grad(op_type, fn):
    """``fn(x, y, grad)`` → the input's gradient, for a one-input op (``x``, ``y`` conjugated: see
    :func:`_conj`)."""
    gradient(op_type)(lambda op, grad: (fn(_conj(op.inputs[0]), _conj(op.outputs[0]), grad),))


def _x2(x):
    return math_ops.multiply(x, x)


_unary_grad("Tan", lambda x, y, g: math_ops.multiply(g, _x2(math_ops.reciprocal(math_ops.cos(x)))))
_unary_grad("Asin", lambda x, y, g: math_ops.multiply(g, math_ops.rsqrt(math_ops.subtract(_c(1, x), _x2(x)))))
_unary_grad("Acos", lambda x, y, g: math_ops.negative(
    math_ops.multiply(g, math_ops.rsqrt(math_ops.subtract(_c(1, x), _x2(x))))))
_unary_grad("Atan", lambda x, y, g: math_ops.multiply(g, math_ops.reciprocal(math_ops.add(_c(1, x), _x2(x)))))
_unary_grad("Sinh", lambda x, y, g: math_ops.multiply(g, math_ops.cosh(x)))
_unary_grad("Cosh", lambda x, y, g: math_ops.multiply(g, math_ops.sinh(x)))
_unary_grad("Asinh", lambda x, y, g: math_ops.divide(g, math_ops.cosh(y)))
_unary_grad("Acosh", lambda x, y, g: math_ops.divide(g, math_ops.sinh(y)))
_unary_grad("Atanh", lambda x, y, g: math_ops.multiply(g, math_ops.reciprocal(math_ops.subtract(_c(1, x), _x2(x)))))
_unary_grad("Softsign", lambda x, y, g: math_ops.divide(g, _x2(math_ops.add(_c(1, x), math_ops.abs_(x)))))
_SELU_SCALE, _SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
_unary_grad("Selu", lambda x, y, g: array_ops.where(
    math_ops.greater(y, _c(0, y)), math_ops.multiply(g, _c(_SELU_SCALE, g)),
    math_ops.multiply(g, math_ops.add(y, _c(_SELU_SCALE * _SELU_ALPHA, y)))))
not_differentiable("Rint", "Ceil", "All", "Any", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "FloorDiv")


@gradient("LeakyRelu")
def _leaky_relu_grad(op, grad):
    x = op.inputs[0]
    alpha = op.attrs.get("alpha", 0.2)
    return (array_ops.where(math_ops.greater(x, _c(0, x)), grad, math_ops.multiply(grad, _c(alpha, grad))),)


@gradient("Atan2")
def _atan2_grad(op, grad):
    y, x = op.inputs
    scale = math_ops.divide(grad, math_ops.add(_x2(x), _x2(y)))
    return reduce_to(math_ops.multiply(x, scale), y.shape), reduce_to(math_ops.negative(math_ops.multiply(y, scale)),
                                                                       x.shape)


@gradient("DivNoNan")
def _div_no_nan_grad(op, grad):
    x, y = (_conj(t) for t in op.inputs)
    gx = reduce_to(math_ops.divide_no_nan(grad, y), x.shape)
    gy = reduce_to(math_ops.multiply(grad, math_ops.divide_no_nan(math_ops.divide_no_nan(math_ops.negative(x), y),
                                                                  y)), y.shape)
    return gx, gy


@gradient("FloorMod")
def _floor_mod_grad(op, grad):
    x, y = op.inputs
    return reduce_to(grad, x.shape), reduce_to(math_ops.multiply(grad, math_ops.negative(math_ops.floordiv(x, y))),
                                               y.shape)


# -- reductions and cumulative ops ---------------------------------------------------------------

def _kept(op) -> list:
    """The reduction's output shape with the reduced dims kept (as ones)."""
    shape = tuple(op.inputs[0].shape)
    axis = op.attrs.get("axis")
    axes = range(len(shape)) if axis is None else ([axis] if isinstance(axis, int) else axis)
    reduced = {a % max(len(shape), 1) for a in axes}
    return [1 if i in reduced else d for i, d in enumerate(shape)]


def _min_or_max_grad(op, grad):
    """The gradient goes to the inputs equal to the result, shared among ties."""
    x, kept = op.inputs[0], _static(_kept(op))
    y = array_ops.reshape(op.outputs[0], kept)
    grad = array_ops.reshape(grad, kept)
    indicators = array_ops.cast(math_ops.equal(y, x), grad.dtype)
    selected = array_ops.reshape(math_ops.reduce_sum(indicators, op.attrs.get("axis")), kept)
    return (math_ops.multiply(math_ops.divide(indicators, selected), grad),)


gradient("Max")(_min_or_max_grad)
gradient("Min")(_min_or_max_grad)


@gradient("Prod")
def _prod_grad(op, grad):
    """The product of every other element: exclusive products from both sides, over the
    reduced elements laid out as one axis (TensorFlow's reshape-and-cumprod)."""
    x = op.inputs[0]
    shape, kept = tuple(x.shape), _static(_kept(op))
    reduced = [i for i, d in enumerate(kept) if d == 1 and shape[i] != 1] or [0]
    if len(reduced) > 1 and len(reduced) != len(shape):
        raise LookupError("gradient registry has no entry for: Prod")
    axis, flat = (0, array_ops.reshape(x, [-1])) if len(reduced) > 1 else (reduced[0], x)
    left = reduction_ops.cumprod(flat, axis, exclusive=True)
    right = reduction_ops.cumprod(flat, axis, exclusive=True, reverse=True)
    others = array_ops.reshape(_conj(math_ops.multiply(left, right)), list(shape))
    return (math_ops.multiply(array_ops.reshape(grad, kept), others),)


@gradient("Cumsum")
def _cumsum_grad(op, grad):
    attrs = op.attrs
    return (reduction_ops.cumsum(grad, attrs["axis"], exclusive=attrs.get("exclusive", False),
                            reverse=not attrs.get("reverse", False)),)


@gradient("Cumprod")
def _cumprod_grad(op, grad):
    x, attrs = op.inputs[0], op.attrs
    exclusive, reverse = attrs.get("exclusive", False), attrs.get("reverse", False)
    prod = reduction_ops.cumprod(x, attrs["axis"], exclusive=exclusive, reverse=reverse)
    out = reduction_ops.cumsum(math_ops.multiply(prod, grad), attrs["axis"], exclusive=exclusive, reverse=not reverse)
    return (math_ops.divide_no_nan(out, x),)
