"""``--compute none`` (``DEVTRACE_COMPUTE=none``): every op placed, logged, traced and accounted
as in a computing run — the same op sequence, devices, shapes, dtypes, copies, allocator figures,
peaks and OOMs — without computing its values.

Each device's backend becomes a :class:`PlanBackend` (:func:`install`). Its ``xp`` is ``None``, so
the execution step hands every op to its ``run`` (no hot path calls a kernel), which returns
:class:`Uncomputed` placeholders — a shape, a dtype and the op that made it, ``nbytes`` as NumPy's
array would have them, no buffer — planned by the op's shape function. Values are computed where
they are real and cheap:

- an op whose inputs are all computed and small, its output small too (``SMALL`` elements): shape
  arithmetic on int32 shape tensors, ``tf.shape`` results, a learning rate, small host constants —
  so ``tf.function`` tracing, Keras model building and AutoGraph work;
- the ops that read only their inputs' shapes (``Shape``, ``Size``, ``Rank`` …), always;
- an op whose output shape depends on its input values (``Where``, ``Unique``, ``boolean_mask``),
  when its inputs are computed; otherwise one line says so.

Reading a value that was not computed (``.numpy()``, ``print``, a Python ``if`` on a tensor,
``float()``) raises :class:`~devtrace.errors.ValueNotComputed`: one line naming the mode, the op
and the program's line — never a made-up number.
"""

from __future__ import annotations

from math import prod

import numpy as np

from ..errors import ValueNotComputed
from . import dtypes
from .locations import caller_location

MODE = "--compute none"
# elements an op's inputs and its output may have for it to be computed from computed inputs
SMALL = 1 << 12
# ops that read only their inputs' shapes: their kernels run on placeholders
FROM_SHAPES = frozenset(("Shape", "ShapeN", "Size", "Rank", "VariableShape", "BroadcastArgs",
                         "BroadcastGradientArgs", "VarHandleOp", "NoOp", "VarIsInitializedOp"))
# ops whose output shape depends on the values of their inputs
VALUE_DEPENDENT = frozenset(("Where", "Unique", "UniqueWithCounts", "DenseBincount", "EagerPyFunc", "PrintV2",
                             "SegmentSum", "SegmentMean", "SegmentProd", "SegmentMax", "SegmentMin",
                             "StringFormat", "NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5",
                             "NonMaxSuppressionWithOverlaps",
                             "DecodePng", "DecodeJpeg", "DecodeImage", "DecodeBmp", "DecodeGif", "DecodeWebP",
                             "DecodeRaw", "EncodePng", "EncodeJpeg", "EncodeJpegVariableQuality"))
_LIST = dtypes.ListValue


class Uncomputed:
    """An output no kernel computed: its shape, NumPy dtype and bytes (as the array's), and the
    op type that made it. Converting it to an array is reading its value: the mode's error."""

    __slots__ = ("shape", "dtype", "nbytes", "op")

    def __init__(self, shape: tuple, dtype: np.dtype, op: str):
        self.shape = shape
        self.dtype = dtype
        self.nbytes = prod(shape) * dtype.itemsize
        self.op = op

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return prod(self.shape)

    def copy(self) -> "Uncomputed":
        return Uncomputed(self.shape, self.dtype, self.op)

    def __array__(self, dtype=None, copy=None):
        raise not_computed(self.op)

    def __repr__(self):
        return f"<Uncomputed {self.op} shape={self.shape} dtype={self.dtype}>"


def not_computed(op: str) -> ValueNotComputed:
    """The mode's one line: where the program reads the value, and which op's value it is."""
    where = caller_location() or "the program"
    return ValueNotComputed(f"{MODE}: {where} reads a value of op {op}, which was not computed (this mode "
                            f"places, traces and accounts every op without computing values)")


def shape_depends_on_values(op: str) -> ValueNotComputed:
    where = caller_location() or "the program"
    return ValueNotComputed(f"{MODE}: {op} at {where}: its output shape depends on the values of its inputs, "
                            f"which were not computed")


def no_shape_function(op: str) -> ValueNotComputed:
    where = caller_location() or "the program"
    return ValueNotComputed(f"{MODE}: {op} at {where}: devtrace has no shape function for it, so its output "
                            f"cannot be planned without computing it")


class PlanBackend:
    """A device's backend under ``--compute none`` (see the module's docstring)."""

    name = "none"
    xp = None
    direct = False

    def run(self, kernel, arrays, attrs, opdef=None, dtype=None):
        return plan(opdef, arrays, attrs or {}, dtype)

    def from_host(self, array):
        return array

    def to_host(self, array):
        if type(array) is Uncomputed:
            raise not_computed(array.op)
        return array

    def copy_from(self, array, src_backend):
        if type(array) is Uncomputed:
            return Uncomputed(array.shape, array.dtype, array.op)
        # a computed value: small ones are copied as usual; a big one (a program's NumPy data) is
        # shared, as no kernel runs on it here
        return np.array(array, copy=True) if array.size <= SMALL else array


PLAN = PlanBackend()


def install(devices) -> None:
    """Every device plans instead of computing: the execution step calls ``PLAN.run``."""
    for device in devices:
        device._backend = PLAN
        device.xp = None


def _computed(a) -> bool:
    if type(a) is Uncomputed:
        return False
    if type(a) is _LIST:
        return all(_computed(item) for item in a[()] if item is not None)
    return True


def plan(opdef, arrays, attrs, dtype=None):
    """The outputs of ``opdef`` on ``arrays``: computed where that is real and cheap, else
    placeholders its shape function plans."""
    name = opdef.name
    if name in FROM_SHAPES:
        return opdef.fn(np, *arrays, **attrs)
    computed = True
    for a in arrays:
        if type(a) is Uncomputed or (type(a) is _LIST and not _computed(a)):
            computed = False
            break
    if computed and (name in VALUE_DEPENDENT or sum(getattr(a, "size", 1) for a in arrays) <= SMALL):
        planned = _planned(opdef, arrays, attrs, dtype)
        if planned is None or _elements(planned) <= SMALL:
            return _compute(opdef, arrays, attrs)
        return planned
    planned = _planned(opdef, arrays, attrs, dtype)
    if planned is None:
        if computed:
            return _compute(opdef, arrays, attrs)
        if name in VALUE_DEPENDENT:
            raise shape_depends_on_values(name)
        planned = _by_example(opdef, arrays, attrs)
        if planned is None:
            raise no_shape_function(name)
    return planned


def _by_example(opdef, arrays, attrs):
    """The outputs' shapes and dtypes where the shape function cannot tell them (an op without one,
    or one that leaves a dimension to the run): the kernel on stand-ins of the inputs' shapes that
    hold no memory (a zero broadcast), then an identity in each matrix (the linear-algebra kernels
    refuse a singular one). A kernel error on both is the op's error, as in a computing run."""
    first = None
    for fill in (_zeros, _eye):
        stand_ins = [fill(a) if type(a) is Uncomputed else a for a in arrays]
        try:
            out = _compute(opdef, stand_ins, attrs)
        except Exception as e:  # noqa: BLE001 (the first stand-ins' error is the op's)
            first = first or e
            continue
        if type(out) is tuple:
            return tuple(_like(opdef.name, o) for o in out)
        return _like(opdef.name, out)
    if isinstance(first, ValueNotComputed):
        return None
    raise first


def _zeros(a: Uncomputed):
    return np.broadcast_to(np.array(b"" if a.dtype == object else 0, a.dtype), a.shape)


def _eye(a: Uncomputed):
    if len(a.shape) < 2 or a.shape[-1] != a.shape[-2] or a.dtype == object:
        return np.broadcast_to(np.array(1, a.dtype), a.shape)
    return np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)


def _like(op, out):
    if out is None or type(out) is _LIST:
        return out
    out = np.asarray(out)
    return Uncomputed(out.shape, out.dtype, op)


def _compute(opdef, arrays, attrs):
    with np.errstate(all="ignore"):
        return opdef.fn(np, *arrays, **attrs)


def _elements(planned) -> int:
    if type(planned) is tuple:
        return sum(p.size for p in planned)
    return planned.size


def _kernel_dtype(arrays, attrs):
    """The dtype the kernel is chosen for, where the step was not told: its first input's, else its
    ``dtype`` attr."""
    if arrays:
        a = arrays[0]
        return dtypes.variant if type(a) is _LIST else dtypes.as_dtype(a.dtype)
    for key in ("dtype", "T", "out_type"):
        if attrs.get(key) is not None:
            return dtypes.as_dtype(attrs[key])
    return None


def _planned(opdef, arrays, attrs, dtype):
    """Placeholders for the outputs, from the shape function; ``None`` when it cannot tell (no
    shape function, an unknown dimension, a variant or resource output)."""
    if opdef.shape is None or opdef.name in VALUE_DEPENDENT:
        return None
    shapes = [tuple(a.shape) for a in arrays]
    dtype = _kernel_dtype(arrays, attrs) if dtype is None else dtypes.as_dtype(dtype)
    try:
        out_dtype, shape = opdef.shape(opdef.name, shapes, attrs, dtype)
    except ValueError:  # the shapes do not fit: the kernel's own error follows (by example)
        return None
    if opdef.multi:
        outs = []
        for d, s in out_dtype:
            one = _placeholder(opdef.name, d or dtype, s)
            if one is None:
                return None
            outs.append(one)
        return tuple(outs)
    return _placeholder(opdef.name, out_dtype or dtype, shape)


def _placeholder(op, dtype, shape):
    if shape is None or dtype is None:
        return None
    np_dtype = _NP.get(dtype)
    if np_dtype is None:
        dtype = dtypes.as_dtype(dtype)
        if dtype.np is None or dtype in (dtypes.variant, dtypes.resource):
            return None
        np_dtype = _NP[dtype] = np.dtype(dtype.np)
    for d in shape:
        if type(d) is not int:
            if d is None:
                return None
            shape = tuple(int(d) for d in shape)
            break
    return Uncomputed(shape if type(shape) is tuple else tuple(shape), np_dtype, op)


_NP: dict = {}  # DType -> its NumPy dtype
