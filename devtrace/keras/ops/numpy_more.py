"""More of ``keras.ops.numpy`` (served as ``keras.ops.X`` too): shape and layout (``tile``,
``broadcast_to``, ``repeat``, ``flip``, ``roll``, ``moveaxis``, ``swapaxes``, ``ravel``, stacking),
ordering (``sort``, ``argsort``, ``take_along_axis``), triangles, grids, products and the unary and
logical functions keras.io programs call — each on devtrace's ops, with Keras's TensorFlow backend's
dtype rules (what ``numpy.py`` says)."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from .convert import _float, _pair, _t


def _axis(axis, rank):
    return axis + rank if axis < 0 else axis


def _axes(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else [axis]


def tile(x, repeats):
    x = _t(x)
    reps = [repeats] if isinstance(repeats, int) else list(repeats)
    rank = x.shape.rank
    if len(reps) < rank:
        reps = [1] * (rank - len(reps)) + reps
    elif len(reps) > rank:
        x = tf.reshape(x, tf.concat([tf.ones([len(reps) - rank], tf.int32), tf.shape(x)], 0))
    return tf.tile(x, reps)


def broadcast_to(x, shape):
    return tf.broadcast_to(_t(x), shape)


def repeat(x, repeats, axis=None):
    return tf.repeat(_t(x), repeats, axis=axis)


def flip(x, axis=None):
    x = _t(x)
    rank = x.shape.rank
    axes = list(range(rank)) if axis is None else [_axis(a, rank) for a in _axes(axis)]
    return tf.reverse(x, axes)


def fliplr(x):
    return tf.reverse(_t(x), [1])


def flipud(x):
    return tf.reverse(_t(x), [0])


def roll(x, shift, axis=None):
    x = _t(x)
    if axis is not None:
        return tf.roll(x, shift=shift, axis=axis)
    return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))


def moveaxis(x, source, destination):
    x = _t(x)
    rank = x.shape.rank
    src = [_axis(a, rank) for a in _axes(source)]
    dst = [_axis(a, rank) for a in _axes(destination)]
    if len(src) != len(dst):
        raise ValueError("Inconsistent number of `source` and `destination`. "
                         f"Received: source={source}, destination={destination}")
    if src == dst:
        return x
    order = [a for a in range(rank) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return tf.transpose(x, order)


def swapaxes(x, axis1, axis2):
    x = _t(x)
    rank = x.shape.rank
    a, b = _axis(axis1, rank), _axis(axis2, rank)
    if a == b:
        return x
    perm = list(range(rank))
    perm[a], perm[b] = b, a
    return tf.transpose(x, perm)


def ravel(x):
    return tf.reshape(_t(x), [-1])


def ndim(x):
    return _t(x).shape.rank


def size(x):
    return tf.size(_t(x))


def _common(xs):
    tensors = [_t(x) for x in xs]
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) > 1:
        floats = [d for d in dtypes if d.is_floating]
        target = max(floats or dtypes, key=lambda d: d.size)
        tensors = [tf.cast(t, target) for t in tensors]
    return tensors


def hstack(xs):
    tensors = _common(xs)
    return tf.concat(tensors, axis=0 if tensors[0].shape.rank == 1 else 1)


def vstack(xs):
    return tf.concat(_common(xs), axis=0)


def unstack(x, num=None, axis=0):
    return tf.unstack(_t(x), num=num, axis=axis)


def sort(x, axis=-1):
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.dtype == tf.bool:
        return tf.cast(tf.sort(tf.cast(x, tf.int8), axis=axis), tf.bool)
    return tf.sort(x, axis=axis)


def argsort(x, axis=-1):
    x = _t(x)
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.uint8)
    if x.shape.rank == 0:
        return tf.constant([0], tf.int32)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.argsort(x, axis=axis)


def take_along_axis(x, indices, axis=None):
    x, indices = _t(x), _t(indices)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.experimental.numpy.take_along_axis(x, indices, axis)


def tril(x, k=0):
    x = _t(x)
    if k >= 0:
        return tf.linalg.band_part(x, -1, k)
    rows, cols = x.shape[-2], x.shape[-1]
    keep = tf.range(rows)[:, None] >= tf.range(cols)[None, :] - k
    return tf.where(tf.broadcast_to(keep, tf.shape(x)), x, tf.zeros_like(x))


def triu(x, k=0):
    x = _t(x)
    if k <= 0:
        return tf.linalg.band_part(x, -k, -1)
    rows, cols = x.shape[-2], x.shape[-1]
    keep = tf.range(rows)[:, None] <= tf.range(cols)[None, :] - k
    return tf.where(tf.broadcast_to(keep, tf.shape(x)), x, tf.zeros_like(x))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    from .. import keywords

    keywords.unimplemented("keras.ops.linspace", retstep=(retstep, False), axis=(axis, 0))
    start, stop = tf.cast(start, tf.float32), tf.cast(stop, tf.float32)
    if endpoint:
        out = tf.linspace(start, stop, num)
    else:
        out = tf.linspace(start, stop, num + 1)[:-1]
    return tf.cast(out, dtype) if dtype is not None else out


def meshgrid(*x, indexing="xy"):
    return tf.meshgrid(*[_t(v) for v in x], indexing=indexing)


def tensordot(x1, x2, axes=2):
    a, b = _pair(x1, x2)
    return tf.tensordot(a, b, axes=axes)


def outer(x1, x2):
    a, b = _pair(x1, x2)
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [-1])


def cumprod(x, axis=None, dtype=None):
    x = _t(x, dtype)
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.math.cumprod(x, axis=axis)


def diff(a, n=1, axis=-1):
    x = _t(a)
    rank = x.shape.rank
    axis = _axis(axis, rank)
    for _ in range(n):
        head = [slice(None)] * rank
        tail = [slice(None)] * rank
        head[axis], tail[axis] = slice(1, None), slice(None, -1)
        x = x[tuple(head)] - x[tuple(tail)]
    return x


def _log_base(x, base):
    x = _float(x)
    return tf.math.log(x) / tf.math.log(tf.constant(base, x.dtype))


def log2(x):
    return _log_base(x, 2)


def log10(x):
    return _log_base(x, 10)


def sinh(x):
    return tf.sinh(_float(x))


def cosh(x):
    return tf.cosh(_float(x))


def arctan2(x1, x2):
    a, b = _pair(_float(x1), _float(x2))
    return tf.atan2(a, b)


def hypot(x1, x2):
    a, b = _pair(_float(x1), _float(x2))
    return tf.sqrt(tf.square(a) + tf.square(b))


def reciprocal(x):
    return tf.math.reciprocal(_t(x))


def trunc(x):
    x = _t(x)
    if x.dtype == tf.bool or x.dtype.is_integer:
        return x
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


def divide_no_nan(x1, x2):
    a, b = _pair(_float(x1), _float(x2))
    return tf.math.divide_no_nan(a, b)


def logaddexp(x1, x2):
    a, b = _pair(_float(x1), _float(x2))
    high = tf.maximum(a, b)
    return high + tf.math.log1p(tf.exp(-tf.abs(a - b)))


def logical_and(x1, x2):
    return tf.logical_and(tf.cast(x1, tf.bool), tf.cast(x2, tf.bool))


def logical_or(x1, x2):
    return tf.logical_or(tf.cast(x1, tf.bool), tf.cast(x2, tf.bool))


def logical_xor(x1, x2):
    return tf.math.logical_xor(tf.cast(x1, tf.bool), tf.cast(x2, tf.bool))


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    a, b = _pair(x1, x2)
    if not a.dtype.is_floating:
        return tf.equal(a, b)
    close = tf.abs(a - b) <= (atol + rtol * tf.abs(b))
    if equal_nan:
        close = close | (tf.math.is_nan(a) & tf.math.is_nan(b))
    return close


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    return tf.reduce_all(isclose(x1, x2, rtol, atol, equal_nan))


def count_nonzero(x, axis=None):
    return tf.math.count_nonzero(_t(x), axis=axis, dtype="int32")


def full_like(x, fill_value, dtype=None):
    x = _t(x)
    return tf.fill(tf.shape(x), tf.cast(fill_value, dtype or x.dtype))


def identity(n, dtype=None):
    return tf.eye(n, dtype=dtype or "float32")


def average(x, axis=None, weights=None):
    """Keras's: weights of ``x``'s rank (or no axis) are summed over ``axis`` and multiply ``x``;
    a 1-D weights vector of another rank contracts ``x``'s ``axis`` (a ``tensordot``)."""
    x = _float(x)
    if weights is None:
        return tf.reduce_mean(x, axis=axis)
    x, w = _pair(x, _float(weights))
    if axis is None or x.shape.rank == w.shape.rank:
        total = tf.reduce_sum(w, axis=axis)
        return tf.reduce_sum(x * w, axis=axis) / total
    return tf.tensordot(x, w, [[axis], [0]]) / tf.reduce_sum(w)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803 (Keras's names)
    M = N if M is None else M
    keep = tf.range(N)[:, None] >= tf.range(M)[None, :] - k
    return tf.cast(keep, dtype or "float32")


def pad(x, pad_width, mode="constant", constant_values=None):
    x = _t(x)
    if constant_values is not None:
        if mode != "constant":
            raise ValueError("Argument `constant_values` can only be provided when `mode == 'constant'`. "
                             f"Received: mode={mode}")
        return tf.pad(x, pad_width, mode=mode.upper(), constant_values=constant_values)
    return tf.pad(x, pad_width, mode=mode.upper())


def copy(x):
    return tf.identity(_t(x))


__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == __name__)
__getattr__ = _missing("keras.ops.numpy")
