"""tf.experimental.numpy's math: NumPy's promotion of the operands, then devtrace's ops
(``add`` is AddV2, ``mean`` Mean, ``dot`` MatMul …)."""

from __future__ import annotations

import builtins

import numpy as np

from ...runtime.tensor import Tensor
from .np_array_ops import _promoted, asarray, ravel, tf
from .np_dtypes import _result_np, default_float, tf_dtype


def _binary(op, promote_float=False):
    def fn(x1, x2):
        a, b = _operands(x1, x2)
        if promote_float and not a.dtype.is_floating and not a.dtype.is_complex:
            a, b = tf("cast")(a, tf_dtype(default_float())), tf("cast")(b, tf_dtype(default_float()))
        return tf(op)(a, b)
    return fn


def _operands(x1, x2):
    dtype = tf_dtype(_result_np(x1, x2))
    return asarray(x1, dtype), asarray(x2, dtype)


def _unary(op, promote_float=False):
    def fn(x):
        x = asarray(x)
        return tf(op)(_float_operand(x) if promote_float else x)
    return fn


add = _binary("add")
subtract = _binary("subtract")
multiply = _binary("multiply")
maximum = _binary("maximum")
minimum = _binary("minimum")
power = _binary("pow")
true_divide = divide = _binary("truediv", promote_float=True)
floor_divide = _binary("math.floordiv")
mod = remainder = _binary("math.floormod")
arctan2 = _binary("atan2", promote_float=True)
equal = _binary("equal")
not_equal = _binary("not_equal")
greater = _binary("greater")
greater_equal = _binary("greater_equal")
less = _binary("less")
less_equal = _binary("less_equal")


def float_power(x1, x2):
    return power(x1, x2)


def divmod(x1, x2):
    return floor_divide(x1, x2), mod(x1, x2)


def _logical(op):
    def fn(x1, x2):
        return tf(op)(asarray(x1, bool), asarray(x2, bool))
    return fn


logical_and = _logical("logical_and")
logical_or = _logical("logical_or")
logical_xor = _logical("math.logical_xor")


def logical_not(x):
    return tf("logical_not")(asarray(x, bool))


sqrt = _unary("sqrt", True)
exp = _unary("exp", True)
log = _unary("math.log", True)
log1p = _unary("math.log1p", True)
expm1 = _unary("math.expm1", True)
sin, cos, tan = _unary("sin", True), _unary("cos", True), _unary("tan", True)
sinh, cosh, tanh = _unary("sinh", True), _unary("cosh", True), _unary("tanh", True)
arcsin, arccos, arctan = _unary("asin", True), _unary("acos", True), _unary("atan", True)
arcsinh, arccosh, arctanh = _unary("asinh", True), _unary("acosh", True), _unary("atanh", True)
reciprocal = _unary("math.reciprocal")
absolute = abs = _unary("abs")
negative = _unary("negative")
sign = _unary("sign")
square = _unary("square")
isnan = _unary("math.is_nan", True)
isinf = _unary("math.is_inf", True)
isfinite = _unary("math.is_finite", True)
conj = conjugate = _unary("math.conj")
real = _unary("math.real")
imag = _unary("math.imag")
angle = _unary("math.angle")


def fabs(x):
    return abs(x)


def _to_float(x):
    x = asarray(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf("cast")(x, tf_dtype(default_float()))


def _float_operand(x):
    """An int operand of a float function, cast with NumPy's ``astype`` as TensorFlow's tnp casts it:
    without ``experimental_enable_numpy_behavior`` that raises TensorFlow's AttributeError."""
    x = asarray(x)
    if x.dtype.is_floating or x.dtype.is_complex:
        return x
    return x.astype(tf_dtype(default_float()))


def positive(x):
    return asarray(x)


def floor(x):
    return tf("floor")(_float_operand(x))


def ceil(x):
    return tf("math.ceil")(_float_operand(x))


def fix(x):
    x = _float_operand(x)
    return tf("where")(x < 0, tf("math.ceil")(x), tf("floor")(x))


def log2(x):
    x = _float_operand(x)
    return tf("math.log")(x) / tf("math.log")(tf("constant")(2, x.dtype))


def log10(x):
    x = _float_operand(x)
    return tf("math.log")(x) / tf("math.log")(tf("constant")(10, x.dtype))


def exp2(x):
    x = _float_operand(x)
    return tf("pow")(tf("constant")(2, x.dtype), x)


def cbrt(x):
    x = _float_operand(x)
    root = tf("pow")(tf("abs")(x), tf("constant")(1 / 3, x.dtype))
    return tf("where")(x < 0, -root, root)


def deg2rad(x):
    x = _float_operand(x)
    return x * tf("constant")(np.pi / 180, x.dtype)


def rad2deg(x):
    x = _float_operand(x)
    return x * tf("constant")(180 / np.pi, x.dtype)


def sinc(x):
    x = _float_operand(x)
    pix = x * tf("constant")(np.pi, x.dtype)
    safe = tf("where")(tf("equal")(x, 0), tf("ones_like")(x), pix)
    return tf("where")(tf("equal")(x, 0), tf("ones_like")(x), tf("sin")(safe) / safe)


def signbit(x):
    x = asarray(x)
    return tf("less")(x, tf("zeros_like")(x)) if not x.dtype.is_bool else tf("zeros_like")(x)


def isneginf(x):
    x = _to_float(x)
    return tf("logical_and")(tf("math.is_inf")(x), x < 0)


def isposinf(x):
    x = _to_float(x)
    return tf("logical_and")(tf("math.is_inf")(x), x > 0)


def iscomplex(x):
    x = asarray(x)
    return tf("not_equal")(tf("math.imag")(x), 0) if x.dtype.is_complex else tf("zeros_like")(x, "bool")


def isreal(x):
    return logical_not(iscomplex(x))


def iscomplexobj(x):
    return asarray(x).dtype.is_complex


def isrealobj(x):
    return not iscomplexobj(x)


def hypot(x1, x2):
    a, b = _operands(x1, x2)
    a, b = _to_float(a), _to_float(b)
    return tf("sqrt")(a * a + b * b)


def logaddexp(x1, x2):
    a, b = (_to_float(v) for v in _operands(x1, x2))
    high = tf("maximum")(a, b)
    return high + tf("math.log1p")(tf("exp")(-tf("abs")(a - b)))


def logaddexp2(x1, x2):
    a, b = (_to_float(v) for v in _operands(x1, x2))
    ln2 = tf("constant")(np.log(2), a.dtype)
    return logaddexp(a * ln2, b * ln2) / ln2


def heaviside(x1, x2):
    a, b = _operands(x1, x2)
    y = tf("where")(a < 0, tf("zeros_like")(a), tf("where")(a > 0, tf("ones_like")(a), b))
    return y if y.dtype.is_floating else y.astype(tf_dtype(default_float()))


def nextafter(x1, x2):
    """One step of the float's bit pattern toward ``x2`` (Bitcast and integer arithmetic)."""
    a, b = _broadcast_pair(*_operands(x1, x2))
    bits = "int32" if a.dtype == tf_dtype("float32") else "int64"
    as_int = tf("bitcast")(a, bits)
    one = tf("ones_like")(as_int)
    up = tf("equal")(tf("greater")(b, a), tf("greater")(a, tf("zeros_like")(a)))
    stepped = tf("bitcast")(tf("where")(up, as_int + one, as_int - one), a.dtype)
    smallest = tf("bitcast")(one, a.dtype)
    from_zero = tf("where")(tf("greater")(b, a), smallest, -smallest)
    result = tf("where")(tf("equal")(a, tf("zeros_like")(a)), from_zero, stepped)
    result = tf("where")(tf("equal")(a, b), b, result)
    nan = tf("logical_or")(tf("math.is_nan")(a), tf("math.is_nan")(b))
    return tf("where")(nan, a + b, result)


def _broadcast_pair(a, b):
    shape = list(np.broadcast_shapes(tuple(a.shape.as_list()), tuple(b.shape.as_list())))
    return tf("broadcast_to")(a, shape), tf("broadcast_to")(b, shape)


def gcd(x1, x2):
    """Euclid's algorithm in a while loop over the broadcast operands, as TensorFlow's."""
    a, b = _broadcast_pair(*(tf("abs")(v) for v in _operands(x1, x2)))

    def keep_going(a, b):
        return tf("reduce_any")(tf("not_equal")(b, tf("zeros_like")(b)))

    def step(a, b):
        nonzero = tf("not_equal")(b, tf("zeros_like")(b))
        divisor = tf("where")(nonzero, b, tf("ones_like")(b))
        return tf("where")(nonzero, b, a), tf("where")(nonzero, tf("math.floormod")(a, divisor), b)

    return tf("while_loop")(keep_going, step, [a, b])[0]


def lcm(x1, x2):
    a, b = _operands(x1, x2)
    divisor = gcd(a, b)
    zero = tf("equal")(divisor, tf("zeros_like")(divisor))
    safe = tf("where")(zero, tf("ones_like")(divisor), divisor)
    return tf("where")(zero, divisor, tf("abs")(tf("math.floordiv")(a, safe) * b))


def _bitwise(name):
    def fn(x1, x2):
        a, b = _operands(x1, x2)
        if a.dtype.is_bool:
            return tf({"and": "logical_and", "or": "logical_or", "xor": "math.logical_xor"}[name])(a, b)
        return tf(f"bitwise.bitwise_{name}")(a, b)
    return fn


bitwise_and, bitwise_or, bitwise_xor = _bitwise("and"), _bitwise("or"), _bitwise("xor")


def bitwise_not(x):
    x = asarray(x)
    return tf("logical_not")(x) if x.dtype.is_bool else tf("bitwise.invert")(x)


def clip(a, a_min, a_max):
    a = asarray(a)
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    a, lo, hi = _promoted([a, a_min, a_max])
    return tf("clip_by_value")(a, lo, hi)


def around(a, decimals=0):
    """As TensorFlow's: rounds in a float dtype, then ``astype`` back (so it needs the NumPy behaviour)."""
    a = asarray(a)
    dtype = a.dtype
    work = a if a.dtype.is_floating or a.dtype.is_complex else a.astype(tf_dtype(default_float()))
    factor = tf("constant")(10.0 ** decimals, work.dtype)
    return (tf("round")(work * factor) / factor).astype(dtype)


round = around


def _float_for_mean(a, dtype):
    if dtype is not None:
        return tf("cast")(a, tf_dtype(dtype))
    return a if a.dtype.is_floating or a.dtype.is_complex else tf("cast")(a, tf_dtype(default_float()))


def _reduce(op, promote_int=False):
    def fn(a, axis=None, dtype=None, keepdims=False):
        a = asarray(a)
        if dtype is not None:
            a = tf("cast")(a, tf_dtype(dtype))
        elif promote_int and (a.dtype.is_integer or a.dtype.is_bool):
            a = tf("cast")(a, "uint64" if a.dtype.is_unsigned else "int64")
        return tf(op)(a, axis=_axis(axis), keepdims=keepdims)
    return fn


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


sum = _reduce("reduce_sum", True)
prod = _reduce("reduce_prod", True)


def _minmax(op):
    def fn(a, axis=None, keepdims=None):
        return tf(op)(asarray(a), axis=_axis(axis), keepdims=bool(keepdims))
    return fn


amax = max = _minmax("reduce_max")
amin = min = _minmax("reduce_min")


def mean(a, axis=None, dtype=None, out=None, keepdims=None):
    return tf("reduce_mean")(_float_for_mean(asarray(a), dtype), axis=_axis(axis), keepdims=bool(keepdims))


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None):
    a = _float_for_mean(asarray(a), dtype)
    centred = a - tf("reduce_mean")(a, axis=_axis(axis), keepdims=True)
    squares = tf("math.real")(centred * tf("math.conj")(centred)) if a.dtype.is_complex else tf("square")(centred)
    total = tf("reduce_sum")(squares, axis=_axis(axis), keepdims=bool(keepdims))
    n = int(np.prod(a.shape.as_list())) // int(np.prod(total.shape.as_list()) or 1) if axis is not None \
        else int(np.prod(a.shape.as_list()))
    return total / tf("constant")(n - ddof, total.dtype)


def std(a, axis=None, keepdims=None):
    return tf("sqrt")(var(a, axis=axis, keepdims=keepdims))


def ptp(a, axis=None, keepdims=None):
    return amax(a, axis, keepdims) - amin(a, axis, keepdims)


def _nan_to(a, value):
    a = asarray(a)
    if not a.dtype.is_floating:
        return a
    return tf("where")(tf("math.is_nan")(a), tf("constant")(value, a.dtype), a)


def nansum(a, axis=None, dtype=None, keepdims=False):
    return sum(_nan_to(a, 0), axis, dtype, keepdims)


def nanprod(a, axis=None, dtype=None, keepdims=False):
    return prod(_nan_to(a, 1), axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=None):
    a = _float_for_mean(asarray(a), dtype)
    valid = tf("cast")(tf("logical_not")(tf("math.is_nan")(a)), a.dtype)
    return nansum(a, axis, None, bool(keepdims)) / tf("reduce_sum")(valid, axis=_axis(axis), keepdims=bool(keepdims))


def average(a, axis=None, weights=None, returned=False):
    if weights is None:
        a = _float_operand(a)
        avg = tf("reduce_mean")(a, axis=axis)
        count = tf("cast")(tf("size")(a) // tf("size")(avg), avg.dtype)
        return (avg, tf("broadcast_to")(count, avg.shape.as_list())) if returned else avg
    a = _to_float(a)
    weights = tf("cast")(asarray(weights), a.dtype)
    if axis is not None and len(weights.shape) == 1 and len(a.shape) > 1:
        shape = [1] * len(a.shape)
        shape[axis] = -1
        weights = tf("reshape")(weights, shape)
    total = tf("reduce_sum")(weights * tf("ones_like")(a), axis=axis)
    avg = tf("reduce_sum")(a * weights, axis=axis) / total
    return (avg, total) if returned else avg


def _arg(op):
    def fn(a, axis=None):
        a = asarray(a)
        if axis is None:
            a, axis = ravel(a), 0
        return tf(op)(a, axis=axis, output_type="int64")
    return fn


argmax = _arg("argmax")
argmin = _arg("argmin")


def _cumulative(op):
    def fn(a, axis=None, dtype=None):
        a = asarray(a)
        if dtype is not None:
            a = tf("cast")(a, tf_dtype(dtype))
        elif a.dtype.is_bool or a.dtype.is_integer and a.dtype.size < 8:
            a = tf("cast")(a, "int64")
        if axis is None:
            a, axis = ravel(a), 0
        return tf(op)(a, axis=axis)
    return fn


cumsum = _cumulative("cumsum")
cumprod = _cumulative("math.cumprod")


def all(a, axis=None, keepdims=None):
    return tf("reduce_all")(asarray(a, bool), axis=_axis(axis), keepdims=bool(keepdims))


def any(a, axis=None, keepdims=None):
    return tf("reduce_any")(asarray(a, bool), axis=_axis(axis), keepdims=bool(keepdims))


def count_nonzero(a, axis=None):
    return tf("math.count_nonzero")(asarray(a), axis=_axis(axis), dtype="int64")


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = (_to_float(v) for v in _operands(a, b))
    close = tf("less_equal")(tf("abs")(a - b), atol + rtol * tf("abs")(b))
    close = tf("logical_or")(tf("equal")(a, b), close)
    if equal_nan:
        close = tf("logical_or")(close, tf("logical_and")(tf("math.is_nan")(a), tf("math.is_nan")(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return tf("reduce_all")(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape.as_list() != a2.shape.as_list():
        return tf("constant")(False)
    return tf("reduce_all")(equal(a1, a2))


def diff(a, n=1, axis=-1):
    a = asarray(a)
    rank = len(a.shape)
    axis = axis + rank if axis < 0 else axis
    for _ in range(n):
        begin = [slice(None)] * rank
        end = [slice(None)] * rank
        begin[axis], end[axis] = slice(1, None), slice(None, -1)
        a = tf("not_equal")(a[tuple(begin)], a[tuple(end)]) if a.dtype.is_bool else a[tuple(begin)] - a[tuple(end)]
    return a


def matmul(x1, x2):
    a, b = _operands(x1, x2)
    if len(a.shape) == 1 and len(b.shape) == 1:
        return tf("reduce_sum")(a * b)
    if len(a.shape) == 1:
        return tf("squeeze")(tf("matmul")(tf("expand_dims")(a, 0), b), -2)
    if len(b.shape) == 1:
        return tf("squeeze")(tf("matmul")(a, tf("expand_dims")(b, -1)), -1)
    return tf("matmul")(a, b)


def dot(a, b):
    a, b = _operands(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    if len(b.shape) <= 2:
        return matmul(a, b)
    return tf("tensordot")(a, b, [[len(a.shape) - 1], [len(b.shape) - 2]])


def vdot(a, b):
    a, b = _operands(a, b)
    return tf("reduce_sum")(tf("math.conj")(ravel(a)) * ravel(b))


def tensordot(a, b, axes=2):
    a, b = _operands(a, b)
    return tf("tensordot")(a, b, axes)


def inner(a, b):
    a, b = _operands(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return tf("tensordot")(a, b, [[len(a.shape) - 1], [len(b.shape) - 1]])


def outer(a, b):
    a, b = _operands(a, b)
    return tf("reshape")(a, [-1, 1]) * tf("reshape")(b, [1, -1])


def kron(a, b):
    """The product of ``a`` spread as (a0, 1, a1, 1 …) and ``b`` as (1, b0, 1, b1 …), merged pairwise."""
    a, b = _operands(a, b)
    rank = builtins.max(len(a.shape), len(b.shape))
    dims_a = [1] * (rank - len(a.shape)) + a.shape.as_list()
    dims_b = [1] * (rank - len(b.shape)) + b.shape.as_list()
    spread_a = tf("reshape")(a, [d for n in dims_a for d in (n, 1)])
    spread_b = tf("reshape")(b, [d for n in dims_b for d in (1, n)])
    return tf("reshape")(spread_a * spread_b, [m * n for m, n in zip(dims_a, dims_b)])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """3-vectors: a Cross on the vectors moved last and broadcast to one shape."""
    from .np_array_ops import moveaxis
    a, b = _operands(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        raise NotImplementedError("devtrace does not implement tf.experimental.numpy.cross of 2-vectors yet")
    shape = list(np.broadcast_shapes(tuple(a.shape.as_list()), tuple(b.shape.as_list())))
    result = tf("linalg.cross")(tf("broadcast_to")(a, shape), tf("broadcast_to")(b, shape))
    if axisc in (-1, len(shape) - 1):
        return result
    return moveaxis(tf("reshape")(result, shape), -1, axisc)


def einsum(subscripts, *operands, **kwargs):
    return tf("einsum")(subscripts, *_promoted(operands))


def polyval(p, x):
    if isinstance(p, (list, tuple)):
        p = [asarray(c) for c in p]
    else:
        p = tf("unstack")(asarray(p))
    x = asarray(x)
    result = tf("zeros_like")(x) if not p else p[0]
    for c in p[1:]:
        result = add(multiply(result, x), c)
    return result


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    return logspace(np.log10(start), np.log10(stop), num, endpoint, 10.0, dtype, axis)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    from .np_array_ops import linspace
    exponents = linspace(start, stop, num, endpoint, axis=axis)
    result = tf("pow")(tf("constant")(base, exponents.dtype), exponents)
    return result if dtype is None else tf("cast")(result, tf_dtype(dtype))


def _is_tensor(x):
    return isinstance(x, Tensor)
