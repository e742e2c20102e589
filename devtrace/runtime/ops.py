"""The op functions of the public API (``matmul``, ``add`` …), named as in TensorFlow and
logged under TensorFlow's op types (``MatMul``, ``AddV2`` …)."""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from . import dtypes, kernels
from .executor import execute, execute_const
from .tensor import Tensor


def _host_array(value, dtype=None, shape=None):
    if isinstance(value, Tensor):
        value = value.numpy()
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.infer(value)
    if dt is dtypes.string:
        arr = np.asarray(value, dtype=object)
        arr = np.vectorize(lambda v: v.encode() if isinstance(v, str) else v, otypes=[object])(arr) if arr.size else arr
    else:
        try:
            arr = np.array(value, dtype=dt.np)
        except (ValueError, TypeError) as e:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dt.name}: {e}") from None
    if shape is not None:
        shape = tuple(int(d) for d in shape)
        if arr.size == 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tried to convert {arr.size} "
                            f"elements to shape {list(shape)}")
    return arr, dt


def constant(value, dtype=None, shape=None, name=None) -> Tensor:
    """A constant, placed like any op (``_EagerConst`` in the placement log)."""
    arr, dt = _host_array(value, dtype, shape)
    return execute_const(arr, dt, name)


def convert_to_tensor(value, dtype=None, name=None) -> Tensor:
    from .variables import Variable

    if isinstance(value, Tensor):
        return value
    if isinstance(value, Variable):
        return value.read_value()
    return constant(value, dtype, name=name)


def _pair(a, b):
    """Convert a binary op's operands; a Python scalar takes the other operand's dtype."""
    from .variables import Variable

    if isinstance(a, Variable):
        a = a.read_value()
    if isinstance(b, Variable):
        b = b.read_value()
    a_t, b_t = isinstance(a, Tensor), isinstance(b, Tensor)
    if a_t and not b_t:
        b = constant(b, a._dtype)
    elif b_t and not a_t:
        a = constant(a, b._dtype)
    elif not a_t:
        a = constant(a)
        b = constant(b, a._dtype)
    return a, b


def _binary(op_name, a, b, name):
    if type(a) is not Tensor or type(b) is not Tensor:
        a, b = _pair(a, b)
    return execute(op_name, (a, b), name=name)


def add(x, y, name=None):
    if type(x) is Tensor and type(y) is Tensor:  # the common case, one call shorter
        return execute("AddV2", (x, y), name=name)
    return _binary("AddV2", x, y, name)


def subtract(x, y, name=None):
    return _binary("Sub", x, y, name)


def multiply(x, y, name=None):
    return _binary("Mul", x, y, name)


def divide(x, y, name=None):
    return _binary("RealDiv", x, y, name)


def less(x, y, name=None):
    return _binary("Less", x, y, name)


def less_equal(x, y, name=None):
    return _binary("LessEqual", x, y, name)


def greater(x, y, name=None):
    return _binary("Greater", x, y, name)


def greater_equal(x, y, name=None):
    return _binary("GreaterEqual", x, y, name)


def negative(x, name=None):
    return execute("Neg", (convert_to_tensor(x),), name=name)


def square(x, name=None):
    return execute("Square", (convert_to_tensor(x),), name=name)


def identity(x, name=None):
    return execute("Identity", (convert_to_tensor(x),), name=name)


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    a, b = _pair(a, b)
    sa, sb = a.shape, b.shape
    if len(sa) < 2 or len(sb) < 2:
        raise InvalidArgumentError(f"In[0] and In[1] must be matrices: In[0]: {list(sa)}, In[1]: {list(sb)} "
                                   f"[Op:MatMul]", op="MatMul")
    k_a = sa[-2] if transpose_a else sa[-1]
    k_b = sb[-1] if transpose_b else sb[-2]
    if k_a != k_b:
        raise InvalidArgumentError(f"Matrix size-incompatible: In[0]: [{','.join(map(str, sa))}], "
                                   f"In[1]: [{','.join(map(str, sb))}] [Op:MatMul]", op="MatMul")
    attrs = {"transpose_a": True} if transpose_a else None
    if transpose_b:
        attrs = dict(attrs or {}, transpose_b=True)
    return execute("MatMul", (a, b), attrs, name=name)


def add_n(inputs, name=None):
    if not inputs:
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    tensors = [convert_to_tensor(t) for t in inputs]
    shapes = {t.shape for t in tensors}
    if len(shapes) > 1:
        raise InvalidArgumentError(f"Shapes must be equal rank and compatible, got {sorted(map(list, shapes))} "
                                   f"[Op:AddN]", op="AddN")
    return execute("AddN", tuple(tensors), name=name)


def cast(x, dtype, name=None):
    x = convert_to_tensor(x)
    dt = dtypes.as_dtype(dtype)
    return execute("Cast", (x,), {"DstT": dt.name}, name=name)


def reshape(tensor, shape, name=None):
    x = convert_to_tensor(tensor)
    shape = [int(d) for d in (shape.numpy() if isinstance(shape, Tensor) else shape)]
    known = int(np.prod([d for d in shape if d != -1])) if shape else 1
    if shape.count(-1) > 1 or (-1 not in shape and known != int(np.prod(x.shape))) \
            or (-1 in shape and (known == 0 or int(np.prod(x.shape)) % known)):
        raise InvalidArgumentError(f"Input to reshape is a tensor with {int(np.prod(x.shape))} values, but the "
                                   f"requested shape has {known} [Op:Reshape]", op="Reshape")
    return execute("Reshape", (x,), {"shape": tuple(shape)}, name=name)


def _check_dims(dims, op):
    dims = [int(d) for d in dims]
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"Dimension -1 must be >= 0 [Op:{op}]", op=op)
    return tuple(dims)


def fill(dims, value, name=None):
    arr, dt = _host_array(value)
    return execute("Fill", (), {"dims": _check_dims(dims, "Fill"), "value": arr[()], "dtype": dt.name},
                   name=name, dtype=dt)


def zeros(shape, dtype=dtypes.float32, name=None):
    dt = dtypes.as_dtype(dtype)
    return execute("Fill", (), {"dims": _check_dims(shape, "Fill"), "value": 0, "dtype": dt.name}, name=name, dtype=dt)


def ones(shape, dtype=dtypes.float32, name=None):
    dt = dtypes.as_dtype(dtype)
    return execute("Fill", (), {"dims": _check_dims(shape, "Fill"), "value": 1, "dtype": dt.name}, name=name, dtype=dt)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 (TensorFlow's name)
    if limit is None:
        start, limit = 0, start
    if delta == 0:
        raise InvalidArgumentError("Requires delta != 0: 0 [Op:Range]", op="Range")
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.infer([start, limit, delta])
    return execute("Range", (), {"start": start, "limit": limit, "delta": delta, "dtype": dt.name}, dtype=dt)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    x = convert_to_tensor(input_tensor)
    if isinstance(axis, list):
        axis = tuple(axis)
    return execute("Sum", (x,), {"axis": axis, "keepdims": bool(keepdims)}, name=name)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    dt = dtypes.as_dtype(dtype)
    if maxval is None:
        maxval = 1
    return execute("RandomUniform", (), {"shape": _check_dims(shape, "RandomUniform"), "minval": minval,
                                         "maxval": maxval, "dtype": dt.name, "seed": seed}, name=name, dtype=dt)


def as_string(input, name=None):  # noqa: A002 (TensorFlow's name)
    return execute("AsString", (convert_to_tensor(input),), name=name)


def register_op(op_type: str, fn, device_types=("CPU",), dtypes_=None):
    """Register a custom op and return a function that runs it.

    ``fn(xp, *arrays, **attrs)`` computes the output with ``xp`` (NumPy, or CuPy on a real
    GPU); ``device_types`` lists the device types that have a kernel. An op registered for
    the CPU only falls back to the CPU under a GPU scope, as ``cast`` does::

        double = devtrace.register_op("Double", lambda xp, x: x * 2, device_types=["CPU"])
        y = double(x)            # Executing op Double in device .../device:CPU:0
    """
    if not isinstance(op_type, str) or not op_type.isidentifier():
        raise ValueError(f"op_type must be an identifier like 'MyOp', got {op_type!r}")
    kernels.register(op_type, fn, tuple(device_types), dtypes_)

    def run(*inputs, name=None, **attrs):
        tensors = tuple(convert_to_tensor(x) for x in inputs)
        return execute(op_type, tensors, attrs or None, name=name,
                       dtype=tensors[0]._dtype if tensors else dtypes.float32)

    run.__name__ = op_type
    return run


def _install_operators():
    def swapped(fn):
        return lambda self, other: fn(other, self)

    binary = {"add": add, "sub": subtract, "mul": multiply, "truediv": divide, "matmul": matmul}
    for name, fn in binary.items():
        setattr(Tensor, f"__{name}__", lambda self, other, _fn=fn: _fn(self, other))
        setattr(Tensor, f"__r{name}__", swapped(fn))
    for name, fn in {"lt": less, "le": less_equal, "gt": greater, "ge": greater_equal}.items():
        setattr(Tensor, f"__{name}__", lambda self, other, _fn=fn: _fn(self, other))
    Tensor.__neg__ = lambda self: negative(self)


_install_operators()
