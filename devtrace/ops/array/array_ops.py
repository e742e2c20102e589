"""Array ops: constants, identity, reshape, fill/zeros/ones, range, cast."""

from __future__ import annotations

import builtins

import numpy as np

from ...errors import InvalidArgumentError, UnimplementedError
from ...runtime import dtypes
from ...runtime.dtypes import NUMERIC
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.eager.variables import Variable
from ...runtime.execution import kernel_error_prefix
from ...runtime.graph.graph import get_default_graph
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU, lookup
from ...runtime.tensor import Tensor
from ...runtime.tensor_shape import shape_text
from ...runtime.values import constant, convert_to_tensor, host_array
from .. import shapes, static_values
from ..declare import (API, COMPOSITE, DISPATCH, as_tensor, autopacked, graph_valued, holds_tensor, host_arg, op, op_input,
                       op_scope, packed, public, quiet, scoped, static_hint, symbolic, unary, with_graph_host_args,
                       with_host_inputs)

public("constant")(constant)


@public("convert_to_tensor")
def _convert_to_tensor(value, dtype=None, name=None):
    """A list holding tensors is packed (TensorFlow's autopacking); other values as ``convert_to_tensor``."""
    if isinstance(value, (list, tuple)) and holds_tensor(value):
        return autopacked(value, dtype)
    return convert_to_tensor(value, dtype, name)

_ANY_ON_CPU = {CPU: ALL_TYPES, GPU: DEVICE_SAFE}
op("_EagerConst", lambda xp, x: x, _ANY_ON_CPU)
op("Const", lambda xp, x: x, _ANY_ON_CPU)
identity = unary("Identity", lambda xp, x: x.copy(), _ANY_ON_CPU, ("identity",))
# The experimental dtypes TensorFlow's Cast converts, each with the dtypes it converts to and from
_FLOAT8 = frozenset(("float8_e4m3fn", "float8_e5m2"))
_INT4 = frozenset(("int4", "uint4"))
_CASTS_WITH = {**dict.fromkeys(_FLOAT8, _FLOAT8 | dtypes.FLOATS), **dict.fromkeys(_INT4, _INT4 | dtypes.INTEGERS)}
_EXPERIMENTAL = frozenset(d.name for d in dtypes.EXPERIMENTAL)


def _unsupported_cast(src, dst) -> str | None:
    """Strings cast only to strings, float8 only to floats, int4 only to integers (TensorFlow has
    no other Cast kernel for them), the other experimental dtypes not at all."""
    if (src is dtypes.string) == (dst is dtypes.string):
        s, d = src.name, dst.name
        if (s not in _EXPERIMENTAL or s == d or d in _CASTS_WITH.get(s, ())) and (
                d not in _EXPERIMENTAL or d == s or s in _CASTS_WITH.get(d, ())):
            return None  # the common case: no message made
    return f"Cast {src.c_name} to {dst.c_name} is not supported"


def _check_cast(src, dst, name) -> None:
    """Eagerly, a cast with no kernel is TensorFlow's UnimplementedError from the CPU's Cast."""
    error = _unsupported_cast(src, dst)
    if error and context().eager:
        prefix = kernel_error_prefix(lookup("Cast"), context().host)
        raise UnimplementedError(f"{prefix}{error} [Op:Cast] name: {name or ''}")


@quiet  # NaN or an out-of-range value cast to an integer: TensorFlow warns of nothing
def _cast(xp, x, DstT="float32"):
    dst = dtypes.as_dtype(DstT)
    error = _unsupported_cast(dtypes.as_dtype(x.dtype), dst)
    if error:
        raise ValueError(error)
    try:
        return x.astype(dst.np)
    except TypeError:  # between two ml_dtypes types (int4 → uint4): through a NumPy type that holds both
        return x.astype(np.float32 if dst.is_floating else np.int64).astype(dst.np)


# TensorFlow 2.21's GPU Cast kernels (cast_op_impl_*.cc): from and to each of these dtypes (the pairs
# the kernel converts at all; float8 to or from float64 has a CPU kernel only, which devtrace does not
# tell apart: its kernels are chosen by the input's dtype). The 2017 guide's TensorFlow 1 had Cast on
# the CPU only, and its example shows the fallback: ``--compat tf1``.
_CAST_GPU = NUMERIC | {"bool", "float8_e4m3fn", "float8_e5m2", "int4", "uint4"}
op("Cast", _cast, {CPU: ALL_TYPES, GPU: _CAST_GPU}, shape=shapes.cast, compat={"tf1": (CPU,)})


def _reshape(xp, x, shape=()):
    """TensorFlow's checks and texts (its kernel's), then NumPy's reshape."""
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}")
    known = int(np.prod([d for d in shape if d != -1])) if shape else 1
    if unknown and known and x.size % known:
        raise ValueError(f"Input to reshape is a tensor with {x.size} values, but the requested shape requires a "
                         f"multiple of {known}")
    if (not unknown or not known) and known != x.size:
        raise ValueError(f"Input to reshape is a tensor with {x.size} values, but the requested shape has {known}")
    if unknown and not known:  # an empty tensor: -1 beside a zero dimension is 1
        shape = [1 if d == -1 else d for d in shape]
    return xp.reshape(x, tuple(shape))


op("Reshape", _reshape, _ANY_ON_CPU, shape=shapes.reshape, host_args={"shape": "shape"})


def _fill_kernel(xp, *given, dims=(), value=0, dtype="float32"):
    """``given``: the value as the op's input (a tensor), else the ``value`` attr (a graph's shape
    input is a host input: the kernel has ``dims``)."""
    value = given[0] if given else value
    for d in dims:
        if d < 0:
            raise ValueError(f"Dimension {d} must be >= 0")
    return xp.full(tuple(dims), value, dtype=dtypes.as_dtype(dtype).np)


op("Fill", _fill_kernel, _ANY_ON_CPU, shape=shapes.fill, host_args={"dims": "dims", "value": "value@T"})


def _range(xp, *bounds, start=0, limit=0, delta=1, dtype="int32", static_size=None):
    """Bounds as attrs (eagerly: host values), or as tensor inputs (a symbolic bound in a graph;
    ``static_size``: the length the graph knows before it runs, for shape inference)."""
    if bounds:
        start, limit, delta = (b.item() for b in bounds)
    if delta == 0:
        raise ValueError(f"Requires delta != 0: {delta}")
    return xp.arange(start, limit, delta, dtype=dtypes.as_dtype(dtype).np)


op("Range", _range, NUMERIC, shape=shapes.range_, host_args={"start": "start@T", "limit": "limit@T", "delta": "delta@T"})


@public("cast", "dtypes.cast")
def cast(x, dtype, name=None):
    if isinstance(x, (Tensor, Variable)) and x.dtype is dtypes.as_dtype(dtype):
        return x  # TensorFlow's cast returns a tensor or resource variable of the dtype as it is: no op
    if type(x) in COMPOSITE:  # a RaggedTensor: its flat values cast
        return COMPOSITE[type(x)].unary(lambda v, name=None: cast(v, dtype, name), x, name)
    if ("cast", type(x)) in DISPATCH:  # a SparseTensor's or IndexedSlices' values cast
        return DISPATCH["cast", type(x)](x, dtype, name)
    x = as_tensor(x)
    _check_cast(x.dtype, dtypes.as_dtype(dtype), name)
    dt = dtypes.as_dtype(dtype)
    if x.dtype == dt:  # TensorFlow runs no op then: the same tensor comes back
        return x
    return execute("Cast", (x,), {"DstT": dt.name}, name=scoped(name))


@public("reshape")
def reshape(tensor, shape, name=None):
    x = as_tensor(tensor)
    shape, name = op_input("Reshape", name, shape, "shape")
    if symbolic(shape):
        hint = static_hint(shape)
        hint = hint if hint is None or isinstance(hint, int) else tuple(-1 if d is None else d for d in hint)
        return with_host_inputs("Reshape", (x,), (shape,), {"shape": hint}, name)
    shape = [int(d) for d in host_arg(shape)]
    return execute("Reshape", (x,), {"shape": tuple(shape)}, name=name)


def check_dims(dims, op_name):
    dims = [int(d) for d in np.atleast_1d(np.asarray(dims))]
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"Dimension -1 must be >= 0 [Op:{op_name}]")
    return tuple(dims)


def _shape_arg(shape):
    """A shape that is not integers is TensorFlow's conversion error (as ``zeros`` converts it)."""
    if not isinstance(shape, Tensor) and np.size(shape) and not dtypes.infer(shape).is_integer:
        raise TypeError(f"Cannot convert {shape!r} to EagerTensor of dtype int32")
    return shape


def _fill(dims, value, dt, name, value_dtype=None):
    """``Fill``; ``value`` converted with ``value_dtype`` (the scalar cache's key: ``None`` for
    ``tf.fill``'s, whose dtype TensorFlow infers from it). In a graph, dims computed there (``tf.shape(x)``)
    are the node's input, their static part the shape it is known by."""
    dims = packed(dims)
    if symbolic(dims):
        hint = static_hint(dims)
        hint = None if hint is None or isinstance(hint, int) else tuple(-1 if d is None else d for d in hint)
        given = value if isinstance(value, Tensor) else constant(value, dt)
        return with_host_inputs("Fill", (given,), (dims,), {"dims": hint, "dtype": dt.name}, name, dtype=dt)
    dims = host_arg(_shape_arg(dims), None, slow_list=False)  # int64 when a dim does not fit int32
    dims = tuple(int(d) for d in np.atleast_1d(dims))
    if isinstance(value, Tensor) and (dt.is_floating or dt.is_complex):  # an input a tape differentiates
        return execute("Fill", (value,), {"dims": dims, "dtype": dt.name}, name=name, dtype=dt)
    value = np.asarray(host_arg(value, value_dtype))[()]  # a string's value is bytes: no [()] of its own
    return execute("Fill", (), {"dims": dims, "value": value, "dtype": dt.name}, name=name, dtype=dt)


def _graph_filled(default, shape, value, dt, name):
    """In a graph, TensorFlow's zeros/ones of a static shape: under 1000 elements a ``Const`` named as
    the call (``_constant_if_small``), else ``Fill`` of a ``shape_as_tensor`` Const and the value's
    ``Const`` in its name scope; ``None`` eagerly, for a tensor shape, or a shape that is not one (the
    Fill path raises TensorFlow's error)."""
    if context().eager or isinstance(shape, Tensor) or dt in (dtypes.string, dtypes.variant):
        return None
    try:
        dims = np.atleast_1d(np.asarray(_shape_arg(shape), dtype=np.int64)) if np.size(shape) else ()
    except (TypeError, ValueError):  # not a shape of integers: the Fill path raises TensorFlow's error
        return None
    dims = tuple(int(d) for d in dims)
    if any(d < 0 for d in dims):
        return None
    if np.prod(dims) < 1000:
        return constant(np.full(dims, value, dt.as_numpy_dtype), dt, name=name or default)
    with op_scope(default, name) as scope:
        shape = constant(np.array(dims, np.int32), dtypes.int32, name="shape_as_tensor")
        return with_host_inputs("Fill", (constant(value, dt),), (shape,), {"dims": dims, "dtype": dt.name}, scope)


@public("fill")
def fill(dims, value, name=None):
    dt = value.dtype if isinstance(value, Tensor) else host_array(value)[1]
    return _fill(dims, value, dt, name)


@public("zeros")
def zeros(shape, dtype=dtypes.float32, name=None):
    dt = dtypes.as_dtype(dtype)
    shape = packed(shape)
    made = _graph_filled("zeros", shape, False if dt is dtypes.bool_ else 0, dt, name)
    if made is not None:
        return made
    return _fill(shape, {dtypes.string: "", dtypes.bool_: False}.get(dt, 0), dt, name, dt)  # TensorFlow's zeros


@public("ones")
def ones(shape, dtype=dtypes.float32, name=None):
    dt = dtypes.as_dtype(dtype)
    shape = packed(shape)
    made = _graph_filled("ones", shape, True if dt is dtypes.bool_ else 1, dt, name)
    if made is not None:
        return made
    return _fill(shape, True if dt is dtypes.bool_ else 1, dt, name, dt)


def _range_dtype(*bounds):
    """TensorFlow's: each bound's own dtype (a tensor's, else inferred), the widest of int32, int64,
    float16, bfloat16, float32, float64 (``tf.range(x)`` of an int64 ``x`` is int64)."""
    order = [dtypes.int32, dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64]
    found = [v.dtype if isinstance(v, Tensor) else dtypes.infer(v) for v in bounds]
    return max(found, key=lambda d: order.index(d) if d in order else -1)


@public("range")
def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 (TensorFlow's name)
    if limit is None:
        start, limit = 0, start
    symbolic = [v for v in (start, limit, delta) if isinstance(v, Tensor) and v._device is None]
    if symbolic:  # a bound known only when the graph runs: the bounds are the node's inputs
        dt = dtypes.as_dtype(dtype) if dtype is not None else symbolic[0].dtype
        with get_default_graph().name_scope(name) as scope:  # range/start, range/delta
            bounds = tuple(v if isinstance(v, Tensor) else constant(v, dt, name=arg)
                           for v, arg in zip((start, limit, delta), ("start", "limit", "delta")))
            attrs = {"dtype": dt.name}
            known = [static_values.constant_value(b) for b in bounds]
            if all(v is not None and v.ndim == 0 for v in known) and known[2] != 0:  # TensorFlow's shape fn folds them
                attrs["static_size"] = max(0, int(np.ceil((known[1] - known[0]) / known[2])))
            return execute("Range", bounds, attrs, dtype=dt, name=scope)
    dt = dtypes.as_dtype(dtype) if dtype is not None else _range_dtype(start, limit, delta)
    # converted with the dtype asked for (None: inferred), which is the scalar cache's key
    start, limit, delta = (host_arg(v, dtype)[()] for v in (start, limit, delta))
    return execute("Range", (), {"start": start, "limit": limit, "delta": delta, "dtype": dt.name}, dtype=dt,
                   name=None if context().eager else name)  # a graph's node: range, its Consts range/start …


def _shape_of(name, in_shapes, attrs, dtype):
    return dtypes.as_dtype(attrs.get("out_type", "int32")), ((None,) if in_shapes[0] is None else (len(in_shapes[0]),))



def _concat(xp, *xs, axis=0):
    for i, x in enumerate(xs[1:], 1):
        if x.ndim != xs[0].ndim:
            raise ValueError(f"ConcatOp : Ranks of all input tensors should match: shape[0] = {shape_text(xs[0].shape)} "
                             f"vs. shape[{i}] = {shape_text(x.shape)}")
        for d in builtins.range(x.ndim):
            if d != axis % max(x.ndim, 1) and x.shape[d] != xs[0].shape[d]:
                raise ValueError(f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = "
                                 f"{shape_text(xs[0].shape)} vs. shape[{i}] = {shape_text(x.shape)}")
    return xp.concatenate(xs, axis=axis)


def _transpose(xp, x, perm=()):
    missing = [i for i in builtins.range(len(perm)) if i not in perm]
    if missing:
        raise ValueError(f"{missing[0]} is missing from {{{','.join(str(p) for p in perm)}}}.")
    return xp.transpose(x, perm)


def _squeeze(xp, x, squeeze_dims=None):
    for d in squeeze_dims or ():
        if x.shape[d] != 1:
            raise ValueError(f"Can not squeeze dim[{d % x.ndim}], expected a dimension of 1, got {x.shape[d]}")
    return xp.squeeze(x, axis=squeeze_dims)


def _broadcast_to(xp, x, shape=()):
    try:
        return xp.broadcast_to(x, shape).copy()
    except ValueError:
        raise ValueError(f"Incompatible shapes: {shape_text(x.shape)} vs. {shape_text(shape)}") from None


op("Transpose", _transpose, _ANY_ON_CPU, host_args={"perm": "perm"}, shape=shapes.transpose)
op("ConcatV2", _concat, _ANY_ON_CPU, host_args={"axis": "axis"}, number_attr="N", shape=shapes.concat)
op("Pack", lambda xp, *xs, axis=0: xp.stack(xs, axis=axis), _ANY_ON_CPU, number_attr="N", shape=shapes.pack)
op("ExpandDims", lambda xp, x, axis=0: xp.expand_dims(x, axis), _ANY_ON_CPU, host_args={"axis": "dim"},
   shape=shapes.expand_dims)
op("Squeeze", _squeeze, _ANY_ON_CPU, shape=shapes.squeeze)
op("Shape", lambda xp, x, out_type="int32": xp.asarray(x.shape, dtype=dtypes.as_dtype(out_type).np), _ANY_ON_CPU,
   shape=_shape_of)
op("ZerosLike", lambda xp, x: xp.full(x.shape, b"", dtype=object) if x.dtype == object else xp.zeros_like(x),
   _ANY_ON_CPU, shape=shapes.same)  # strings: empty ones
op("OnesLike", lambda xp, x: xp.ones_like(x), _ANY_ON_CPU, shape=shapes.same)
_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _select(xp, c, a, b):
    """``where(c, a, b)``. NumPy's ``where`` branches per element, slow on a mask without pattern
    (Dropout's: 3.5 ns an element); on the host a large select of one type is bitwise instead,
    ``b ^ ((a ^ b) & mask)`` on the values' bits, which copies each chosen value exactly (NaN,
    -0.0) as TensorFlow's select does."""
    bits = _BITS.get(a.dtype.itemsize)
    if (xp is not np or bits is None or a.dtype != b.dtype or a.dtype.kind not in "biufc" or c.dtype != np.bool_
            or a.size + b.size < 8192):
        return xp.where(c, a, b)
    shape = np.broadcast_shapes(a.shape, b.shape)
    if np.broadcast_shapes(shape, c.shape) != shape:
        return xp.where(c, a, b)
    mask = c.view(np.uint8).astype(bits)
    np.negative(mask, out=mask)  # 1 -> all ones
    out = np.bitwise_xor(a.view(bits), b.view(bits))
    out &= mask
    out ^= b.view(bits)
    return out.view(a.dtype)


op("SelectV2", _select, _ANY_ON_CPU, mixed_dtypes=True, shape=shapes.select)


def _tile(xp, x, multiples=()):
    if len(multiples) != x.ndim:
        raise ValueError(f"Expected multiples argument to be a vector of length {x.ndim} but got length "
                         f"{len(multiples)}")
    return xp.tile(x, multiples)


op("Tile", _tile, _ANY_ON_CPU, host_args={"multiples": "multiples"}, shape=shapes.tile)
op("ReverseV2", lambda xp, x, axis=(): xp.flip(x, axis=axis), _ANY_ON_CPU, host_args={"axis": "axis"},
   shape=shapes.same)
op("BroadcastTo", _broadcast_to, _ANY_ON_CPU, host_args={"shape": "shape"}, shape=shapes.broadcast_to)
op("OneHot", lambda xp, i, depth=0, on=1.0, off=0.0, axis=-1, dtype="float32": xp.where(
    xp.expand_dims(i, axis) == xp.arange(depth).reshape([-1 if k == (axis % (i.ndim + 1)) else 1
                                                         for k in builtins.range(i.ndim + 1)]), on, off
).astype(dtypes.as_dtype(dtype).np), NUMERIC, host_args={"depth": "depth", "on": "on_value@T", "off": "off_value@T"},
   shape=shapes.one_hot)
op("LinSpace", lambda xp, start=0.0, stop=1.0, num=1, dtype="float32": xp.linspace(
    start, stop, num, dtype=dtypes.as_dtype(dtype).np), dtypes.FLOATS)


@public("transpose")
def transpose(a, perm=None, conjugate=False, name="transpose"):
    if context().eager:
        return _transpose_op(as_tensor(a), perm, name)
    with op_scope("transpose", name) as scope:  # TensorFlow's name scope: the gradient's goes under it
        return _transpose_op(as_tensor(a), perm, scope)


def _transpose_op(x, perm, name):
    if graph_valued(perm):  # a permutation known when the graph runs: the node's input
        perm = packed(perm)
        return with_host_inputs("Transpose", (x,), (perm,), {"perm": static_hint(perm)}, name)
    perm = tuple(int(p) for p in host_arg(list(builtins.range(len(x.shape)))[::-1] if perm is None else perm))
    return execute("Transpose", (x,), {"perm": perm}, name=name)


@public("concat")
def concat(values, axis, name="concat"):
    tensors = tuple(as_tensor(v) for v in values)
    if graph_valued(axis):  # an axis known when the graph runs: the node's input
        return with_graph_host_args("ConcatV2", tensors, {"axis": axis}, {}, name)
    return execute("ConcatV2", tensors, {"axis": int(host_arg(axis))}, name=name)


@public("stack")
def stack(values, axis=0, name="stack"):
    tensors = tuple(as_tensor(v) for v in values)
    return execute("Pack", tensors, {"axis": int(axis)}, name=name)


@public("expand_dims")
def expand_dims(input, axis, name=None):  # noqa: A002 (TensorFlow's name)
    if graph_valued(axis):  # an axis known when the graph runs: the node's input (the output's rank unknown)
        return with_graph_host_args("ExpandDims", (as_tensor(input),), {"axis": axis}, {}, name)
    return execute("ExpandDims", (as_tensor(input),), {"axis": int(host_arg(axis))}, name=name)


@public("squeeze")
def squeeze(input, axis=None, name=None):  # noqa: A002 (TensorFlow's name)
    axis = None if axis is None else (tuple(axis) if isinstance(axis, (list, tuple)) else (int(axis),))
    return execute("Squeeze", (as_tensor(input),), {"squeeze_dims": axis}, name=name)


@public("shape")
def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002 (TensorFlow's name)
    return execute("Shape", (as_tensor(input),), {"out_type": dtypes.as_dtype(out_type).name}, name=name)


@public("size")
def size(input, out_type=dtypes.int32, name=None):  # noqa: A002 (TensorFlow's name)
    """A constant, when the shape is known (as TensorFlow computes it eagerly; in a graph its ``Const``
    is named ``Size``); in a graph with an unknown dimension the product of ``Shape`` (TensorFlow's
    ``Size`` op is not in the kernel registry devtrace follows)."""
    x = as_tensor(input)
    if not x.shape.is_fully_defined():
        return API["reduce_prod"](shape(x, out_type), name=name or "Size")
    return constant(int(np.prod(x.shape)), out_type, name=None if context().eager else name or "Size")


@public("rank")
def rank(input, name=None):  # noqa: A002 (TensorFlow's name)
    """A constant when the rank is known (TensorFlow folds it), else the ``Rank`` op."""
    x = as_tensor(input)
    if x.shape.rank is None:
        return execute("Rank", (x,), name=name or "Rank")
    return constant(len(x.shape), dtypes.int32)


@public("zeros_like")
def zeros_like(input, dtype=None, name=None):  # noqa: A002 (TensorFlow's name)
    x = as_tensor(input)
    return execute("ZerosLike", (x if dtype is None else cast(x, dtype),), name=name)


@public("ones_like")
def ones_like(input, dtype=None, name=None):  # noqa: A002 (TensorFlow's name)
    x = as_tensor(input)
    return execute("OnesLike", (x if dtype is None else cast(x, dtype),), name=name)


@public("where")
def where(condition, x=None, y=None, name=None):
    c = as_tensor(condition)
    if x is None and y is None:
        from .indexing_ops import where_indices

        return where_indices(c)
    x = as_tensor(x)
    y = as_tensor(y) if isinstance(y, Tensor) else constant(y, x.dtype)
    return execute("SelectV2", (c, x, y), name=name, dtype=x.dtype)


@public("tile")
def tile(input, multiples, name=None):  # noqa: A002 (TensorFlow's name)
    multiples, name = op_input("Tile", name, multiples, "multiples")
    if symbolic(multiples):
        return with_host_inputs("Tile", (as_tensor(input),), (multiples,), {"multiples": static_hint(multiples)}, name)
    return execute("Tile", (as_tensor(input),), {"multiples": tuple(int(m) for m in host_arg(multiples))}, name=name)


@public("reverse")
def reverse(tensor, axis, name=None):
    return execute("ReverseV2", (as_tensor(tensor),), {"axis": tuple(int(a) for a in host_arg(axis))}, name=name)


@public("broadcast_to")
def broadcast_to(input, shape, name=None):  # noqa: A002 (TensorFlow's name)
    shape, name = op_input("BroadcastTo", name, shape, "shape")
    if symbolic(shape):
        hint = static_hint(shape)
        return with_host_inputs("BroadcastTo", (as_tensor(input),), (shape,),
                                {"shape": None if hint is None or isinstance(hint, int) else hint}, name)
    return execute("BroadcastTo", (as_tensor(input),), {"shape": tuple(int(d) for d in host_arg(shape))}, name=name)


@public("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    graph = not context().eager
    i = None if graph else as_tensor(indices, slow_list=True)
    given = on_value if on_value is not None else off_value
    dt = dtypes.as_dtype(dtype) if dtype is not None else (
        given.dtype if isinstance(given, Tensor) else dtypes.infer(given) if given is not None else dtypes.float32)
    on = host_arg(1 if on_value is None else on_value, dt)[()]
    off = host_arg(0 if off_value is None else off_value, dt)[()]
    dynamic = graph and graph_valued(depth)  # a depth known when the graph runs: the node's input
    attrs = {"depth": None if dynamic else int(host_arg(depth)), "on": on, "off": off,
             "axis": -1 if axis is None else int(axis), "dtype": dt.name}
    if not graph:
        return execute("OneHot", (i,), attrs, name=name)
    with op_scope("one_hot", name) as scope:  # TensorFlow's nodes: on_value, off_value, indices, depth
        values = tuple(v if isinstance(v, Tensor) else constant(host, dt, name=arg)  # a tensor given: its node
                       for v, host, arg in ((on_value, on, "on_value"), (off_value, off, "off_value")))
        i = as_tensor(indices, name="indices")
        depth = depth if dynamic else constant(np.int32(attrs["depth"]), dtypes.int32, name="depth")
        return with_host_inputs("OneHot", (i,), (depth, *values), attrs, scope)


@public("linspace", "compat.v1.lin_space")
def linspace(start, stop, num, name=None, axis=0):
    dt = dtypes.as_dtype(dtypes.infer(start)) if not isinstance(start, Tensor) else start.dtype
    ends = [x if isinstance(x, Tensor) else constant(x, dt) for x in (start, stop)]
    if dt.is_floating and ends[1].dtype == dt and (isinstance(start, Tensor) or isinstance(stop, Tensor)):
        # tensor ends are the op's inputs: a tape differentiates them (TensorFlow's composite linspace)
        return execute("LinSpace", tuple(ends), {"num": int(host_arg(num)), "dtype": dt.name}, dtype=dt, name=name)
    start, stop = float(host_arg(start, dt)), float(host_arg(stop, dt))  # stop converts to start's dtype
    if dt.is_integer:  # TensorFlow's linspace computes integer ends in float64
        dt = dtypes.float64
    return execute("LinSpace", (), {"start": start, "stop": stop, "num": int(host_arg(num)), "dtype": dt.name},
                   dtype=dt, name=name)


def _ensure_shape(xp, x, shape=()):
    if shape is None:  # an unknown rank: any shape
        return x.copy()
    if len(shape) != x.ndim or any(d is not None and d != n for d, n in zip(shape, x.shape)):
        expected = ",".join("?" if d is None else str(d) for d in shape)
        raise ValueError(f"Shape of tensor input {shape_text(x.shape)} is not compatible with expected shape "
                         f"[{expected}].")
    return x.copy()


def _ensure_shape_shape(name, in_shapes, attrs, dtype):
    """The asked shape, its unknown dims taken from the input's (TensorFlow merges the two)."""
    want, have = attrs["shape"], in_shapes[0]
    if want is None:  # an unknown rank asks nothing
        return dtype, have
    if have is None or len(have) != len(want):
        return dtype, want
    return dtype, tuple(h if w is None else w for w, h in zip(want, have))


op("EnsureShape", _ensure_shape, _ANY_ON_CPU, shape=_ensure_shape_shape)


@public("ensure_shape")
def ensure_shape(x, shape, name=None):
    """``EnsureShape``: ``x`` itself, or TensorFlow's error when its shape is not ``shape``."""
    if hasattr(shape, "as_list"):
        shape = None if shape.rank is None else shape.as_list()
    dims = None if shape is None else tuple(None if d is None or d == -1 else int(d) for d in shape)
    return execute("EnsureShape", (as_tensor(x),), {"shape": dims}, name=name)


@public("get_static_value")
def get_static_value(tensor, partial=False):
    """An eager tensor's value, a graph ``Const``'s, ``None`` for a value known only when run; a
    non-tensor as it is."""
    if not isinstance(tensor, Tensor):
        return tensor
    if tensor._device is not None:
        return tensor.numpy()
    return tensor.op.get_attr("value") if tensor.op.type == "Const" else None


op("ShapeN", lambda xp, *xs, out_type="int32": tuple(xp.asarray(x.shape, dtypes.as_dtype(out_type).np) for x in xs),
   _ANY_ON_CPU, multi=True, number_attr="N",
   shape=lambda name, shapes_, attrs, dtype: ([(dtypes.as_dtype(attrs.get("out_type", "int32")),
                                                (None if s is None else (len(s),))) for s in shapes_], None))


@public("shape_n")
def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002 (TensorFlow's name)
    tensors = tuple(as_tensor(t) for t in input)
    return list(execute("ShapeN", tensors, {"out_type": dtypes.as_dtype(out_type).name}, name=name))


op("Rank", lambda xp, x: np.int32(x.ndim), ALL_TYPES, shape=shapes.rank)  # in a graph (tf.rank folds to a constant)
op("PlaceholderWithDefault", lambda xp, x, shape=None: x.copy(), _ANY_ON_CPU, shape=shapes.variable)


def placeholder_with_default(input, shape, name=None):  # noqa: A002 (TensorFlow's argument name)
    """``tf.compat.v1.placeholder_with_default``: ``input`` (a constant ``<name>/input`` in a graph)
    unless the session feeds the node; its static shape is ``shape``."""
    dims = None if shape is None or getattr(shape, "rank", 0) is None else tuple(
        None if d is None or d == -1 else int(d) for d in shape)
    if context().eager or isinstance(input, Tensor):
        return execute("PlaceholderWithDefault", (as_tensor(input),), {"shape": dims}, name=name)
    with op_scope("PlaceholderWithDefault", name) as scope:
        return execute("PlaceholderWithDefault", (as_tensor(input, name="input"),), {"shape": dims}, name=scope)
