"""Math ops: elementwise arithmetic and comparisons, matrix products, sums.

Adding an elementwise op is one line here — e.g.
``sqrt = unary("Sqrt", lambda xp, x: xp.sqrt(x), FLOATS, ("sqrt", "math.sqrt"))`` — plus its test.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..runtime.dtypes import FLOATS, NUMERIC
from ..runtime.eager.executor import execute
from ..runtime.tensor import Tensor
from . import shapes
from .declare import as_tensor, binary, host_arg, op, pair, public, unary

add = binary("AddV2", lambda xp, a, b: a + b, NUMERIC, ("add", "math.add"))
subtract = binary("Sub", lambda xp, a, b: a - b, NUMERIC, ("subtract", "math.subtract"))
multiply = binary("Mul", lambda xp, a, b: a * b, NUMERIC, ("multiply", "math.multiply"))
divide = binary("RealDiv", lambda xp, a, b: a / b, NUMERIC, ("divide", "math.divide"))
less = binary("Less", lambda xp, a, b: a < b, NUMERIC, ("less", "math.less"), shape=shapes.broadcast_bool)
less_equal = binary("LessEqual", lambda xp, a, b: a <= b, NUMERIC, ("less_equal", "math.less_equal"),
                    shape=shapes.broadcast_bool)
greater = binary("Greater", lambda xp, a, b: a > b, NUMERIC, ("greater", "math.greater"),
                 shape=shapes.broadcast_bool)
greater_equal = binary("GreaterEqual", lambda xp, a, b: a >= b, NUMERIC, ("greater_equal", "math.greater_equal"),
                       shape=shapes.broadcast_bool)
negative = unary("Neg", lambda xp, a: -a, NUMERIC, ("negative", "math.negative"))
square = unary("Square", lambda xp, a: a * a, NUMERIC, ("square", "math.square"))
sqrt = unary("Sqrt", lambda xp, x: xp.sqrt(x), FLOATS, ("sqrt", "math.sqrt"))


def _matmul(xp, a, b, transpose_a=False, transpose_b=False):
    return xp.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


op("MatMul", _matmul, NUMERIC, shape=shapes.matmul)


@public("matmul", "linalg.matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    a, b = pair(a, b)
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


def _add_n(xp, *arrays):
    out = arrays[0].copy()
    for a in arrays[1:]:
        out += a
    return out


op("AddN", _add_n, NUMERIC, shape=shapes.same)


@public("add_n", "math.add_n")
def add_n(inputs, name=None):
    if not inputs:
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    tensors = [as_tensor(t) for t in inputs]
    shapes_ = {t.shape for t in tensors}
    if len(shapes_) > 1:
        raise InvalidArgumentError(f"Shapes must be equal rank and compatible, got {sorted(map(list, shapes_))} "
                                   f"[Op:AddN]", op="AddN")
    return execute("AddN", tuple(tensors), name=name)


def _sum(xp, x, axis=None, keepdims=False):
    return xp.asarray(xp.sum(x, axis=axis, keepdims=keepdims), dtype=x.dtype)


op("Sum", _sum, NUMERIC, shape=shapes.reduction, host_args=("axis",))


@public("reduce_sum", "math.reduce_sum")
def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    x = as_tensor(input_tensor)
    axes = host_arg(np.arange(len(x.shape), dtype=np.int32) if axis is None else axis)
    axis = None if axis is None else (int(axes) if axes.ndim == 0 else tuple(int(a) for a in axes))
    return execute("Sum", (x,), {"axis": axis, "keepdims": bool(keepdims)}, name=name)


def _install_operators():
    """TensorFlow's ``math_ops`` overrides Python's operators on its Tensor class; so do these."""
    def swapped(fn):
        return lambda self, other: fn(other, self)

    binary_ops = {"add": add, "sub": subtract, "mul": multiply, "truediv": divide, "matmul": matmul}
    for name, fn in binary_ops.items():
        setattr(Tensor, f"__{name}__", lambda self, other, _fn=fn: _fn(self, other))
        setattr(Tensor, f"__r{name}__", swapped(fn))
    for name, fn in {"lt": less, "le": less_equal, "gt": greater, "ge": greater_equal}.items():
        setattr(Tensor, f"__{name}__", lambda self, other, _fn=fn: _fn(self, other))
    Tensor.__neg__ = lambda self: negative(self)


_install_operators()
