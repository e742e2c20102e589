"""``tf.debugging``'s checks of what is known without running an op (a tensor's dtype, its rank,
an argument's kind), as TensorFlow's ``check_ops`` makes them: they raise at once, with its
messages (``"<message>.  "`` in front when one is given), and run no op. Eagerly they return
``None``, as TensorFlow's do."""

from __future__ import annotations

import numpy as np

from ..runtime import dtypes, scopes
from ..runtime.tensor import Tensor
from .declare import as_tensor, public

_TRACEBACK_FILTERING = {"enabled": True}


def _prefix(message) -> str:
    return f"{message}.  " if message else ""


def _static_rank(x, fn: str) -> int:
    rank = x.shape.rank
    if rank is None:
        raise NotImplementedError(f"devtrace does not implement tf.debugging.{fn} on a tensor of unknown rank yet")
    return rank


@public("debugging.assert_type")
def assert_type(tensor, tf_type, message=None, name=None):
    tf_type = dtypes.as_dtype(tf_type)
    got = as_tensor(tensor).dtype
    if got != tf_type:
        raise TypeError(f"{_prefix(message)}tensor must be of type {tf_type!r}; got {got!r}")


@public("debugging.assert_integer")
def assert_integer(x, message=None, name=None):
    x = as_tensor(x)
    if not x.dtype.is_integer:
        raise TypeError(f'{_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype {x.dtype!s}')


@public("debugging.assert_scalar")
def assert_scalar(tensor, name=None, message=None):
    tensor = as_tensor(tensor)
    if _static_rank(tensor, "assert_scalar") != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {tensor.shape}.")
    return None if scopes.executing_eagerly() else tensor


def _check_rank(x, ok, wanted, message, fn):
    x = as_tensor(x)
    rank = _static_rank(x, fn)
    if not ok(rank):
        raise ValueError(f"{_prefix(message)}Tensor  must have rank {wanted}.  Received rank {rank}, shape {x.shape}")


@public("debugging.assert_rank", "assert_rank")
def assert_rank(x, rank, message=None, name=None):
    _check_rank(x, lambda r: r == int(rank), int(rank), message, "assert_rank")


@public("debugging.assert_rank_at_least")
def assert_rank_at_least(x, rank, message=None, name=None):
    _check_rank(x, lambda r: r >= int(rank), f"at least {int(rank)}", message, "assert_rank_at_least")


@public("debugging.assert_rank_in")
def assert_rank_in(x, ranks, message=None, name=None):
    ranks = tuple(int(r) for r in ranks)
    _check_rank(x, lambda r: r in ranks, f"in {ranks}", message, "assert_rank_in")


@public("debugging.is_numeric_tensor")
def is_numeric_tensor(tensor) -> bool:
    return isinstance(tensor, Tensor) and (tensor.dtype.is_floating or tensor.dtype.is_integer or
                                           tensor.dtype.is_complex or tensor.dtype.is_quantized)


@public("debugging.assert_proper_iterable")
def assert_proper_iterable(values):
    if isinstance(values, (Tensor, np.ndarray, str, bytes)):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


@public("debugging.assert_same_float_dtype")
def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of ``tensors`` (and ``dtype``); ``float32`` when there is none."""
    first = None
    for t in tensors or ():
        if first is None:
            first = t
            dtype = dtype or t.dtype
        elif t.dtype != dtype:
            raise ValueError(f"{t!s}, type={t.dtype!s}, must be of the same type ({dtype!s}) as {first!s}.")
    if dtype is None:
        return dtypes.float32
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype!s}.")
    return dtype


@public("debugging.is_traceback_filtering_enabled")
def is_traceback_filtering_enabled() -> bool:
    return _TRACEBACK_FILTERING["enabled"]


@public("debugging.enable_traceback_filtering")
def enable_traceback_filtering() -> None:
    _TRACEBACK_FILTERING["enabled"] = True


@public("debugging.disable_traceback_filtering")
def disable_traceback_filtering() -> None:
    _TRACEBACK_FILTERING["enabled"] = False
