"""Samples: elementwise math, comparisons, bitwise, reductions, scans, complex numbers."""

import numpy as np

import devtrace as tf

from . import Sample

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)  # signed
P = np.array([[0.5, 1.0, 2.0], [3.0, 4.0, 5.0]], np.float32)  # positive
U = np.array([[-0.5, 0.25, 0.75], [0.1, -0.9, 0.0]], np.float32)  # in (-1, 1)
G = np.array([[1.5, 2.0, 3.0], [4.0, 5.5, 7.0]], np.float32)  # > 1
I = np.array([[1, 2, 3], [-4, 5, -6]], np.int32)
J = np.array([[2, 3, 2], [3, 2, 4]], np.int32)  # non-zero divisors, small shifts
B = np.array([[True, False, True], [False, False, True]])
N = np.array([[1.0, np.inf, np.nan], [-np.inf, 0.0, -2.0]], np.float32)  # not all finite
C = np.array([[1 + 2j, -3 + 0.5j], [0.25 - 1j, 2 + 0j]], np.complex64)


def t(value):
    return tf.constant(value)


def _unary(op, fn, ref, x, on="GPU", id=""):
    return Sample(op, lambda: fn(t(x)), ref(x), on, id)


def _binary(op, fn, ref, x, y, on="GPU", id=""):
    return Sample(op, lambda: fn(t(x), t(y)), ref(x, y), on, id)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


_erf = np.vectorize(__import__("math").erf, otypes=[np.float32])
_erfc = np.vectorize(__import__("math").erfc, otypes=[np.float32])
_lgamma = np.vectorize(__import__("math").lgamma, otypes=[np.float32])

UNARY = [
    _unary("Abs", tf.abs, np.abs, X), _unary("Abs", tf.abs, np.abs, I, id="int32"),
    _unary("Neg", tf.negative, np.negative, X), _unary("Square", tf.square, np.square, I),
    _unary("Sqrt", tf.sqrt, np.sqrt, P), _unary("Rsqrt", tf.math.rsqrt, lambda x: 1 / np.sqrt(x), P),
    _unary("Sign", tf.sign, np.sign, X), _unary("Exp", tf.exp, np.exp, X), _unary("Expm1", tf.math.expm1, np.expm1, X),
    _unary("Log", tf.math.log, np.log, P), _unary("Log1p", tf.math.log1p, np.log1p, P),
    _unary("Reciprocal", tf.math.reciprocal, np.reciprocal, P),
    _unary("Sin", tf.sin, np.sin, X), _unary("Cos", tf.cos, np.cos, X), _unary("Tan", tf.tan, np.tan, U),
    _unary("Asin", tf.asin, np.arcsin, U), _unary("Acos", tf.acos, np.arccos, U), _unary("Atan", tf.atan, np.arctan, X),
    _unary("Sinh", tf.sinh, np.sinh, U), _unary("Cosh", tf.cosh, np.cosh, U), _unary("Tanh", tf.tanh, np.tanh, X),
    _unary("Asinh", tf.asinh, np.arcsinh, X), _unary("Acosh", tf.acosh, np.arccosh, G),
    _unary("Atanh", tf.atanh, np.arctanh, U),
    _unary("Floor", tf.floor, np.floor, U * 3), _unary("Ceil", tf.math.ceil, np.ceil, U * 3),
    _unary("Round", tf.round, np.round, X / 4), _unary("Rint", tf.math.rint, np.rint, X / 4),
    _unary("Erf", tf.math.erf, _erf, U), _unary("Erfc", tf.math.erfc, _erfc, U),
    _unary("Lgamma", tf.math.lgamma, _lgamma, P),
    Sample("Polygamma", lambda: tf.math.polygamma(t(np.array([1.0, 1.0, 2.0], np.float32)),
                                                   t(np.array([1.0, 2.0, 1.0], np.float32))),
           np.array([np.pi ** 2 / 6, np.pi ** 2 / 6 - 1, -2.4041138], np.float32)),  # ψ'(1), ψ'(2), ψ''(1) = -2ζ(3)
    _unary("Digamma", tf.math.digamma, lambda x: np.array([[-1.9635100, -0.5772157, 0.4227843],
                                                           [0.9227843, 1.2561177, 1.5061177]], np.float32), P),
    _unary("IsNan", tf.math.is_nan, np.isnan, N), _unary("IsInf", tf.math.is_inf, np.isinf, N),
    _unary("IsFinite", tf.math.is_finite, np.isfinite, N),
    _unary("LogicalNot", tf.logical_not, np.logical_not, B),
    _unary("Invert", tf.bitwise.invert, np.invert, I),
    _unary("StopGradient", tf.stop_gradient, lambda x: x, X),
    _unary("Identity", tf.identity, lambda x: x, X),
    _unary("Sigmoid", tf.nn.sigmoid, _sigmoid, X),
    _unary("CheckNumerics", lambda x: tf.debugging.check_numerics(x, "bad"), lambda x: x, X),
]

BINARY = [
    _binary("AddV2", tf.add, np.add, X, P), _binary("AddV2", lambda a, b: a + b, np.add, I, J, id="int32"),
    _binary("Sub", tf.subtract, np.subtract, X, P), _binary("Mul", tf.multiply, np.multiply, X, P),
    _binary("RealDiv", tf.divide, np.divide, X, P), _binary("Pow", tf.pow, np.power, P, X),
    _binary("Pow", lambda a, b: a ** b, np.power, I, J, id="int32"),
    _binary("Maximum", tf.maximum, np.maximum, X, P), _binary("Minimum", tf.minimum, np.minimum, X, P),
    _binary("FloorDiv", tf.math.floordiv, np.floor_divide, I, J), _binary("FloorMod", tf.math.floormod, np.mod, I, J),
    _binary("FloorDiv", tf.math.floordiv, np.floor_divide, X, P, id="float32"),
    _binary("TruncateDiv", tf.truncatediv, lambda a, b: (np.sign(a) * np.sign(b) * (abs(a) // abs(b))), I, J),
    _binary("TruncateMod", tf.truncatemod, np.fmod, I, J),
    _binary("SquaredDifference", tf.math.squared_difference, lambda a, b: (a - b) ** 2, X, P),
    _binary("Atan2", tf.math.atan2, np.arctan2, X, P),
    _binary("DivNoNan", tf.math.divide_no_nan, lambda a, b: np.where(b == 0, 0, a / np.where(b == 0, 1, b)), X, U),
    _binary("MulNoNan", tf.math.multiply_no_nan, lambda a, b: np.where(b == 0, 0, a * np.where(b == 0, 1, b)),
            np.where(U == 0, np.inf, X), U),
    _binary("Xlogy", tf.math.xlogy, lambda a, b: np.where(a == 0, 0, a * np.log(b)), U, P),
    _binary("Xdivy", tf.math.xdivy, lambda a, b: np.where(a == 0, 0, a / b), U, P),
    _binary("Less", tf.less, np.less, X, P), _binary("LessEqual", tf.less_equal, np.less_equal, X, P),
    _binary("Greater", tf.greater, np.greater, X, P), _binary("GreaterEqual", tf.greater_equal, np.greater_equal, X, P),
    _binary("Equal", tf.equal, np.equal, X, P), _binary("NotEqual", tf.not_equal, np.not_equal, I, J),
    _binary("Equal", lambda a, b: a == b, np.equal, I, J, id="operator"),
    _binary("Equal", lambda a, b: a == b, lambda a, b: np.bool_(False), X[0], X[1, :2], id="shapes-differ"),
    _binary("LogicalAnd", tf.logical_and, np.logical_and, B, ~B[::-1]),
    _binary("LogicalOr", tf.logical_or, np.logical_or, B, B[::-1]),
    _binary("BitwiseAnd", tf.bitwise.bitwise_and, np.bitwise_and, I, J),
    _binary("BitwiseOr", tf.bitwise.bitwise_or, np.bitwise_or, I, J),
    _binary("BitwiseXor", tf.bitwise.bitwise_xor, np.bitwise_xor, I, J),
    _binary("LeftShift", tf.bitwise.left_shift, np.left_shift, I, J),
    _binary("RightShift", tf.bitwise.right_shift, np.right_shift, I, J),
    _binary("MatMul", lambda a, b: tf.matmul(a, b, transpose_b=True), lambda a, b: a @ b.T, X, P),
    _binary("MatMul", lambda a, b: a @ tf.transpose(b), lambda a, b: a @ b.T, I, J, id="int32"),
    _binary("SqrtGrad", lambda x, dy: _grad(tf.sqrt, x, dy), lambda x, dy: dy * 0.5 / np.sqrt(x), P, X),
    _binary("TanhGrad", lambda x, dy: _grad(tf.tanh, x, dy), lambda x, dy: dy * (1 - np.tanh(x) ** 2), X, P),
]


def _grad(fn, x, dy):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x, output_gradients=dy)


S = np.array(["ab", "c"])

MISC = [
    Sample("Add", lambda: tf.add(t([b"ab", b"c"]), t([b"x", b"yz"])), np.array([b"abx", b"cyz"], object), "CPU"),
    Sample("AddN", lambda: tf.add_n([t(X), t(P), t(X)]), X + P + X),
    Sample("ClipByValue", lambda: tf.dtypes.saturate_cast(t(X * 50), tf.int8), np.clip(X * 50, -128, 127).astype(np.int8)),
    Sample("HistogramFixedWidth", lambda: tf.histogram_fixed_width(t(X), [-6.0, 6.0], nbins=4),
           np.array([1, 1, 1, 3], np.int32)),
    Sample("Sum", lambda: tf.reduce_sum(t(X), axis=1), X.sum(1)),
    Sample("Sum", lambda: tf.reduce_sum(t(I)), I.sum(dtype=np.int32), id="all"),
    Sample("Mean", lambda: tf.reduce_mean(t(X), axis=0), X.mean(0)),
    Sample("Max", lambda: tf.reduce_max(t(X), axis=1, keepdims=True), X.max(1, keepdims=True)),
    Sample("Min", lambda: tf.reduce_min(t(I), axis=0), I.min(0)),
    Sample("Prod", lambda: tf.reduce_prod(t(I)), np.prod(I, dtype=np.int32)),
    Sample("Any", lambda: tf.reduce_any(t(B), axis=1), B.any(1)),
    Sample("All", lambda: tf.reduce_all(t(B), axis=0), B.all(0)),
    Sample("ArgMax", lambda: tf.argmax(t(X), axis=1), X.argmax(1)),
    Sample("ArgMin", lambda: tf.argmin(t(I), axis=0, output_type=tf.int32), I.argmin(0).astype(np.int32)),
    Sample("Cumsum", lambda: tf.math.cumsum(t(X), axis=1, exclusive=True),
           np.concatenate([np.zeros((2, 1), np.float32), X.cumsum(1)[:, :-1]], 1)),
    Sample("Cumprod", lambda: tf.math.cumprod(t(I), axis=0, reverse=True), I[::-1].cumprod(0, dtype=np.int32)[::-1]),
    Sample("CumulativeLogsumexp", lambda: tf.math.cumulative_logsumexp(t(X), axis=1),
           np.logaddexp.accumulate(X, axis=1)),
    Sample("Complex", lambda: tf.complex(t(X), t(P)), X + 1j * P),
    Sample("Real", lambda: tf.math.real(t(C)), C.real), Sample("Imag", lambda: tf.math.imag(t(C)), C.imag),
    Sample("Angle", lambda: tf.math.angle(t(C)), np.angle(C)), Sample("Conj", lambda: tf.math.conj(t(C)), C.conj()),
    Sample("ComplexAbs", lambda: tf.abs(t(C)), np.abs(C)),
    Sample("Exp", lambda: tf.exp(t(C)), np.exp(C), id="complex64"),
    Sample("Bitcast", lambda: tf.bitcast(t(X), tf.int32), X.view(np.int32)),
    # devtrace's deliberate difference: TensorFlow has a GPU Cast kernel; devtrace keeps the guide's fallback example
    Sample("Cast", lambda: tf.cast(t(X), tf.int32), X.astype(np.int32)),
]

SAMPLES = UNARY + BINARY + MISC
