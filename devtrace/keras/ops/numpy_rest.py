"""The rest of ``keras.ops.numpy`` (served as ``keras.ops.X`` too): the inverse hyperbolic and other
elementwise functions (``arcsinh``, ``sinc``, ``heaviside``, ``fmax`` …), window functions
(``bartlett``, ``hamming``, ``hanning``, ``kaiser``), NaN-ignoring ``nanarg*``/``nancum*``, ``unique``,
``histogram``, ``rot90``, ``vander``, ``view`` … — on devtrace's ops, with the dtypes Keras's
TensorFlow backend gives them (what ``numpy.py`` says)."""

from __future__ import annotations

import builtins

import devtrace as tf
from .convert import _float, _pair, _t


def _inexact(x):
    """Keras's ``result_type(x.dtype, float)``: floats kept, integers and bools ``float32`` (its
    floatx), and complex ``complex64`` (``complex128`` too: Keras promotes it so)."""
    x = _float(x)
    return tf.cast(x, tf.complex64) if x.dtype == tf.complex128 else x


def _unary(fn):
    def op(x):
        return fn(_inexact(x))
    op.__name__ = fn.__name__
    return op


arccosh, arcsinh, arctanh = (_unary(f) for f in (tf.math.acosh, tf.math.asinh, tf.math.atanh))


def angle(x):
    return tf.math.angle(_inexact(x))


def fabs(x):
    x = _t(x)
    if x.dtype.is_integer or x.dtype == tf.bool:
        x = tf.cast(x, tf.float32)
    return tf.abs(x)


def sinc(x):
    x = _inexact(x)
    pi_x = x * tf.constant(3.141592653589793, x.dtype)
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(pi_x) / pi_x)


def append(x1, x2, axis=None):
    x1, x2 = _pair(x1, x2)
    if axis is None:
        return tf.concat([tf.reshape(x1, [-1]), tf.reshape(x2, [-1])], 0)
    return tf.concat([x1, x2], axis)


def array_split(x, indices_or_sections, axis=0):
    x = _t(x)
    total = x.shape[axis]
    size, extra = divmod(total, indices_or_sections)
    return tf.split(x, [size + 1] * extra + [size] * (indices_or_sections - extra), axis=axis)


def dstack(xs):
    xs = [_t(x) for x in xs]
    if len({x.dtype for x in xs}) > 1:
        wide = xs[0]
        for x in xs[1:]:
            wide = _pair(wide, x)[0]
        xs = [tf.cast(x, wide.dtype) for x in xs]
    shaped = []
    for x in xs:
        rank = x.shape.rank
        shaped.append(tf.reshape(x, [1, 1, 1]) if rank == 0 else x[None, :, None] if rank == 1
                      else x[:, :, None] if rank == 2 else x)
    return tf.concat(shaped, 2)


def empty_like(x, dtype=None):
    return tf.zeros_like(_t(x), dtype=dtype)


def _nan_aware(pick):
    def op(x1, x2):
        x1, x2 = _pair(x1, x2)
        out = pick(x1, x2)
        if not x1.dtype.is_floating:
            return out
        nan1, nan2 = tf.math.is_nan(x1), tf.math.is_nan(x2)
        out = tf.where(nan1 & ~nan2, x2, out)
        return tf.where(nan2 & ~nan1, x1, out)
    return op


fmax, fmin = _nan_aware(tf.maximum), _nan_aware(tf.minimum)
fmax.__name__, fmin.__name__ = "fmax", "fmin"


def heaviside(x1, x2):
    x1, x2 = _pair(x1, x2)
    if x1.dtype.is_integer:
        wide = tf.float64 if x1.dtype in (tf.int64, tf.uint64) else tf.float32
        x1, x2 = tf.cast(x1, wide), tf.cast(x2, wide)
    return tf.where(x1 < 0, tf.zeros_like(x1), tf.where(x1 > 0, tf.ones_like(x1), x2))


def logaddexp2(x1, x2):
    x1, x2 = _pair(_inexact(x1), _inexact(x2))
    delta = x1 - x2
    log2 = tf.constant(0.6931471805599453, x1.dtype)
    return tf.where(tf.math.is_nan(delta), x1 + x2,
                    tf.maximum(x1, x2) + tf.math.log1p(tf.exp(-tf.abs(delta) * log2)) / log2)


def lcm(x1, x2):
    x1, x2 = _t(x1), _t(x2)
    if not (x1.dtype.is_integer and x2.dtype.is_integer):
        raise TypeError("Arguments to lcm must be integers. "
                        f"Received: x1.dtype={x1.dtype.name}, x2.dtype={x2.dtype.name}")
    x1, x2 = _pair(x1, x2)
    if x1.dtype.is_unsigned is False:
        x1, x2 = tf.abs(x1), tf.abs(x2)
    divisor = tf.experimental.numpy.gcd(x1, x2)
    safe = tf.where(divisor == 0, tf.ones_like(divisor), divisor)
    return tf.where(divisor == 0, tf.zeros_like(x1), x1 * (x2 // safe))


def ldexp(x1, x2):
    x1, x2 = _t(x1), _t(x2)
    if not x2.dtype.is_integer:
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 dtype={x2.dtype}")
    x1 = _pair(_inexact(x1), x2)[0]
    out = x1 * tf.pow(tf.constant(2.0, x1.dtype), tf.cast(x2, x1.dtype))
    return tf.where(tf.math.is_inf(x1) | (x1 == 0), x1, out)


def nextafter(x1, x2):
    x1, x2 = _pair(_inexact(x1), _inexact(x2))
    return tf.cast(tf.math.nextafter(tf.cast(x1, tf.float64), tf.cast(x2, tf.float64)), x1.dtype)


def isin(x1, x2, assume_unique=False, invert=False):
    x1, x2 = _pair(x1, x2)
    shape = tf.shape(x1)
    flat1, flat2 = tf.reshape(x1, [-1]), tf.reshape(x2, [-1])
    if not assume_unique:
        flat2 = tf.unique(flat2)[0]
    if flat1.shape[0] == 0 or flat2.shape[0] == 0:
        return tf.zeros(shape, tf.bool)
    found = tf.reduce_any(tf.equal(flat1[:, None], flat2[None, :]), axis=1)
    return tf.reshape(tf.logical_not(found) if invert else found, shape)


def isreal(x):
    x = _t(x)
    if x.dtype.is_complex:
        return tf.equal(tf.math.imag(x), 0)
    return tf.ones_like(x, dtype=tf.bool)


# ---- windows ----

def bartlett(x):
    n = _t(x, "float32")
    if float(n) == 0:
        return tf.constant([], tf.float32)
    if float(n) == 1:
        return tf.ones([1])
    k = tf.range(n)
    half = (n - 1) / 2
    return tf.where(k <= half, 2.0 * k / (n - 1), 2.0 - 2.0 * k / (n - 1))


def hamming(x):
    return tf.signal.hamming_window(_t(x, "int32"), periodic=False)


def hanning(x):
    return tf.signal.hann_window(_t(x, "int32"), periodic=False)


def kaiser(x, beta):
    return tf.signal.kaiser_window(_t(x, "int32"), beta=beta)


# ---- NaN-ignoring ----

def _argmax_like(x, axis, keepdims, pick):
    if axis is None:
        out = tf.cast(pick(tf.reshape(x, [-1]), axis=0), tf.int32)
        return tf.reshape(out, [1] * x.shape.rank) if keepdims else out
    out = tf.cast(pick(x, axis=axis), tf.int32)
    return tf.expand_dims(out, axis) if keepdims else out


def _nanarg(pick, fill):
    def op(x, axis=None, keepdims=False):
        x = _t(x)
        if not x.dtype.is_floating:
            return _argmax_like(x, axis, keepdims, pick)
        nan = tf.math.is_nan(x)
        out = _argmax_like(tf.where(nan, tf.constant(fill, x.dtype), x), axis, keepdims, pick)
        return tf.where(tf.reduce_all(nan, axis=axis, keepdims=keepdims), tf.constant(-1, tf.int32), out)
    return op


nanargmax, nanargmin = _nanarg(tf.argmax, float("-inf")), _nanarg(tf.argmin, float("inf"))
nanargmax.__name__, nanargmin.__name__ = "nanargmax", "nanargmin"


def _nancum(scan, fill):
    def op(x, axis=None, dtype=None):
        x = _t(x, dtype)
        if x.dtype.is_floating:
            x = tf.where(tf.math.is_nan(x), tf.constant(fill, x.dtype), x)
        elif x.dtype == tf.bool:
            x = tf.cast(x, tf.int32)
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        return scan(x, axis=axis)
    return op


nancumsum, nancumprod = _nancum(tf.cumsum, 0.0), _nancum(tf.math.cumprod, 1.0)
nancumsum.__name__, nancumprod.__name__ = "nancumsum", "nancumprod"


# ---- arrangement ----

def rot90(array, k=1, axes=(0, 1)):
    x = _t(array)
    rank = x.shape.rank
    if rank < 2:
        raise ValueError(f"Input array must have at least 2 dimensions. Received: array.ndim={rank}")
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"Invalid axes: {axes}. Axes must be a tuple of two different dimensions.")
    k %= 4
    a, b = (ax % rank for ax in axes)
    for _ in range(k):  # one quarter turn: reverse along the second axis, then swap the two
        x = tf.reverse(x, [b])
        order = list(range(rank))
        order[a], order[b] = order[b], order[a]
        x = tf.transpose(x, order)
    return x


def vander(x, N=None, increasing=False):  # noqa: N803 (Keras's name)
    x = _t(x)
    n = x.shape[0] if N is None else N
    powers = tf.range(n) if increasing else tf.range(n - 1, -1, -1)
    compute = tf.float64 if x.dtype == tf.float64 else tf.float32
    out = tf.pow(tf.cast(x[:, None], compute), tf.cast(powers, compute))
    return tf.cast(out, x.dtype)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = _inexact(y)
    rank = y.shape.rank
    axis %= rank
    order = [d for d in range(rank) if d != axis] + [axis]
    y = tf.transpose(y, order)
    if x is None:
        width = tf.cast(dx, y.dtype)
    else:
        x = _t(x, y.dtype)
        if x.shape.rank == 1:
            width = x[1:] - x[:-1]
        else:
            x = tf.transpose(x, order)
            width = x[..., 1:] - x[..., :-1]
    return tf.reduce_sum(0.5 * (y[..., 1:] + y[..., :-1]) * width, axis=-1)


def _unique_rows(rows):
    """``(first index, inverse, counts)`` of the distinct rows of a 2-D tensor, in order of first
    appearance (``tf.unique`` for one column; pairwise comparison otherwise)."""
    n = tf.shape(rows)[0]
    if rows.shape[1] == 1:
        _, inverse, counts = tf.unique_with_counts(rows[:, 0], out_idx=tf.int32)
        first = tf.math.unsorted_segment_min(tf.range(n), inverse, tf.shape(counts)[0])
        return first, inverse, counts
    same = tf.reduce_all(tf.equal(rows[:, None, :], rows[None, :, :]), axis=-1)
    earliest = tf.cast(tf.argmax(tf.cast(same, tf.int32), axis=1), tf.int32)
    is_first = tf.equal(earliest, tf.range(n))
    first = tf.boolean_mask(tf.range(n), is_first)
    inverse = tf.gather(tf.cumsum(tf.cast(is_first, tf.int32)) - 1, earliest)
    counts = tf.math.unsorted_segment_sum(tf.ones_like(inverse), inverse, tf.shape(first)[0])
    return first, inverse, counts


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None,  # noqa: A002
           size=None, fill_value=None):
    """NumPy's ``unique``: the distinct values (sorted: lexicographically, for slices along
    ``axis``), their first indices, the inverse map, the counts; ``size`` truncates or pads (with
    ``fill_value``, else 0) to that length."""
    x = _t(x)
    flat = axis is None
    shape = tf.shape(x)
    if flat:
        x, axis = tf.reshape(x, [-1]), 0
    axis %= x.shape.rank
    moved = tf.transpose(x, [axis] + [d for d in range(x.shape.rank) if d != axis])
    rows = tf.reshape(moved, [tf.shape(moved)[0], -1])
    first, inverse, counts = _unique_rows(rows)
    if sorted:
        order = tf.range(tf.shape(first)[0])
        for col in reversed(range(rows.shape[1])):  # a stable sort per column, the last first
            keys = tf.gather(rows[:, col], tf.gather(first, order))
            order = tf.gather(order, tf.argsort(keys, stable=True))
        first, counts = tf.gather(first, order), tf.gather(counts, order)
        inverse = tf.gather(tf.math.invert_permutation(order), inverse)
    values = tf.gather(x, first, axis=axis)
    if size is not None:
        found = int(tf.shape(first)[0])
        kept, pad = builtins.min(found, size), builtins.max(0, size - found)
        values = tf.gather(values, tf.range(kept), axis=axis)
        paddings = [[0, 0]] * values.shape.rank
        paddings[axis] = [0, pad]
        values = tf.pad(values, paddings, constant_values=tf.cast(0 if fill_value is None else fill_value,
                                                                 values.dtype))
        first = tf.pad(first[:kept], [[0, pad]], constant_values=1)
        counts = tf.pad(counts[:kept], [[0, pad]])
    if return_inverse and flat:
        inverse = tf.reshape(inverse, shape)
    out = [values] + [t for t, wanted in ((first, return_index), (inverse, return_inverse), (counts, return_counts))
                      if wanted]
    return tuple(out) if len(out) > 1 else out[0]


def histogram(x, bins=10, range=None):  # noqa: A002 (Keras's keyword)
    x = _t(x)
    low, high = (tf.reduce_min(x), tf.reduce_max(x)) if range is None else range
    x = tf.boolean_mask(x, (x >= low) & (x <= high))
    edges = tf.cast(tf.linspace(low, high, bins + 1), x.dtype)
    which = tf.searchsorted(edges[1:-1], x, side="right")
    counts = tf.scatter_nd(which[:, None], tf.ones_like(which, dtype=x.dtype), [bins])
    return counts, edges


def view(x, dtype=None):
    x = _t(x)
    new = tf.as_dtype(dtype) if dtype else x.dtype
    old_size, new_size = x.dtype.size, new.size
    shape = list(x.shape)
    last = shape[-1] if shape else -1
    if (last == -1 and old_size != new_size) or (last * old_size % new_size != 0):
        raise ValueError(f"Cannot view array of shape {x.shape} and dtype {x.dtype} as dtype {new} because the "
                         "total number of bytes is not divisible by the new itemsize.")
    if old_size == new_size:
        return tf.bitcast(x, new)
    if old_size > new_size:
        shape[-1] *= old_size // new_size
        return tf.reshape(tf.bitcast(tf.reshape(x, [-1]), new), shape)
    ratio = new_size // old_size
    if last % ratio:
        raise ValueError(f"Cannot view dtype. Last dimension size ({last}) must be divisible by the ratio of new/old "
                         f"item sizes ({ratio}).")
    return tf.bitcast(tf.reshape(x, shape[:-1] + [last // ratio, ratio]), new)


def unravel_index(indices, shape):
    indices = _t(indices)
    dtype = indices.dtype if indices.dtype.is_integer else tf.int32
    indices = tf.cast(indices, dtype)
    coords = []
    for dim in reversed(list(shape)):
        coords.append(indices % dim)
        indices = indices // dim
    return tuple(reversed(coords))


__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == __name__ or n in (
                     "arccosh", "arcsinh", "arctanh", "fmax", "fmin", "nanargmax", "nanargmin", "nancumsum",
                     "nancumprod"))
