"""``tf.debugging``'s ``assert_*`` functions (TensorFlow's ``check_ops``): eagerly, the comparison
and ``reduce_all`` run as ops, and a failed check raises ``InvalidArgumentError`` with the message
TensorFlow composes in Python; in a graph or ``tf.function`` the comparison and ``reduce_all``
nodes are built, but devtrace has no ``Assert`` op to fail them yet. (``check_numerics`` and
``ensure_shape`` are ops, in ``math_ops`` and ``array_ops``.)"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..runtime.context import context
from ..runtime.tensor import Tensor
from ..runtime.values import constant
from .math import math_ops
from .declare import as_tensor, public
from .math.reduction_ops import reduce_all


def _pretty(item, summarize) -> str:
    """One piece of a failed assertion's message (TensorFlow's ``_pretty_print``)."""
    if not isinstance(item, Tensor):
        return str(item)
    value = item.numpy()
    if np.isscalar(value):
        return str(value)
    flat = value.reshape((-1,))
    shown = [str(v) for v in flat[:summarize]]
    if len(shown) < flat.size:
        shown.append("...")
    return str(shown)


def _differences(sym, x, y, summarize, test) -> list:
    """The default message of a failed binary assertion (TensorFlow's ``_make_assert_msg_data``)."""
    data = [f"Condition x {sym} y did not hold."]
    if summarize <= 0:
        return data
    xv, yv = x.numpy(), y.numpy()
    if xv.shape == yv.shape and xv.ndim:
        mask = ~test.numpy()
        indices = np.argwhere(mask)
        count = min(summarize, indices.shape[0])
        data += [f"Indices of first {count} different values:", indices[:count],
                 "Corresponding x values:", xv[mask].reshape((-1,))[:count],
                 "Corresponding y values:", yv[mask].reshape((-1,))[:count]]
    xs, ys = xv.reshape((-1,)), yv.reshape((-1,))
    xn, yn = min(xs.size, summarize), min(ys.size, summarize)
    return data + [f"First {xn} elements of x:", xs[:xn], f"First {yn} elements of y:", ys[:yn]]


def _binary_assert(sym, compare, x, y, data, summarize, message):
    x, y = as_tensor(x), as_tensor(y)
    test = compare(x, y)
    condition = reduce_all(test)
    if not context().eager or bool(condition.numpy()):
        return None
    summarize = 3 if summarize is None else 1e9 if summarize < 0 else summarize  # 1e9: TensorFlow's "all"
    if data is None:
        data = _differences(sym, x, y, summarize, test)
    if message is not None:
        data = [message, *data]
    raise InvalidArgumentError("\n".join(_pretty(d, summarize) for d in data))


def _binary(sym, compare, api):
    def fn(x, y, message=None, summarize=None, name=None):
        return _binary_assert(sym, compare, x, y, None, summarize, message)
    fn.__name__ = api[0].rsplit(".", 1)[-1]
    return public(*api)(fn)


def _names(name, top=False) -> tuple:
    return (f"debugging.{name}", f"compat.v1.{name}") + ((name,) if top else ())


assert_equal = _binary("==", math_ops.equal, _names("assert_equal", top=True))
assert_none_equal = _binary("!=", math_ops.not_equal, _names("assert_none_equal"))
assert_less = _binary("<", math_ops.less, _names("assert_less", top=True))
assert_less_equal = _binary("<=", math_ops.less_equal, _names("assert_less_equal"))
assert_greater = _binary(">", math_ops.greater, _names("assert_greater", top=True))
assert_greater_equal = _binary(">=", math_ops.greater_equal, _names("assert_greater_equal"))


def _sign(description, compare, zero_first, api):
    """``assert_positive`` & co.: ``x`` against zero, with TensorFlow's element-wise message."""
    def fn(x, message=None, summarize=None, name=None):
        x = as_tensor(x)
        data = [f"{message}.  " if message else "", f"Condition x {description} did not hold element-wise:",
                f"x (shape={x.shape} dtype={x.dtype.name}) = ", x]
        zero = as_tensor(np.zeros((), x.dtype.np))
        return _binary_assert(None, compare, *((zero, x) if zero_first else (x, zero)), data, summarize, None)
    fn.__name__ = api[0].rsplit(".", 1)[-1]
    return public(*api)(fn)


assert_positive = _sign("> 0", math_ops.less, True, _names("assert_positive"))
assert_negative = _sign("< 0", math_ops.less, False, _names("assert_negative"))
assert_non_negative = _sign(">= 0", math_ops.less_equal, True, _names("assert_non_negative"))
assert_non_positive = _sign("<= 0", math_ops.less_equal, False, _names("assert_non_positive"))


def _monotonic(x, compare):
    """TensorFlow's composition: every neighbour difference of the flattened ``x`` compared with 0."""
    from .array.array_ops import reshape

    x = reshape(as_tensor(x), [-1])
    if not x.dtype.is_numeric:
        raise TypeError(f"Expected x to be numeric, instead found: {x.dtype}")
    if x.shape[0] < 2:
        return constant(True)
    diff = math_ops.subtract(x[1:], x[:-1])
    return reduce_all(compare(constant(0, diff.dtype), diff))


@public("math.is_non_decreasing", "debugging.is_non_decreasing")
def is_non_decreasing(x, name=None):
    return _monotonic(x, math_ops.less_equal)


@public("math.is_strictly_increasing", "debugging.is_strictly_increasing")
def is_strictly_increasing(x, name=None):
    return _monotonic(x, math_ops.less)
