"""More of ``tf.debugging``: ``assert_all_finite`` (``CheckNumerics``), ``assert_near`` (the
closeness test as ops, TensorFlow's message when it fails) and ``assert_shapes`` (each symbolic
dimension the same size everywhere it is named; ranks as given)."""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..runtime.context import context
from .check_ops import _pretty
from .declare import API, as_tensor, public


@public("debugging.assert_all_finite")
def assert_all_finite(x, message, name=None):
    """``x``, or TensorFlow's ``InvalidArgumentError`` when it holds an Inf or a NaN."""
    return API["debugging.check_numerics"](x, message, name=name)


@public("debugging.assert_near")
def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Eagerly checks ``|x - y| <= atol + rtol * |y|`` elementwise (tolerances default to 10 eps of the dtype)."""
    x = as_tensor(x)
    y = as_tensor(y) if hasattr(y, "dtype") else API["constant"](y, x.dtype)
    eps = np.finfo(x.dtype.real_dtype.np if x.dtype.is_complex else x.dtype.np).eps if x.dtype.is_floating or \
        x.dtype.is_complex else 0
    rtol = 10 * eps if rtol is None else rtol
    atol = 10 * eps if atol is None else atol
    diff = API["abs"](API["subtract"](x, y))
    bound = API["add"](API["cast"](atol, diff.dtype), API["multiply"](API["cast"](rtol, diff.dtype), API["abs"](y)))
    condition = API["reduce_all"](API["less_equal"](diff, bound))
    if not context().eager or bool(condition.numpy()):
        return None
    summarize = 3 if summarize is None else 1e9 if summarize < 0 else summarize
    data = [f"x and y not equal to tolerance rtol = {rtol}, atol = {atol}", "x (shape=%s dtype=%s) = " % (
        tuple(x.shape), x.dtype.name), x, "y (shape=%s dtype=%s) = " % (tuple(y.shape), y.dtype.name), y]
    if message is not None:
        data.insert(0, message)
    raise InvalidArgumentError("\n".join(_pretty(d, summarize) for d in data))


@public("debugging.assert_shapes")
def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Every tensor has the rank its spec gives, and a dimension named (a string) or sized (an int)
    in a spec has that size; a named dimension the same size wherever it appears. ``...`` or ``"*"``
    first: any leading dimensions."""
    pairs = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    sizes: dict = {}
    prefix = f"{message} " if message else ""
    for index, (x, spec) in enumerate(pairs):
        x = as_tensor(x)
        dims = list(x.shape)
        spec = [spec] if isinstance(spec, (str, int)) and spec not in ("...", "*") else list(spec)
        wildcard = bool(spec) and spec[0] in ("...", "*", Ellipsis)
        if wildcard:
            spec = spec[1:]
            dims = dims[len(dims) - len(spec):] if len(dims) >= len(spec) else None
        if dims is None or (not wildcard and len(dims) != len(spec)):
            raise ValueError(f"{prefix}Specified by tensor {index} dimension: rank of tensor must be "
                             f"{len(spec)}, received rank {len(list(x.shape))}")
        for d, (got, want) in enumerate(zip(dims, spec)):
            if got is None:
                continue
            expected = want if isinstance(want, int) else sizes.setdefault(want, (int(got), index, d))[0]
            if int(got) != expected:
                origin = sizes.get(want, (expected, index, d))
                raise ValueError(f"{prefix}Specified by tensor {origin[1]} dimension {origin[2]}. Tensor {index} "
                                 f"dimension {d} must have size {expected}. Received size {int(got)}, shape "
                                 f"{tuple(x.shape)}")
    return None
