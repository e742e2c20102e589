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
    """TensorFlow's checks, eagerly: every tensor's rank first (a spec of rank 0 or 1 takes rank 0 or
    1; ``...`` or ``"*"`` first: at least the rest's rank), then each dimension sized (an int) or named
    (a string: the same size wherever it appears; ``None`` or ``"."``: any), a tensor told by its
    shape and dtype; a scalar is one of size 1."""
    pairs = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    prefix = f"{message}.  " if message else ""
    entries = []
    for x, spec in pairs:
        if spec is None:
            continue
        x = as_tensor(x)
        described = f"shape={x.shape} dtype={x.dtype.name}" if context().eager else x.name  # a graph's: its name
        if not (hasattr(spec, "__iter__") or hasattr(spec, "__getitem__")):
            raise ValueError(f"{prefix}Tensor {described}.  Specified shape must be an iterable.  An iterable has "
                             f"the attribute `__iter__` or `__getitem__`.  Received specified shape: {spec}")
        spec = tuple(spec)
        for i, symbol in enumerate(spec):
            if _any_dims(symbol) and i:
                raise ValueError(f"{prefix}Tensor {described} specified shape index {i}.  Symbol `...` or `*` for a "
                                 f"variable number of unspecified dimensions is only allowed as the first entry")
        innermost = bool(spec) and _any_dims(spec[0])
        entries.append((x, described, innermost, spec[1:] if innermost else spec))
    for x, _, innermost, sizes in entries:
        rank, got = len(sizes), x.shape.rank
        if got is None:
            continue
        if innermost and rank > 1 and got < rank:
            raise ValueError(f"{prefix}Tensor  must have rank at least {rank}.  Received rank {got}, shape {x.shape}")
        if not innermost and rank in (0, 1) and got not in (0, 1):
            raise ValueError(f"{prefix}Tensor  must have rank in (0, 1).  Received rank {got}, shape {x.shape}")
        if not innermost and rank > 1 and got != rank:
            raise ValueError(f"{prefix}Tensor  must have rank {rank}.  Received rank {got}, shape {x.shape}")
    specified: dict = {}
    for x, described, innermost, sizes in entries:
        dims = [1] if x.shape.rank == 0 else list(x.shape)
        for i, symbol in enumerate(sizes):
            if symbol is None or symbol == ".":
                continue
            at = i - len(sizes) if innermost else i
            actual = dims[at]
            known = isinstance(symbol, (int, np.integer)) and not isinstance(symbol, bool)
            if not known and symbol not in specified:
                specified[symbol] = (actual, described, at)
                continue
            if known:
                expected, check = int(symbol), "Specified explicitly"
            else:
                expected, by, by_dim = specified[symbol]
                check = f"Specified by tensor {by} dimension {by_dim}"
            if actual is not None and expected is not None and int(actual) != int(expected):
                raise ValueError(f"{prefix}{check}.  Tensor {described} dimension {at} must have size {expected}.  "
                                 f"Received size {actual}, shape {x.shape}")
    return None


def _any_dims(symbol) -> bool:
    return symbol is Ellipsis or (isinstance(symbol, str) and symbol == "*")
