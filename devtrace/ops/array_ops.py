"""Array ops: constants, identity, reshape, fill/zeros/ones, range, cast."""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..runtime import dtypes
from ..runtime.dtypes import NUMERIC
from ..runtime.eager.executor import execute
from ..runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ..runtime.tensor import Tensor
from ..runtime.values import constant, convert_to_tensor, host_array
from . import shapes
from .declare import as_tensor, host_arg, op, public, unary

public("constant")(constant)
public("convert_to_tensor")(convert_to_tensor)

_ANY_ON_CPU = {CPU: ALL_TYPES, GPU: DEVICE_SAFE}
op("_EagerConst", lambda xp, x: x, _ANY_ON_CPU)
op("Const", lambda xp, x: x, _ANY_ON_CPU)
identity = unary("Identity", lambda xp, x: x.copy(), _ANY_ON_CPU, ("identity",))
# As in the guide's own example, Cast has only a CPU kernel: a GPU request falls back to CPU.
op("Cast", lambda xp, x, DstT="float32": x.astype(dtypes.as_dtype(DstT).np), devices=(CPU,), shape=shapes.cast)
op("Reshape", lambda xp, x, shape=(): xp.reshape(x, tuple(shape)), _ANY_ON_CPU, shape=shapes.reshape,
   host_args=("shape",))
op("Fill", lambda xp, dims=(), value=0, dtype="float32": xp.full(tuple(dims), value, dtype=dtypes.as_dtype(dtype).np),
   _ANY_ON_CPU, shape=shapes.fill, host_args=("dims",))
op("Range", lambda xp, start=0, limit=0, delta=1, dtype="int32": xp.arange(start, limit, delta,
                                                                          dtype=dtypes.as_dtype(dtype).np),
   NUMERIC, shape=shapes.range_)


@public("cast", "dtypes.cast")
def cast(x, dtype, name=None):
    x = as_tensor(x)
    dt = dtypes.as_dtype(dtype)
    return execute("Cast", (x,), {"DstT": dt.name}, name=name)


@public("reshape")
def reshape(tensor, shape, name=None):
    x = as_tensor(tensor)
    shape = [int(d) for d in host_arg(shape)]
    known = int(np.prod([d for d in shape if d != -1])) if shape else 1
    if shape.count(-1) > 1 or (-1 not in shape and known != int(np.prod(x.shape))) \
            or (-1 in shape and (known == 0 or int(np.prod(x.shape)) % known)):
        raise InvalidArgumentError(f"Input to reshape is a tensor with {int(np.prod(x.shape))} values, but the "
                                   f"requested shape has {known} [Op:Reshape]", op="Reshape")
    return execute("Reshape", (x,), {"shape": tuple(shape)}, name=name)


def check_dims(dims, op_name):
    dims = [int(d) for d in dims]
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"Dimension -1 must be >= 0 [Op:{op_name}]", op=op_name)
    return tuple(dims)


def _fill(dims, value, dt, name):
    dims = check_dims(host_arg(dims), "Fill")
    return execute("Fill", (), {"dims": dims, "value": host_arg(value, dt)[()], "dtype": dt.name}, name=name, dtype=dt)


@public("fill")
def fill(dims, value, name=None):
    arr, dt = host_array(value)
    return _fill(dims, value, dt, name)


@public("zeros")
def zeros(shape, dtype=dtypes.float32, name=None):
    return _fill(shape, 0, dtypes.as_dtype(dtype), name)


@public("ones")
def ones(shape, dtype=dtypes.float32, name=None):
    return _fill(shape, 1, dtypes.as_dtype(dtype), name)


@public("range")
def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 (TensorFlow's name)
    if limit is None:
        start, limit = 0, start
    if delta == 0:
        raise InvalidArgumentError("Requires delta != 0: 0 [Op:Range]", op="Range")
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.infer([start, limit, delta])
    # converted with the dtype asked for (None: inferred), which is the scalar cache's key
    start, limit, delta = (host_arg(v, dtype)[()] for v in (start, limit, delta))
    return execute("Range", (), {"start": start, "limit": limit, "delta": delta, "dtype": dt.name}, dtype=dt)
