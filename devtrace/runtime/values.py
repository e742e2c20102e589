"""Python and NumPy values as tensors: ``constant`` and ``convert_to_tensor``.

Objects that stand for a tensor (variables) convert through TensorFlow's ``__tf_tensor__``
protocol, so this module needs to know none of them.
"""

from __future__ import annotations

import numpy as np

from . import dtypes, threads, weak
from .context import context
from .eager.executor import execute_const
from .tensor import Tensor


_SCALARS = (int, float, bool)


_LEAVES = (int, float, complex, bool, str, bytes, np.generic, np.ndarray)


def _check_convertible(value) -> bool:
    """TensorFlow's error for a value no tensor can hold (a dict, an arbitrary object); whether a
    ``range`` is inside (TensorFlow converts it as the Python sequence it lists)."""
    if isinstance(value, (list, tuple)):
        found = False
        for item in value:
            found = _check_convertible(item) or found
        return found
    if isinstance(value, range):
        return True
    if not isinstance(value, _LEAVES):  # None too: alone or inside a list
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)!r}) to a "
                         f"Tensor.")
    return False


def _ranges_listed(value):
    if isinstance(value, range):
        return list(value)
    return [_ranges_listed(v) if isinstance(v, (range, list, tuple)) else v for v in value]


_OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."


def _all_ints(value) -> bool:
    if isinstance(value, (list, tuple)):
        return bool(value) and all(_all_ints(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


def _leaves(value):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _check_graph_dtype(value, dt) -> None:
    """While a graph is built TensorFlow checks each element against the dtype asked for
    (``_AssertCompatible``) and names the first it refuses."""
    for leaf in _leaves(value):
        if dt is dtypes.string:
            ok = isinstance(leaf, (str, bytes))
        elif dt is dtypes.bool_:
            ok = isinstance(leaf, (bool, np.bool_))
        elif dt.is_integer:
            ok = isinstance(leaf, (bool, int, np.bool_, np.integer))
        else:
            ok = isinstance(leaf, (bool, int, float, np.bool_, np.integer, np.floating)) or \
                dt.is_complex and isinstance(leaf, (complex, np.complexfloating))
        if not ok:
            raise TypeError(f"Expected {dt.name}, but got {leaf} of type '{type(leaf).__name__}'.")


def _check_mixed(value) -> None:
    """TensorFlow types a Python sequence by its first element: after a bool only bools, after a
    string only strings, after a number no string (a bool is a number there)."""
    leaves = list(_leaves(value))
    if not leaves:
        return
    first = leaves[0]
    if isinstance(first, (bool, np.bool_)):
        mixed = not all(isinstance(v, (bool, np.bool_)) for v in leaves)
    elif isinstance(first, (str, bytes)):
        mixed = not all(isinstance(v, (str, bytes)) for v in leaves)
    else:
        mixed = any(isinstance(v, (str, bytes)) for v in leaves)
    if mixed:
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")


def _tensor_values(value):
    if isinstance(value, (list, tuple)):
        return [_tensor_values(v) for v in value]
    if isinstance(value, Tensor):
        value = value.numpy()
        return value[()] if isinstance(value, np.ndarray) else value  # a string scalar's numpy() is bytes
    return value


def _array_like(value):
    """What TensorFlow converts as NumPy does: an object with ``__array__`` (a pandas Series or
    DataFrame, an xarray) as its array, a ``memoryview`` as the Python sequence it lists."""
    if isinstance(value, memoryview):
        return value.tolist()
    if hasattr(value, "__array__") and not isinstance(value, (np.ndarray, np.generic, Tensor)):
        return np.asarray(value)
    return value


def host_array(value, dtype=None, shape=None):
    """``(NumPy array, DType)`` for a Python/NumPy value, as ``tf.constant`` converts it."""
    if type(value) is np.ndarray and dtype is None and shape is None and value.dtype.kind in "biufc":
        dt = dtypes.infer(value)  # a numeric array (a batch of a Keras fit each step): none of the checks below apply
        return np.array(value, dtype=dt.np), dt
    if isinstance(value, Tensor):
        value = value.numpy()
    if value is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in _leaves(value)):
        value = _tensor_values(value)  # TensorFlow packs a list holding tensors: their values, their dtypes
    value = _array_like(value)
    if _check_convertible(value):
        value = _ranges_listed(value)
    if dtype is not None and not isinstance(value, np.ndarray) and not context().eager:
        _check_graph_dtype(value, dtypes.as_dtype(dtype))
    if isinstance(value, (list, tuple)):
        _check_mixed(value)
    if isinstance(value, np.ndarray) and value.dtype == object:
        for item in value.reshape(-1):
            if not isinstance(item, (bytes, str)):
                raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type "
                                 f"{type(item).__name__}).")
    try:
        inferred = dtypes.infer(value)
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if inferred is dtypes.string and _all_ints(value):  # beyond what NumPy holds as an integer
        raise ValueError(_OUT_OF_RANGE)
    dt = dtypes.as_dtype_public(dtype) if dtype is not None else inferred
    if (dt.is_integer and (inferred.is_floating or inferred.is_complex) or dt is dtypes.string is not inferred
            or dt is dtypes.bool_ is not inferred or dt.is_floating and inferred.is_complex) \
            and not isinstance(value, np.ndarray) and np.size(value):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dt.c_name}")
    if dt is dtypes.string:
        arr = np.asarray(value, dtype=object)
        arr = np.vectorize(lambda v: v.encode() if isinstance(v, str) else v, otypes=[object])(arr) if arr.size else arr
    else:
        try:
            arr = np.array(value, dtype=dt.np)
        except OverflowError:  # Python ints: wrapped into a narrower dtype, an error beyond int64
            try:
                arr = np.array(value, dtype=np.int64).astype(dt.np)
            except OverflowError:
                raise ValueError(_OUT_OF_RANGE) from None
        except (ValueError, TypeError):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dt.c_name}") from None
        if dtype is None and dt is dtypes.float32 and not isinstance(value, np.ndarray) and \
                not np.isfinite(arr).all() and np.isfinite(np.asarray(value, dtype=np.float64)).all():
            raise ValueError("Can't convert Python sequence with a value out of range for a double-precision float.")
    if shape is not None:
        shape = tuple(int(d) for d in shape)
        if arr.size == 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {arr} (converted from "
                            f"{value}) has {arr.size} elements, but got `shape` {shape} with {int(np.prod(shape))} "
                            f"elements).")
    return arr, dt


def host_constant(value, dtype):
    """An op's non-tensor argument as TensorFlow converts it (a shape, an axis, a fill value):
    an ``_EagerConst`` placed and logged like any constant — Python scalars through the same
    scalar cache as ``constant`` — but kept in host memory, as TensorFlow keeps such arguments
    (not counted on a GPU)."""
    ctx = context()
    if ctx.threaded and not threads.owned():  # the scope in the key is this thread's (threads.py)
        return threads.locked(ctx, host_constant, value, dtype)
    key = None
    if type(value) in _SCALARS and ctx.eager:  # a graph's constant is no eager tensor to reuse
        key = (ctx.scope, value, None if dtype is None else dtypes.as_dtype(dtype), type(value))
        cached = ctx.scalar_cache.get(key)
        if cached is not None:
            return cached
    arr, dt = host_array(value, dtype)
    tensor = execute_const(arr, dt, account=False)
    if key is not None:
        ctx.scalar_cache[key] = tensor
    return tensor


def constant(value, dtype=None, shape=None, name=None) -> Tensor:
    """A constant, placed like any op (``_EagerConst`` in the placement log).

    Python ints and floats go through TensorFlow's scalar cache: one buffer per (device scope,
    value, dtype, type) for the context's lifetime, so converting the same scalar again executes
    nothing (``x + 1.0`` logs ``_EagerConst`` the first time only). As TensorFlow's cache holds the
    handle, not the Python tensor, each call returns a tensor object of its own: two
    ``tf.constant(0.0)`` watched by two tapes are two sources."""
    if shape is None and type(value) in _SCALARS:
        ctx = context()
        if ctx.threaded and not threads.owned():  # the scope in the key is this thread's (threads.py)
            return threads.locked(ctx, constant, value, dtype, shape, name)
        if ctx.eager:
            if dtype is None and weak.MODE is not None:  # an auto dtype conversion mode: a fresh weak tensor
                return _weak_constant(value, name)
            key = (ctx.scope, value, None if dtype is None else dtypes.as_dtype(dtype), type(value))
            cached = ctx.scalar_cache.get(key)
            if cached is None:
                arr, dt = host_array(value, dtype)
                cached = ctx.scalar_cache[key] = execute_const(arr, dt, name)
            return Tensor(cached._value, cached._device, None, cached._dtype, cached._seq)
    if dtype is None and weak.MODE is not None and isinstance(value, (list, tuple, complex)) and context().eager:
        return _weak_constant(value, name, shape)
    arr, dt = host_array(value, dtype, shape)
    return execute_const(arr, dt, name)


def _weak_constant(value, name, shape=None):
    """``tf.constant`` of Python values under an auto dtype conversion mode: weak, typed by the lattice."""
    key = weak.key(value)
    if key is None or not key[1]:
        arr, dt = host_array(value, None, shape)
        return execute_const(arr, dt, name)
    arr, dt = host_array(value, dtypes.as_dtype(key[0]), shape)
    return weak.make_weak(execute_const(arr, dt, name))


def convert_to_tensor(value, dtype=None, name=None) -> Tensor:
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
        return value
    convert = getattr(type(value), "__tf_tensor__", None)
    if convert is not None:
        return convert(value, dtype, name)
    return constant(value, dtype, name=name)
