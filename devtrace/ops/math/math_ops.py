"""Math ops: elementwise arithmetic and comparisons, matrix products, sums.

Adding an elementwise op is one line here — e.g.
``sqrt = unary("Sqrt", lambda xp, x: xp.sqrt(x), FLOATS | {"complex64", "complex128"}, ("sqrt", "math.sqrt"))`` — plus its test.
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import blas_threads, dtypes, weak
from ...runtime.dtypes import FLOATS, INTEGERS, NUMERIC, REAL
from ...runtime.eager.executor import execute, execute_binary
from ...runtime.tensor import Tensor
from ...runtime.registry import CPU, GPU
from ...runtime.tensor_shape import shape_text
from ...runtime.values import constant
from .. import shapes
from ...runtime import context as _context_mod
from ...runtime.context import context
from ..declare import (COMPOSITE, DISPATCH, OP_FUNCTIONS, as_tensor, binary, composite_of, dynamic_reduce, host_arg,
                       on_host, op, op_function, op_scope, pair, public, quiet, reduce, scoped, symbolic, unary,
                       unknown_rank_axes, weak_binary, weak_convert)
from ..control_flow.list_ops import add_lists
from ..tensor_protocols import install_python_protocols

op("AddV2", lambda xp, a, b: a + b, NUMERIC, shape=shapes.broadcast, ufunc=np.add)
op("Add", lambda xp, a, b: xp.asarray(a + b, dtype=object), {"string"}, devices=(CPU,), shape=shapes.broadcast)  # strings: concatenation
subtract = binary("Sub", lambda xp, a, b: a - b, NUMERIC, ("subtract", "math.subtract"), ufunc=np.subtract)
multiply = binary("Mul", lambda xp, a, b: a * b, NUMERIC, ("multiply", "math.multiply"), ufunc=np.multiply)
divide = binary("RealDiv", quiet(lambda xp, a, b: a / b), NUMERIC, ("divide", "math.divide", "realdiv"),
                name_scope=True, ufunc=np.true_divide)
less = binary("Less", lambda xp, a, b: a < b, NUMERIC, ("less", "math.less"), shape=shapes.broadcast_bool,
              ufunc=np.less)
less_equal = binary("LessEqual", lambda xp, a, b: a <= b, NUMERIC, ("less_equal", "math.less_equal"),
                    shape=shapes.broadcast_bool, ufunc=np.less_equal)
greater = binary("Greater", lambda xp, a, b: a > b, NUMERIC, ("greater", "math.greater"),
                 shape=shapes.broadcast_bool, ufunc=np.greater)
greater_equal = binary("GreaterEqual", lambda xp, a, b: a >= b, NUMERIC, ("greater_equal", "math.greater_equal"),
                       shape=shapes.broadcast_bool, ufunc=np.greater_equal)
negative = unary("Neg", lambda xp, a: -a, NUMERIC, ("negative", "math.negative"))
square = unary("Square", lambda xp, a: a * a, NUMERIC, ("square", "math.square"), ufunc=np.square)
sqrt = unary("Sqrt", quiet(lambda xp, x: xp.sqrt(x)), FLOATS | {"complex64", "complex128"}, ("sqrt", "math.sqrt"),
             ufunc=np.sqrt)
_FLOATS_C = FLOATS | {"complex64", "complex128"}
abs_ = unary("Abs", lambda xp, x: xp.abs(x), REAL, ("abs", "math.abs"), name_scope=True)
sign = unary("Sign", lambda xp, x: xp.sign(x), NUMERIC, ("sign", "math.sign"))
exp = unary("Exp", quiet(lambda xp, x: xp.exp(x)), _FLOATS_C, ("exp", "math.exp"))
expm1 = unary("Expm1", quiet(lambda xp, x: xp.expm1(x)), _FLOATS_C, ("math.expm1",))
log = unary("Log", quiet(lambda xp, x: xp.log(x)), _FLOATS_C, ("math.log",))
log1p = unary("Log1p", quiet(lambda xp, x: xp.log1p(x)), _FLOATS_C, ("math.log1p",))
def widened(fn):
    """A kernel of several steps computed in float32 for half-precision inputs and rounded once, as
    Eigen's half arithmetic does."""
    def kernel(xp, x):
        return fn(xp, x.astype(xp.float32)).astype(x.dtype) if x.dtype.itemsize == 2 else fn(xp, x)
    return kernel


rsqrt = unary("Rsqrt", quiet(widened(lambda xp, x: 1 / xp.sqrt(x))), _FLOATS_C, ("math.rsqrt",))
reciprocal = unary("Reciprocal", quiet(lambda xp, x: 1 / x), _FLOATS_C, ("math.reciprocal",))
sin = unary("Sin", lambda xp, x: xp.sin(x), _FLOATS_C, ("sin", "math.sin"))
cos = unary("Cos", lambda xp, x: xp.cos(x), _FLOATS_C, ("cos", "math.cos"))
tan = unary("Tan", lambda xp, x: xp.tan(x), _FLOATS_C, ("tan", "math.tan"))
asin = unary("Asin", quiet(lambda xp, x: xp.arcsin(x)), _FLOATS_C, ("asin", "math.asin"))
acos = unary("Acos", quiet(lambda xp, x: xp.arccos(x)), _FLOATS_C, ("acos", "math.acos"))
atan = unary("Atan", lambda xp, x: xp.arctan(x), _FLOATS_C, ("atan", "math.atan"))
sinh = unary("Sinh", lambda xp, x: xp.sinh(x), _FLOATS_C, ("sinh", "math.sinh"))
cosh = unary("Cosh", lambda xp, x: xp.cosh(x), _FLOATS_C, ("cosh", "math.cosh"))
tanh = unary("Tanh", lambda xp, x: xp.tanh(x), _FLOATS_C, ("tanh", "math.tanh", "nn.tanh"))
asinh = unary("Asinh", lambda xp, x: xp.arcsinh(x), _FLOATS_C, ("asinh", "math.asinh"))
acosh = unary("Acosh", quiet(lambda xp, x: xp.arccosh(x)), _FLOATS_C, ("acosh", "math.acosh"))
atanh = unary("Atanh", quiet(lambda xp, x: xp.arctanh(x)), _FLOATS_C, ("atanh", "math.atanh"))
floor = unary("Floor", lambda xp, x: xp.floor(x), FLOATS, ("floor", "math.floor"))
ceil = unary("Ceil", lambda xp, x: xp.ceil(x), FLOATS, ("math.ceil",))
round_ = unary("Round", lambda xp, x: xp.round(x), NUMERIC, ("round", "math.round"))  # half to even, as TF
rint = unary("Rint", lambda xp, x: xp.rint(x), FLOATS, ("math.rint",))


def _on_host_each(fn):
    """A kernel applying a scalar ``math`` function to each element (on the host: NumPy has none)."""
    def kernel(xp, x):
        host = on_host(xp, x)
        return xp.asarray(np.asarray(np.frompyfunc(fn, 1, 1)(host.astype(np.float64))).astype(host.dtype))  # 0-d: a float
    return kernel


erf = unary("Erf", _on_host_each(math.erf), FLOATS, ("math.erf",))
erfc = unary("Erfc", _on_host_each(math.erfc), FLOATS, ("math.erfc",))
lgamma = unary("Lgamma", _on_host_each(lambda v: math.lgamma(v) if v > 0 or v != int(v) else math.inf), FLOATS,
               ("math.lgamma", "compat.v1.lgamma"))
is_nan = unary("IsNan", lambda xp, x: xp.isnan(x), FLOATS, ("math.is_nan",), shape=shapes.same_bool)
is_inf = unary("IsInf", lambda xp, x: xp.isinf(x), FLOATS, ("math.is_inf",), shape=shapes.same_bool)
is_finite = unary("IsFinite", lambda xp, x: xp.isfinite(x), FLOATS, ("math.is_finite",), shape=shapes.same_bool)
logical_not = unary("LogicalNot", lambda xp, x: xp.logical_not(x), {"bool"}, ("logical_not", "math.logical_not"))


def _pow(xp, a, b):
    if b.dtype.kind in "iu" and (b < 0).any():
        raise ValueError("Integers to negative integer powers are not allowed")
    return xp.power(a, b)


pow_ = binary("Pow", quiet(_pow), NUMERIC, ("pow", "math.pow"), name_scope=True)
maximum = binary("Maximum", lambda xp, a, b: xp.maximum(a, b), REAL, ("maximum", "math.maximum"), ufunc=np.maximum)
minimum = binary("Minimum", lambda xp, a, b: xp.minimum(a, b), REAL, ("minimum", "math.minimum"), ufunc=np.minimum)


def _integer_division(fn):
    """An integer division kernel raises TensorFlow's error for a zero divisor (NumPy gives 0)."""
    def kernel(xp, a, b):
        if b.dtype.kind in "iu" and not b.all():
            raise ValueError("Integer division by zero")
        return fn(xp, a, b)
    return kernel


def _truncate_div(xp, a, b):
    if a.dtype.kind in "iu":
        return (xp.sign(a) * xp.sign(b) * (xp.abs(a) // xp.abs(b))).astype(a.dtype)
    return xp.trunc(a / b)


floordiv = binary("FloorDiv", quiet(_integer_division(lambda xp, a, b: xp.floor_divide(a, b))), REAL,
                  ("math.floordiv", "compat.v1.floordiv"), name_scope=True)
floormod = binary("FloorMod", quiet(_integer_division(lambda xp, a, b: xp.mod(a, b))), REAL,
                  ("math.floormod", "math.mod", "compat.v1.mod"))
truncatediv = binary("TruncateDiv", quiet(_integer_division(_truncate_div)), REAL, ("truncatediv", "math.truncatediv"))
truncatemod = binary("TruncateMod", _integer_division(lambda xp, a, b: xp.fmod(a, b)), REAL,
                     ("truncatemod", "math.truncatemod"))
squared_difference = binary("SquaredDifference", lambda xp, a, b: (a - b) * (a - b), NUMERIC,
                            ("math.squared_difference",))
atan2 = binary("Atan2", lambda xp, a, b: xp.arctan2(a, b), FLOATS, ("math.atan2", "atan2"))
divide_no_nan = binary("DivNoNan", lambda xp, a, b: xp.where(b == 0, xp.zeros_like(a), a / xp.where(b == 0, 1, b)),
                       _FLOATS_C, ("math.divide_no_nan", "compat.v1.div_no_nan"), name_scope=True)


def _comparison(same):
    def kernel(xp, a, b, incompatible_shape_error=True):
        if not incompatible_shape_error:  # ``==``/``!=``: shapes that do not broadcast are simply unequal
            try:
                np.broadcast_shapes(a.shape, b.shape)  # shapes only (CuPy has no broadcast_shapes)
            except ValueError:
                return xp.asarray(not same)
        return a == b if same else a != b
    return kernel


equal = binary("Equal", _comparison(True), dtypes.NUMERIC | {"bool", "string"}, ("equal", "math.equal"),
               shape=shapes.broadcast_bool)
not_equal = binary("NotEqual", _comparison(False), dtypes.NUMERIC | {"bool", "string"},
                   ("not_equal", "math.not_equal"), shape=shapes.broadcast_bool)
logical_and = binary("LogicalAnd", lambda xp, a, b: xp.logical_and(a, b), {"bool"}, ("logical_and", "math.logical_and"),
                     fixed=dtypes.bool_)
logical_or = binary("LogicalOr", lambda xp, a, b: xp.logical_or(a, b), {"bool"}, ("logical_or", "math.logical_or"),
                    fixed=dtypes.bool_)
bitwise_and = binary("BitwiseAnd", lambda xp, a, b: a & b, INTEGERS, ("bitwise.bitwise_and",))
bitwise_or = binary("BitwiseOr", lambda xp, a, b: a | b, INTEGERS, ("bitwise.bitwise_or",))
bitwise_xor = binary("BitwiseXor", lambda xp, a, b: a ^ b, INTEGERS, ("bitwise.bitwise_xor",))
invert = unary("Invert", lambda xp, x: ~x, INTEGERS, ("bitwise.invert",))
left_shift = binary("LeftShift", lambda xp, a, b: xp.left_shift(a, b), INTEGERS, ("bitwise.left_shift",))
right_shift = binary("RightShift", lambda xp, a, b: xp.right_shift(a, b), INTEGERS, ("bitwise.right_shift",))


def _zero_where(xp, a, condition, compute):
    """``compute()``, but 0 where ``condition`` holds (the ``…NoNan``/``X…y`` ops' rule)."""
    with np.errstate(all="ignore"):
        value = compute()
    return xp.where(condition, xp.zeros((), a.dtype), value).astype(a.dtype)


xlogy = binary("Xlogy", quiet(lambda xp, a, b: _zero_where(xp, a, a == 0, lambda: a * xp.log(b))), _FLOATS_C, ("math.xlogy",))
xdivy = binary("Xdivy", quiet(lambda xp, a, b: _zero_where(xp, a, a == 0, lambda: a / b)), _FLOATS_C, ("math.xdivy",))
multiply_no_nan = binary("MulNoNan", lambda xp, a, b: _zero_where(xp, a, b == 0, lambda: a * b), _FLOATS_C,
                         ("math.multiply_no_nan",))


def add(x, y, name=None):
    """``y`` converts with ``x``'s dtype as a hint only (``int + 1.5`` reaches the kernel: TensorFlow's
    dtype error); strings concatenate through ``Add``. In a graph, inside TensorFlow's ``Add`` scope
    (constants ``Add/x``, ``Add/y``)."""
    if type(x) is not Tensor or type(y) is not Tensor:
        if type(x) in COMPOSITE or type(y) in COMPOSITE:
            return composite_of(x, y).binary(add, x, y, name)
        if weak.MODE is not None and context().eager:
            out = weak_binary("AddV2", x, y, scoped(name) if name else name, None)
            if out is not None:
                return out
        if not (_context_mod._context or context()).eager:  # the module's context read first: no call
            if isinstance(x, Tensor) and isinstance(y, Tensor):  # nothing to convert: the scope's name is the op's
                return execute("Add" if x._dtype is dtypes.string else "AddV2", (x, y), name=name or "Add")
            with op_scope("Add", name) as scope:
                x, y = _add_operands(x, y, ("x", "y"))
                return execute("Add" if x._dtype is dtypes.string else "AddV2", (x, y), name=scope)
        x, y = _add_operands(x, y)
    if name:
        name = scoped(name)  # TensorFlow's add opens a name scope
    try:
        return execute_binary("AddV2" if x._dtype is not _STRING else "Add", x, y, name)
    except InvalidArgumentError:  # two dtypes: an auto dtype conversion mode promotes them
        if weak.MODE is None or x._dtype is y._dtype:
            raise
    return weak_binary("AddV2", x, y, name, None)


_STRING = dtypes.string
add = public("add", "math.add")(op_function(add, "AddV2", other=_STRING))


def _add_operands(x, y, names=(None, None)):
    x = as_tensor(x, name=names[0])
    if isinstance(y, Tensor) or hasattr(type(y), "__tf_tensor__"):
        return x, as_tensor(y)
    try:
        return x, constant(y, x._dtype, name=names[1])
    except (TypeError, ValueError):
        return x, as_tensor(y, name=names[1])


@public("math.reciprocal_no_nan")
def reciprocal_no_nan(x, name=None):
    """TensorFlow's composition: ``DivNoNan(1, x)``."""
    x = as_tensor(x)
    return divide_no_nan(constant(1, x.dtype), x, name=name)


@public("math.logical_xor", "compat.v1.logical_xor")
def logical_xor(x, y, name="LogicalXor"):
    """TensorFlow composes it: (x or y) and not (x and y)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


_TRUEDIV_TYPES = ("tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, "
                   "tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128")


@public("math.truediv", "truediv")
def truediv(x, y, name=None):
    """Integers are divided as floats (int32 → float64), as TensorFlow's ``truediv`` does."""
    if composite_of(x, y):
        return composite_of(x, y).binary(truediv, x, y, name)
    promoted = None
    if weak.MODE is not None and context().eager:  # an auto dtype conversion mode: the lattice first
        promoted, is_weak = weak.promote(x, y)
        if promoted is not None:
            x, y = weak_convert(x, promoted), weak_convert(y, promoted)
    x, y = _add_operands(x, y)  # y converts with x's dtype as a hint only, as for add
    if x.dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    if not x.dtype.is_numeric:
        raise TypeError(f"Invalid dtype {x.dtype!r} in __truediv__. Expected one of {{{_TRUEDIV_TYPES}}}.")
    if x.dtype.is_integer:
        target = dtypes.float64 if x.dtype.np.itemsize >= 4 else dtypes.float32
        from ..array.array_ops import cast

        x, y = cast(x, target), cast(y, target)
    out = divide(x, y, name=name)
    return weak.make_weak(out) if promoted is not None and is_weak else out


def _check_numerics(xp, x, message=""):
    bad = [what for what, test in (("Inf", xp.isinf), ("NaN", xp.isnan)) if bool(test(x).any())]
    if bad:
        raise ValueError(f"{message} : Tensor had {' and '.join(bad)} values")
    return x.copy()


op("CheckNumerics", _check_numerics, FLOATS, shape=shapes.same, stateful=True)


@public("debugging.check_numerics", "compat.v1.check_numerics")  # not top-level in TF 2
def check_numerics(tensor, message, name=None):
    """The tensor, or TensorFlow's error when it holds an Inf or a NaN."""
    return execute("CheckNumerics", (as_tensor(tensor),), {"message": message}, name=name)


@public("math.polyval")
def polyval(coeffs, x, name=None):
    """Horner's rule, as TensorFlow composes it: ``p = c + p * x`` from the highest coefficient."""
    x = as_tensor(x)
    if not coeffs:
        from ..array.array_ops import zeros_like

        return zeros_like(x, name=name)
    p = as_tensor(coeffs[0])
    for c in coeffs[1:]:
        p = add(as_tensor(c), multiply(p, x))
    return p


def _histogram(xp, values, value_range, nbins=100, dtype="int32"):
    low, high = (float(v) for v in on_host(xp, value_range))
    scaled = (on_host(xp, values).astype(np.float64).reshape(-1) - low) / (high - low) * nbins
    bins = np.clip(np.floor(scaled), 0, nbins - 1).astype(np.int64)
    return xp.asarray(np.bincount(bins, minlength=nbins).astype(dtypes.as_dtype(dtype).np))


def _histogram_shape(name, shapes, attrs, dtype):
    return dtypes.as_dtype(attrs.get("dtype", "int32")), (int(attrs.get("nbins", 100)),)


# GPU: float values only
op("HistogramFixedWidth", _histogram, {CPU: REAL, GPU: FLOATS}, host_args=("nbins",), shape=_histogram_shape)


@public("histogram_fixed_width")
def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts in ``nbins`` equal bins over ``value_range`` (values outside go to the end bins)."""
    return execute("HistogramFixedWidth", (as_tensor(values), as_tensor(value_range)),
                   {"nbins": int(host_arg(nbins)), "dtype": dtypes.as_dtype(dtype).name}, name=name)


@public("math.scalar_mul", "scalar_mul")
def scalar_mul(scalar, x, name=None):
    x = as_tensor(x)
    scalar = constant(scalar, x.dtype) if not isinstance(scalar, Tensor) else scalar
    if scalar.shape.ndims != 0:
        raise ValueError(f"`scalar` must be a 0-D scalar `Tensor`. Received: scalar.shape={scalar.shape}")
    return multiply(scalar, x, name=name)


def _matmul(xp, a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False):
    if min(a.ndim, b.ndim) < 2:
        dims = (shape_text(a.shape), shape_text(b.shape))
        if a.ndim != b.ndim:
            raise ValueError("In[0] and In[1] has different ndims: {} vs. {}".format(*dims))
        raise ValueError("In[0] and In[1] must be matrices: In[0]: {}, In[1]: {}".format(*dims))
    if (a.shape[-2] if transpose_a or adjoint_a else a.shape[-1]) != \
            (b.shape[-1] if transpose_b or adjoint_b else b.shape[-2]):
        raise ValueError("Matrix size-incompatible: In[0]: {}, In[1]: {}".format(shape_text(a.shape), shape_text(b.shape)))
    if adjoint_a:
        a = xp.conj(a)
    if adjoint_b:
        b = xp.conj(b)
    return blas_threads.matmul(xp, xp.swapaxes(a, -1, -2) if transpose_a or adjoint_a else a,
                               xp.swapaxes(b, -1, -2) if transpose_b or adjoint_b else b)


op("MatMul", _matmul, NUMERIC, shape=shapes.matmul)


@public("matmul", "linalg.matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    if context().eager:
        a, b = pair(a, b)
    else:
        with op_scope("MatMul", name) as name:
            a, b = pair(a, b, ("a", "b"))
    if adjoint_a:  # TensorFlow's matmul: an adjoint is conj (complex only) and a transpose
        a, transpose_a = _conj(a), True
    if adjoint_b:
        b, transpose_b = _conj(b), True
    attrs = {"transpose_a": True} if transpose_a else None
    if transpose_b:
        attrs = dict(attrs or {}, transpose_b=True)
    return execute("MatMul", (a, b), attrs, name=scoped(name))


def _conj(x):
    return execute("Conj", (x,)) if x.dtype.is_complex else x


def _add_n(xp, *arrays):
    if isinstance(arrays[0], dtypes.ListValue):  # TensorLists: item by item
        return add_lists(arrays)
    out = arrays[0].copy()
    for a in arrays[1:]:
        out += a
    return out


op("AddN", _add_n, NUMERIC | {"variant"}, shape=shapes.same, number_attr="N")


@public("add_n", "math.add_n")
def add_n(inputs, name=None):
    if not inputs:
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    tensors = [as_tensor(t) for t in inputs]
    shapes_ = {t.shape for t in tensors if t.shape.is_fully_defined()}  # a graph's unknown shapes: the kernel checks
    if len(shapes_) > 1:
        raise InvalidArgumentError(f"Shapes must be equal rank and compatible, got {sorted(map(list, shapes_))} "
                                   f"[Op:AddN]", op="AddN")
    return execute("AddN", tuple(tensors), name=name)


def check_axes(x, axis):
    """TensorFlow's reduction-axis errors (its kernel's words)."""
    axes = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
    for a in axes:
        if not -x.ndim <= a < max(x.ndim, 1):
            raise ValueError(f"Invalid reduction dimension ({a} for input with {x.ndim} dimension(s)")
    normal = [a % max(x.ndim, 1) for a in axes]
    for a in normal:
        if normal.count(a) > 1:
            raise ValueError(f"Invalid reduction arguments: Axes contains duplicate dimension: {a}")


def _sum(xp, x, axis=None, keepdims=False):
    check_axes(x, axis)
    return xp.asarray(xp.sum(x, axis=axis, keepdims=keepdims), dtype=x.dtype)


op("Sum", _sum, NUMERIC, shape=shapes.reduction, host_args={"axis": "reduction_indices"})


@public("reduce_sum", "math.reduce_sum")
def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    composite = DISPATCH.get(("reduce_sum", type(input_tensor)))
    if composite is not None:
        return composite(input_tensor, axis, keepdims, name)
    x = as_tensor(input_tensor)
    axis = unknown_rank_axes(x, axis)
    if symbolic(axis):
        return dynamic_reduce("Sum", x, axis, keepdims, name)
    axes = host_arg(np.arange(len(x.shape), dtype=np.int32) if axis is None else axis)
    attrs = {"axis": None if axis is None else (int(axes) if axes.ndim == 0 else tuple(int(a) for a in axes)),
             "keepdims": bool(keepdims)}
    return reduce("Sum", x, axis, attrs, name)


def _install_operators():
    """TensorFlow's ``math_ops`` overrides Python's operators on its Tensor class; so do these."""
    def operator(fn, name, swap=False):
        """TensorFlow's ``binary_op_wrapper``: in a graph, a scope named after the operator
        (``mul``, ``mul_1``) whose constants are ``mul/y`` (``mul/x`` for a reversed operand)."""
        def method(self, other):
            x, y = (other, self) if swap else (self, other)
            if (_context_mod._context or context()).eager:  # the module's context read first: no call
                if swap and weak.MODE is None:  # a reversed operand takes the tensor's dtype (legacy)
                    return fn(*pair(x, y))
                return fn(x, y)
            with op_scope(name) as scope:
                try:
                    x, y = pair(x, y, ("x", "y"))
                except TypeError:
                    if swap:  # the operand on the left converts to the tensor's dtype: its error as it is
                        raise
                    return fn(x, y, name=scope)  # the op's function converts it: its error
                return fn(x, y, name=scope)
        return method

    binary_ops = {"add": add, "sub": subtract, "mul": multiply, "truediv": _operator_truediv, "matmul": matmul,
                  "pow": pow_, "floordiv": floordiv, "mod": floormod, "and": _and, "or": _or, "xor": _xor}
    for name, fn in binary_ops.items():
        spec = OP_FUNCTIONS.get(fn)  # eagerly x + y is tf.add(x, y): its common call in C too
        method = operator(fn, name)
        setattr(Tensor, f"__{name}__", method if spec is None else op_function(method, *spec))
        setattr(Tensor, f"__r{name}__", operator(fn, name, swap=True))
    for name, fn in {"lt": less, "le": less_equal, "gt": greater, "ge": greater_equal}.items():
        setattr(Tensor, f"__{name}__", lambda self, other, _fn=fn: _fn(self, other))
    Tensor.__neg__ = lambda self: negative(self)
    Tensor.__abs__ = lambda self: abs_(self)
    Tensor.__invert__ = lambda self: logical_not(self) if self.dtype is dtypes.bool_ else invert(self)
    Tensor.__eq__ = lambda self, other: _equality("Equal", self, other)
    Tensor.__ne__ = lambda self, other: _equality("NotEqual", self, other)
    install_python_protocols()


def _equality(op_type, a, b):
    """``==``/``!=`` elementwise, as TensorFlow 2 (``None`` compares by identity; shapes that do
    not broadcast make one ``False``/``True``)."""
    if b is None:
        return op_type == "NotEqual"
    if type(b) in COMPOSITE:  # a RaggedTensor's own comparison answers
        return NotImplemented
    return execute(op_type, pair(a, b), {"incompatible_shape_error": False})


def _operator_truediv(a, b, name=None):
    return truediv(a, b, name=name)


def _and(a, b, name=None):
    a, b = pair(a, b)
    return logical_and(a, b, name=name) if a.dtype is dtypes.bool_ else bitwise_and(a, b, name=name)


def _or(a, b, name=None):
    a, b = pair(a, b)
    return logical_or(a, b, name=name) if a.dtype is dtypes.bool_ else bitwise_or(a, b, name=name)


def _xor(a, b, name=None):
    a, b = pair(a, b)
    return logical_xor(a, b, name=name) if a.dtype is dtypes.bool_ else bitwise_xor(a, b, name=name)


_install_operators()
