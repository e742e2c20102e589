"""``keras.ops.numpy`` (also served as ``keras.ops.X``) on devtrace's ops. Keras's dtype rules as its
TensorFlow backend applies them where they differ from TensorFlow's: Python ints are ``int32`` and
floats ``float32``; two tensors of different dtypes meet at the wider (a float where one is)."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import builtins
import math

import devtrace as tf
from .. import keywords
from .convert import _float, _pair, _t


def array(x, dtype=None):
    return _t(x, dtype)


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = "float32" if builtins.any(isinstance(v, float) for v in (start, stop, step)) else "int32"
    return tf.range(start, stop, step, dtype=dtype)


def zeros(shape, dtype=None):
    return tf.zeros(shape, dtype=dtype or "float32")


def ones(shape, dtype=None):
    return tf.ones(shape, dtype=dtype or "float32")


def full(shape, fill_value, dtype=None):
    return tf.fill(shape, _t(fill_value, dtype or "float32"))  # Keras's: floatx unless given


def zeros_like(x, dtype=None):
    return tf.zeros_like(_t(x), dtype=dtype)


def ones_like(x, dtype=None):
    return tf.ones_like(_t(x), dtype=dtype)


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 (Keras's names)
    if k == 0:
        return tf.eye(N, M, dtype=dtype or "float32")
    cols = N if M is None else M
    return tf.cast(tf.equal(tf.range(cols)[None, :] - tf.range(N)[:, None], k), dtype or "float32")


def reshape(x, newshape):
    return tf.reshape(_t(x), newshape)


def transpose(x, axes=None):
    return tf.transpose(_t(x), axes)


def expand_dims(x, axis):
    return tf.expand_dims(_t(x), axis)


def squeeze(x, axis=None):
    return tf.squeeze(_t(x), axis)


def concatenate(xs, axis=0):
    return tf.concat([_t(x) for x in xs], axis)


def stack(x, axis=0):
    return tf.stack([_t(v) for v in x], axis)


def split(x, indices_or_sections, axis=0):
    return tf.split(_t(x), indices_or_sections, axis)


def take(x, indices, axis=None):
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.gather(x, indices, axis=axis)


def where(condition, x1=None, x2=None):
    if x1 is None and x2 is None:
        return tuple(tf.unstack(tf.cast(tf.where(condition), tf.int32), axis=1))
    x1, x2 = _pair(x1, x2)
    return tf.where(_t(condition, "bool"), x1, x2)


def clip(x, x_min, x_max):
    x = _t(x)
    return tf.clip_by_value(x, tf.cast(x_min, x.dtype), tf.cast(x_max, x.dtype))


def _binary(fn):
    def op(x1, x2):
        return fn(*_pair(x1, x2))
    op.__name__ = fn.__name__
    return op


add, subtract, multiply = _binary(tf.add), _binary(tf.subtract), _binary(tf.multiply)
maximum, minimum, power = _binary(tf.maximum), _binary(tf.minimum), _binary(tf.pow)
equal, not_equal = _binary(tf.equal), _binary(tf.not_equal)
greater, greater_equal, less, less_equal = _binary(tf.greater), _binary(tf.greater_equal), _binary(tf.less), _binary(tf.less_equal)
mod = _binary(tf.math.floormod)


def divide(x1, x2):
    x1, x2 = _pair(x1, x2)
    if x1.dtype.is_integer or x1.dtype == tf.bool:
        x1, x2 = tf.cast(x1, tf.float32), tf.cast(x2, tf.float32)
    return tf.divide(x1, x2)


true_divide = divide


def floor_divide(x1, x2):
    return tf.math.floordiv(*_pair(x1, x2))


def matmul(x1, x2):
    x1, x2 = _pair(x1, x2)
    if x1.shape.rank == 1 or x2.shape.rank == 1:  # NumPy's: a vector is a row (left) or a column (right)
        out = tf.linalg.matmul(x1[None] if x1.shape.rank == 1 else x1, x2[:, None] if x2.shape.rank == 1 else x2)
        return tf.squeeze(out, ([-2] if x1.shape.rank == 1 else []) + ([-1] if x2.shape.rank == 1 else []))
    return tf.linalg.matmul(x1, x2)


def dot(x1, x2):
    x1, x2 = _pair(x1, x2)
    if x1.shape.rank == 1 and x2.shape.rank == 1:
        return tf.reduce_sum(x1 * x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        return x1 * x2
    return tf.tensordot(x1, x2, [[x1.shape.rank - 1], [max(x2.shape.rank - 2, 0)]])


def einsum(subscripts, *operands):
    return tf.einsum(subscripts, *[_t(o) for o in operands])


def _unary(fn, floats=True):
    def op(x):
        return fn(_float(x) if floats else _t(x))
    op.__name__ = fn.__name__
    return op


exp, log, sqrt, sin, cos, tan = (_unary(f) for f in (tf.exp, tf.math.log, tf.sqrt, tf.sin, tf.cos, tf.tan))
tanh, arcsin, arccos, arctan = (_unary(f) for f in (tf.tanh, tf.asin, tf.acos, tf.atan))
log1p, expm1, floor, ceil = (_unary(f) for f in (tf.math.log1p, tf.math.expm1, tf.floor, tf.math.ceil))
abs, negative, sign, square = (_unary(f, floats=False) for f in (tf.abs, tf.negative, tf.sign, tf.square))  # noqa: A001
absolute = abs
isnan, isinf, isfinite = (_unary(f) for f in (tf.math.is_nan, tf.math.is_inf, tf.math.is_finite))
logical_not = _unary(tf.logical_not, floats=False)


def round(x, decimals=0):  # noqa: A001 (Keras's name)
    x = _t(x)
    if not decimals:
        return tf.round(x)
    factor = tf.cast(10.0 ** decimals, x.dtype)
    return tf.round(x * factor) / factor


def deg2rad(x):
    x = _float(x)
    return x * tf.cast(math.pi / 180.0, x.dtype)


def rad2deg(x):
    x = _float(x)
    return x * tf.cast(180.0 / math.pi, x.dtype)


def _reduce(fn, floats=False):
    def op(x, axis=None, keepdims=False):
        return fn(_float(x) if floats else _t(x), axis=axis, keepdims=keepdims)
    op.__name__ = fn.__name__
    return op


sum, prod, max, min = (_reduce(f) for f in (tf.reduce_sum, tf.reduce_prod, tf.reduce_max, tf.reduce_min))  # noqa: A001
amax, amin = max, min
mean, std, var = (_reduce(f, floats=True) for f in (tf.reduce_mean, tf.math.reduce_std, tf.math.reduce_variance))
all, any = (_reduce(f) for f in (tf.reduce_all, tf.reduce_any))  # noqa: A001


def argmax(x, axis=None, keepdims=False):
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    out = tf.cast(tf.argmax(x, axis=axis), tf.int32)
    return tf.expand_dims(out, axis) if keepdims else out


def argmin(x, axis=None, keepdims=False):
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    out = tf.cast(tf.argmin(x, axis=axis), tf.int32)
    return tf.expand_dims(out, axis) if keepdims else out


def cumsum(x, axis=None, dtype=None):
    x = _t(x, dtype)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.cumsum(x, axis=axis)


def ptp(x, axis=None, keepdims=False):
    x = _t(x)
    return tf.reduce_max(x, axis=axis, keepdims=keepdims) - tf.reduce_min(x, axis=axis, keepdims=keepdims)


# ---- NaN-ignoring reductions ----

def _nan_filled(x, value):
    x = _float(x)
    return tf.where(tf.math.is_nan(x), tf.cast(value, x.dtype), x)


def nansum(x, axis=None, keepdims=False):
    return tf.reduce_sum(_nan_filled(x, 0), axis=axis, keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False):
    return tf.reduce_prod(_nan_filled(x, 1), axis=axis, keepdims=keepdims)


def nanmax(x, axis=None, keepdims=False):
    return tf.reduce_max(_nan_filled(x, -float("inf")), axis=axis, keepdims=keepdims)


def nanmin(x, axis=None, keepdims=False):
    return tf.reduce_min(_nan_filled(x, float("inf")), axis=axis, keepdims=keepdims)


def _count(x, axis, keepdims):
    x = _float(x)
    return tf.reduce_sum(tf.cast(tf.logical_not(tf.math.is_nan(x)), x.dtype), axis=axis, keepdims=keepdims)


def nanmean(x, axis=None, keepdims=False):
    return nansum(x, axis, keepdims) / _count(x, axis, keepdims)


def nanvar(x, axis=None, keepdims=False):
    x = _float(x)
    centred = x - nanmean(x, axis, True)
    return nansum(centred * centred, axis, keepdims) / _count(x, axis, keepdims)


def nanstd(x, axis=None, keepdims=False):
    return tf.sqrt(nanvar(x, axis, keepdims))


def _quantile(x, q, axis, keepdims, nan_skipping):
    """Linear interpolation between the sorted values (NumPy's default method), NaNs sorted last
    and, where skipped, not counted."""
    x = _float(x)
    q = tf.cast(_t(q), x.dtype)
    if q.shape.rank == 1:  # one result per q, stacked first (NumPy's)
        return tf.stack([_quantile(x, q[i], axis, keepdims, nan_skipping) for i in range(q.shape[0])])
    rank, flat = x.shape.rank, axis is None
    if flat:
        x, axis = tf.reshape(x, [-1]), 0
    axis = axis % x.shape.rank
    perm = [d for d in range(x.shape.rank) if d != axis] + [axis]
    moved = tf.transpose(x, perm)
    nan = tf.math.is_nan(moved)
    ordered = tf.sort(tf.where(nan, tf.cast(float("inf"), x.dtype), moved), axis=-1)
    n = tf.reduce_sum(tf.cast(tf.logical_not(nan) if nan_skipping else tf.ones_like(nan), x.dtype), axis=-1,
                      keepdims=True)
    position = q * (n - 1)  # q: a scalar
    low = tf.floor(position)
    high = tf.minimum(low + 1, n - 1)
    below = tf.gather(ordered, tf.cast(low, tf.int32), batch_dims=ordered.shape.rank - 1)
    above = tf.gather(ordered, tf.cast(high, tf.int32), batch_dims=ordered.shape.rank - 1)
    out = tf.squeeze(below + (above - below) * (position - low), -1)
    if not nan_skipping:
        out = tf.where(tf.reduce_any(nan, axis=-1), tf.cast(float("nan"), x.dtype), out)
    if keepdims:
        out = tf.reshape(out, [1] * rank) if flat else tf.expand_dims(out, axis)
    return out


def quantile(x, q, axis=None, method="linear", keepdims=False):
    _linear(method)
    return _quantile(x, q, axis, keepdims, False)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    _linear(method)
    return _quantile(x, _float(q) / 100.0, axis, keepdims, False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    _linear(method)
    return _quantile(x, q, axis, keepdims, True)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    _linear(method)
    return _quantile(x, _float(q) / 100.0, axis, keepdims, True)


def median(x, axis=None, keepdims=False):
    return _quantile(x, 0.5, axis, keepdims, False)


def nanmedian(x, axis=None, keepdims=False):
    return _quantile(x, 0.5, axis, keepdims, True)


def _linear(method):
    keywords.unimplemented("keras.ops.quantile", method=(method, "linear"))


__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == __name__ or n in (
                     "abs", "absolute", "add", "all", "amax", "amin", "any", "arccos", "arcsin", "arctan", "ceil", "cos",
                     "equal", "exp", "expm1", "floor", "greater", "greater_equal", "isfinite", "isinf", "isnan", "less",
                     "less_equal", "log", "log1p", "logical_not", "max", "maximum", "mean", "min", "minimum", "mod",
                     "multiply", "negative", "not_equal", "power", "prod", "sign", "sin", "sqrt", "square", "std",
                     "subtract", "sum", "tan", "tanh", "var"))
from .numpy_more import *  # noqa: E402,F401,F403 (the rest of keras.ops.numpy)
from .numpy_more import __all__ as _more  # noqa: E402

from .numpy_extra import *  # noqa: E402,F401,F403
from .numpy_extra import __all__ as _extra  # noqa: E402

from .numpy_rest import *  # noqa: E402,F401,F403
from .numpy_rest import __all__ as _rest  # noqa: E402

__all__ = sorted(__all__ + _more + _extra + _rest)
__getattr__ = _missing("keras.ops.numpy")
