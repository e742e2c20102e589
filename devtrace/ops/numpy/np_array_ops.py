"""tf.experimental.numpy's array creation and shape functions, built on devtrace's ops as
TensorFlow composes them (``zeros`` is a Fill, ``reshape`` a Reshape, ``array`` a Const and an Identity)."""

from __future__ import annotations

import numpy as np

from ..declare import API
from ...runtime import weak
from ...runtime.tensor import Tensor
from .np_dtypes import _result_np, default_float, np_dtype, python_float, tf_dtype


def tf(name):
    """devtrace's public function ``tf.<name>``."""
    return API[name]


def asarray(a, dtype=None):
    if isinstance(a, Tensor) or hasattr(a, "dtype") and hasattr(a, "numpy") and not isinstance(a, np.ndarray):
        if dtype is not None and tf_dtype(dtype) != a.dtype:
            return tf("cast")(a, tf_dtype(dtype))
        return tf("convert_to_tensor")(a)
    if isinstance(a, (list, tuple)) and any(isinstance(e, Tensor) for e in _flat(a)):
        return asarray(tf("stack")([asarray(e) for e in a]), dtype)
    if dtype is None and weak.MODE is not None and not isinstance(a, (np.ndarray, np.generic)):
        return tf("constant")(a)  # a Python value: weak, typed by the lattice
    value = np.asarray(a, dtype=np_dtype(dtype))
    if dtype is None and value.dtype == np.float64:
        value = value.astype(python_float())
    return tf("constant")(value)


def _flat(a):
    for e in a:
        if isinstance(e, (list, tuple)):
            yield from _flat(e)
        else:
            yield e


asanyarray = ascontiguousarray = asarray


def array(val, dtype=None, copy=True, ndmin=0):
    result = asarray(val, dtype)
    if copy:
        result = tf("identity")(result)
    while len(result.shape) < ndmin:
        result = tf("expand_dims")(result, 0)
    return result


def copy(a):
    return array(a, copy=True)


def _shape(shape):
    return [int(shape)] if isinstance(shape, (int, np.integer)) else [int(s) for s in shape]


def zeros(shape, dtype=float):
    return tf("zeros")(_shape(shape), tf_dtype(dtype))


def ones(shape, dtype=float):
    return tf("ones")(_shape(shape), tf_dtype(dtype))


def empty(shape, dtype=float):
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    fill_value = asarray(fill_value, dtype)
    return tf("broadcast_to")(fill_value, _shape(shape))


def _like_dtype(a, dtype):
    return tf_dtype(dtype) if dtype is not None else asarray(a).dtype


def zeros_like(a, dtype=None):
    return tf("zeros_like")(asarray(a), _like_dtype(a, dtype))


def ones_like(a, dtype=None):
    return tf("ones_like")(asarray(a), _like_dtype(a, dtype))


empty_like = zeros_like


def full_like(a, fill_value, dtype=None):
    a = asarray(a)
    return tf("broadcast_to")(asarray(fill_value, _like_dtype(a, dtype)), a.shape.as_list())


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    result_dtype = np_dtype(dtype) if dtype is not None else _result_np(start, stop, step)
    if isinstance(start, int) and isinstance(stop, int) and isinstance(step, int) and dtype is None:
        result_dtype = np.dtype(np.int64)
    if (step > 0 and start >= stop) or (step < 0 and start <= stop):
        return zeros([0], result_dtype)
    return tf("cast")(tf("range")(start, stop, step), tf_dtype(result_dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """Its dtype is the floats' of ``start * 1.0`` and ``stop * 1.0``, whatever ``dtype`` says, as in
    TensorFlow's under NumPy 2."""
    work = _result_np(*[v * 1.0 if isinstance(v, (int, float, complex)) else _float_like(v) for v in (start, stop)])
    dtype = work
    start, stop = asarray(start, work), asarray(stop, work)
    if endpoint:
        result = tf("linspace")(start, stop, num, axis=axis)
        step = (stop - start) / max(num - 1, 1)
    else:
        step = (stop - start) / num
        result = tf("linspace")(start, stop - step, num, axis=axis) if num > 1 else tf("reshape")(start, [1])
    result = tf("cast")(result, tf_dtype(dtype)) if dtype != work else result
    return (result, step) if retstep else result


def _float_like(v):
    """The dtype of ``v * 1.0``."""
    v = asarray(v)
    return v.dtype if v.dtype.is_floating or v.dtype.is_complex else tf_dtype(python_float())


def eye(N, M=None, k=0, dtype=float):
    if k == 0:
        return tf("eye")(N, M, dtype=tf_dtype(dtype))
    M = N if M is None else M
    return asarray(np.eye(N, M, k, dtype=np_dtype(dtype)))


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def shape(a):
    return tuple(asarray(a).shape.as_list())


def ndim(a):
    return len(asarray(a).shape)


def size(x, axis=None):
    dims = shape(x)
    return int(np.prod(dims)) if axis is None else dims[axis]


def isscalar(num):
    return ndim(num) == 0 if isinstance(num, Tensor) else np.isscalar(num)


def reshape(a, newshape, order="C"):
    if order != "C":
        raise NotImplementedError("devtrace does not implement tf.experimental.numpy.reshape's order='F' yet")
    return tf("reshape")(asarray(a), _shape(newshape))


def ravel(a):
    return tf("reshape")(asarray(a), [-1])


def transpose(a, axes=None):
    return tf("transpose")(asarray(a), axes)


def _norm_axis(axis, rank):
    return axis + rank if axis < 0 else axis


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    rank = len(a.shape)
    perm = list(range(rank))
    i, j = _norm_axis(axis1, rank), _norm_axis(axis2, rank)
    perm[i], perm[j] = perm[j], perm[i]
    return tf("transpose")(a, perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    rank = len(a.shape)
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    source = [_norm_axis(s, rank) for s in source]
    destination = [_norm_axis(d, rank) for d in destination]
    perm = [i for i in range(rank) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return tf("transpose")(a, perm)


def expand_dims(a, axis):
    return tf("expand_dims")(asarray(a), axis)


def squeeze(a, axis=None):
    return tf("squeeze")(asarray(a), axis)


def _promoted(arrays):
    """The values as arrays of their promoted dtype; Python scalars weak (``where(x > 2, x, -1.0)`` of a
    float32 ``x`` is float32), as tnp's ``result_type`` of the values themselves."""
    dtype = _result_np(*arrays)
    arrays = [asarray(a) for a in arrays]
    return [a if a.dtype == tf_dtype(dtype) else tf("cast")(a, tf_dtype(dtype)) for a in arrays]


def concatenate(arys, axis=0):
    return tf("concat")(_promoted(arys), axis)


def append(arr, values, axis=None):
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def stack(arrays, axis=0):
    return tf("stack")(_promoted(arrays), axis)


def atleast_1d(*arys):
    result = [reshape(a, [1]) if ndim(a) == 0 else asarray(a) for a in arys]
    return result[0] if len(result) == 1 else result


def atleast_2d(*arys):
    def one(a):
        a = asarray(a)
        return reshape(a, [1, 1]) if len(a.shape) == 0 else expand_dims(a, 0) if len(a.shape) == 1 else a
    result = [one(a) for a in arys]
    return result[0] if len(result) == 1 else result


def atleast_3d(*arys):
    def one(a):
        a = asarray(a)
        rank = len(a.shape)
        if rank == 0:
            return reshape(a, [1, 1, 1])
        if rank == 1:
            return reshape(a, [1, -1, 1])
        return expand_dims(a, -1) if rank == 2 else a
    result = [one(a) for a in arys]
    return result[0] if len(result) == 1 else result


def hstack(tup):
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if len(arrays[0].shape) == 1 else 1)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


def dstack(tup):
    return concatenate([atleast_3d(a) for a in tup], 2)


def split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    if isinstance(indices_or_sections, int):
        return tf("split")(ary, indices_or_sections, axis)
    n = ary.shape[axis]
    bounds = [0] + [min(int(i), n) for i in indices_or_sections] + [n]
    return tf("split")(ary, [max(b - a, 0) for a, b in zip(bounds, bounds[1:])], axis)


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0 if ndim(ary) == 1 else 1)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 2)


def tile(a, reps):
    a = asarray(a)
    reps = _shape(reps)
    rank = max(len(a.shape), len(reps))
    a = reshape(a, [1] * (rank - len(a.shape)) + a.shape.as_list())
    return tf("tile")(a, [1] * (rank - len(reps)) + reps)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return tf("repeat")(a, repeats, axis)


def flip(m, axis=None):
    m = asarray(m)
    axes = list(range(len(m.shape))) if axis is None else [axis] if isinstance(axis, int) else list(axis)
    return tf("reverse")(m, axes)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1)):
    m = asarray(m)
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    if k == 1:
        return swapaxes(flip(m, axes[1]), axes[0], axes[1])
    return flip(swapaxes(m, axes[0], axes[1]), axes[1])


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return reshape(tf("roll")(ravel(a), shift, 0), a.shape.as_list())
    return tf("roll")(a, shift, axis)


def sort(a, axis=-1, kind="quicksort", order=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return tf("sort")(a, axis)


def argsort(a, axis=-1, kind="quicksort", order=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return tf("cast")(tf("argsort")(a, axis, stable=True), "int64")


def take(a, indices, axis=None, out=None, mode="clip"):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    indices = asarray(indices)
    if mode == "clip":
        indices = tf("clip_by_value")(indices, tf("cast")(0, indices.dtype),
                                      tf("cast")(a.shape[axis] - 1, indices.dtype))
    elif mode == "wrap":
        indices = tf("math.floormod")(indices, tf("cast")(a.shape[axis], indices.dtype))
    return tf("gather")(a, indices, axis=axis)


def take_along_axis(arr, indices, axis):
    """A GatherNd whose index grid is the broadcast positions, with ``indices`` along ``axis``."""
    arr, indices = asarray(arr), asarray(indices)
    if axis is None:
        return take(arr, ravel(indices))
    rank = len(arr.shape)
    axis = _norm_axis(axis, rank)
    dims_a, dims_i = arr.shape.as_list(), indices.shape.as_list()
    out = [dims_i[d] if d == axis else max(dims_a[d], dims_i[d]) for d in range(rank)]
    arr = tf("broadcast_to")(arr, [dims_a[axis] if d == axis else out[d] for d in range(rank)])
    indices = tf("cast")(tf("broadcast_to")(indices, out), "int64")
    indices = tf("where")(indices < 0, indices + dims_a[axis], indices)
    grids = [tf("broadcast_to")(tf("reshape")(tf("range")(n, dtype="int64"), [1] * d + [n] + [1] * (rank - d - 1)), out)
             for d, n in enumerate(out)]
    grids[axis] = indices
    return tf("gather_nd")(arr, tf("stack")(grids, -1))


def broadcast_to(array, shape):
    return tf("broadcast_to")(asarray(array), _shape(shape))


def broadcast_arrays(*args, **kwargs):
    arrays = [asarray(a) for a in args]
    target = np.broadcast_shapes(*[tuple(a.shape.as_list()) for a in arrays])
    return [tf("broadcast_to")(a, list(target)) for a in arrays]


def pad(array, pad_width, mode, **kwargs):
    array = asarray(array)
    width = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (len(array.shape), 2)).tolist()
    return tf("pad")(array, width, mode=mode.upper(), constant_values=kwargs.get("constant_values", 0))


def tri(N, M=None, k=0, dtype=None):
    return asarray(np.tri(N, M, k, dtype=np_dtype(dtype) if dtype is not None else default_float()))


def _band(m, k, lower):
    m = asarray(m)
    rows, cols = m.shape[-2], m.shape[-1]
    mask = np.tri(rows, cols, k, dtype=bool) if lower else ~np.tri(rows, cols, k - 1, dtype=bool)
    return tf("where")(tf("constant")(mask), m, tf("zeros_like")(m))


def tril(m, k=0):
    return _band(m, k, lower=True)


def triu(m, k=0):
    return _band(m, k, lower=False)


def diag(v, k=0):
    v = asarray(v)
    if len(v.shape) == 1:
        return tf("linalg.diag")(v, k=k)
    return diagonal(v, k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The offset diagonal is the main diagonal of the matrix cut at ``offset``."""
    a = moveaxis(asarray(a), (axis1, axis2), (-2, -1))
    if offset > 0:
        a = a[..., :, offset:]
    elif offset < 0:
        a = a[..., -offset:, :]
    return tf("linalg.diag_part")(a)


def diagflat(v, k=0):
    return diag(ravel(v), k)


def diag_indices(n, ndim=2):
    return (tf("range")(n),) * ndim


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    result = tf("reduce_sum")(diagonal(a, offset, axis1, axis2), -1)
    return result if dtype is None else tf("cast")(result, tf_dtype(dtype))


def meshgrid(*xi, **kwargs):
    return tf("meshgrid")(*[asarray(x) for x in xi], indexing=kwargs.get("indexing", "xy"))


def ix_(*args):
    n = len(args)
    return [reshape(asarray(a), [1] * i + [-1] + [1] * (n - i - 1)) for i, a in enumerate(args)]


def vander(x, N=None, increasing=False):
    x = asarray(x)
    N = x.shape[0] if N is None else N
    powers = tf("range")(N) if increasing else tf("range")(N - 1, -1, -1)
    return tf("pow")(tf("reshape")(x, [-1, 1]), tf("cast")(powers, x.dtype))


def compress(condition, a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    condition = asarray(condition, bool)
    return tf("boolean_mask")(a, condition, axis=axis)


def select(condlist, choicelist, default=0):
    result = asarray(default)
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        result = where(cond, choice, result)
    return result


def where(condition, x=None, y=None):
    condition = asarray(condition, bool)
    if x is None and y is None:
        return nonzero(condition)
    x, y = _promoted([x, y])
    return tf("where")(condition, x, y)


def nonzero(a):
    a = asarray(a)
    found = tf("where")(tf("cast")(a, "bool"))
    return tuple(tf("unstack")(tf("transpose")(found), num=len(a.shape)))


def flatten(a, order="C"):
    return ravel(a)


def _advanced(item) -> bool:
    """A NumPy advanced index: a sequence, an array, a tensor that is not a scalar integer."""
    if isinstance(item, (list, tuple, np.ndarray)):
        return True
    return isinstance(item, Tensor) and (len(item.shape) > 0 or item.dtype.name == "bool")


def getitem(tensor, key, plain):
    """``tensor[key]`` once NumPy behavior is on: NumPy's advanced indexing too (``x[:, (True, False, True)]``,
    ``x[1, (0, 0, 1), idx]``), as TensorFlow's ``np_array_ops._getitem``. The positions NumPy's rules pick
    are computed on the host from the eager indices; the values are one ``GatherV2`` of the flattened tensor.
    Other keys are ``plain`` (the tensor's own indexing)."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(_advanced(item) for item in items) or isinstance(key, Tensor) and key.dtype.name == "bool" or \
            any(isinstance(t, Tensor) and t._device is None for t in (tensor,) + items):  # symbolic: a graph's
        return plain(tensor, key)
    host = tuple(np.asarray(item.numpy()) if isinstance(item, Tensor) else
                 np.asarray(item) if isinstance(item, (list, tuple)) else item for item in items)
    positions = np.arange(int(np.prod(tensor.shape)), dtype=np.int64).reshape(tuple(tensor.shape))[host]
    return tf("gather")(tf("reshape")(tensor, [-1]), positions)
