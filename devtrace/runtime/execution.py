"""The op-execution step every mode shares: call the kernel on the device's backend, map its
errors to TensorFlow's, account the output's memory (or raise TensorFlow's OOM), and record
the op in the trace (an ``OpRecord``, ``trace/events.py``).

Eager mode (:mod:`.eager.executor`) places an op and copies its inputs first; a session's graph
(:mod:`.graph.run`) and a function's (:mod:`.graph.function_run`) run a placed node. Errors end
as TensorFlow's do in each mode: `` [Op:X]`` eagerly, ``\\n\\t [[{{node N}}]]`` for a graph node.
Its only twin is ``_fastpath.c``'s ``execute_binary`` (the eager two-input op), which hands every
case but its common one to these functions. This is on the per-op hot path: keep it flat.
"""

from __future__ import annotations

from time import perf_counter_ns

import numpy as np

from ..errors import InvalidArgumentError, ResourceExhaustedError
from ..trace import events as ev
from ..trace.events import OpRecord
from . import dtypes
from .backends import PoolExhausted
from .registry import REGISTRY
from .tensor import Tensor
from .tensor_shape import shape_text

_BY_NP = dtypes.BY_NP
_NDARRAY, _LIST = np.ndarray, dtypes.ListValue
# what a NumPy kernel returns for one output: an array, or a scalar for 0-d inputs
PLAIN = frozenset([np.ndarray, *(t for t in np.sctypeDict.values() if issubclass(t, np.generic))])
KERNEL_ERRORS = (ValueError, TypeError, IndexError, MemoryError)  # a kernel's errors TensorFlow reports as its own
_new = Tensor.__new__  # Tensor(...) without the __init__ frame (TensorBase's __new__ when it is C's)


def where(op_name: str, node: str | None) -> str:
    """The suffix TensorFlow ends an op's error with, eagerly or in a graph."""
    return f" [Op:{op_name}]" if node is None else f"\n\t [[{{{{node {node}}}}}]]"


def op_error_suffix(ctx, op_name: str, name, seq: int) -> str:
    """How TensorFlow 2.21 ends an eager op's error: `` [Op:X] name: <name>`` — without the name
    part when a Python list argument sent the call down its generated function's slow path."""
    if _list_argument(ctx, seq):
        return f" [Op:{op_name}]"
    return f" [Op:{op_name}] name: {name or ''}"


def kernel_error_prefix(opdef, device, attrs=None, count=0) -> str:
    """The function TensorFlow 2.21 wraps an eager kernel in, named in its errors."""
    number = ""
    if callable(opdef.number_attr):
        number = opdef.number_attr(attrs or {})
    elif opdef.number_attr:
        n = (attrs or {}).get(opdef.number_attr, count)
        number = f"_{opdef.number_attr}_{len(n) if isinstance(n, (tuple, list)) else n}"  # a type list: its length
    return f"{{{{function_node __wrapped__{opdef.name}{number}_device_{device.name}}}}} "


def _list_argument(ctx, seq: int) -> bool:
    """Was a Python list made a tensor for this op — marked at the trace's seq then (that of its
    constant, or of the op before when, under a device scope, the list became a host tensor
    without an op), and nothing but constants recorded from there to this op?"""
    marked = ctx.list_arg_seq
    if marked is None or marked >= seq:
        return False
    for event in ctx.trace.recent():
        s = getattr(event, "seq", None)
        if s is None or s >= seq:
            continue
        if s <= marked:
            return True
        if getattr(event, "op", None) not in ("_EagerConst", "Const"):
            return False
    return True


def run_step(ctx, device, opdef, arrays, attrs, record, node=None, dtype=None):
    """Run ``opdef`` on ``device``; returns the output ``Tensor``, or ``None`` for an op without one.

    ``record`` is how the op enters the trace, and gives its ``seq``: an ``OpRecord`` of what is
    known before the kernel runs (nothing recorded yet: the step appends it, completed), or the
    ``OpPlaced`` already emitted (the live log printed it before the kernel ran; a session's node
    was recorded when placed): the step fills in what only the run knows — output shape, dtype,
    time and the bytes in use on the device once the output is accounted (a node: its first run).
    ``dtype``: the dtype the kernel is chosen for (``--compute none`` plans its outputs from it).
    """
    xp = device.xp
    if not arrays and opdef.shape is not None and device.device_type == "GPU":
        _check_budget(ctx, device, opdef, attrs, record, node)
    fn = opdef.fn if opdef.gpu_fn is None else opdef.kernel(device.device_type)
    gpu_ns = None
    start = perf_counter_ns()
    try:
        if xp is not None:  # NumPy, in this thread: call the kernel itself
            if attrs:
                out = fn(xp, *arrays, **attrs)
            elif len(arrays) == 2:  # most ops: a plain call is cheaper than unpacking
                out = fn(xp, arrays[0], arrays[1])
            else:
                out = fn(xp, *arrays)
        else:  # a real GPU's CuPy, or --compute none's planner (compute_mode.py)
            backend = device.backend
            out = backend.run(fn, arrays, attrs, opdef, dtype)
            gpu_ns = getattr(backend, "kernel_ns", None)
            if gpu_ns is not None:  # the GPU's own time (CUDA events), not the host's launch
                backend.kernel_ns = None
    except KERNEL_ERRORS as e:  # a real GPU's PoolExhausted too: a MemoryError
        raise kernel_failed(ctx, device, opdef, arrays, attrs, record, node, e) from None
    return finish(ctx, device, opdef, out, record, node, perf_counter_ns() - start if gpu_ns is None else gpu_ns)


def run_binary(ctx, device, opdef, a, b, record, node=None):
    """``run_step`` for a two-input op without attributes on a NumPy device (``device.xp``), the
    call most ops are: the op's ufunc for two arrays (else its kernel), and ``finish``'s common
    case — a NumPy array or scalar of a known dtype that fits — spelled out in this one frame.
    The Python reference of ``_fastpath.c``'s ``run_op``, which does the same steps in C for an
    eager op (``executor._execute_binary``); a session's node runs it too (``graph/run.py``)."""
    start = perf_counter_ns()
    try:
        out = opdef.ufunc(a, b) if opdef.ufunc is not None and type(a) is _NDARRAY and type(b) is _NDARRAY \
            else (opdef.fn if opdef.gpu_fn is None else opdef.kernel(device.device_type))(device.xp, a, b)
    except KERNEL_ERRORS as e:
        raise kernel_failed(ctx, device, opdef, (a, b), None, record, node, e) from None
    duration = perf_counter_ns() - start
    dtype = _BY_NP.get(out.dtype) if type(out) in PLAIN else None
    if dtype is None:
        return finish(ctx, device, opdef, out, record, node, duration)
    alloc = device.allocator
    shape, dtype_name = out.shape, dtype.name
    handle = alloc.allocate(out.nbytes, (opdef.name, shape, dtype_name))
    if handle is None:
        _complete(ctx, record, node, shape, dtype_name, duration)
        raise oom(ctx, device, out, opdef.name, record.seq, dtype, node)
    if type(record) is OpRecord:  # the record ends with the bytes in use on the device, this output included
        ctx.trace.append(record.completed(shape, dtype_name, duration, alloc.bytes_in_use))
    else:
        _complete(ctx, record, node, shape, dtype_name, duration)
        if node is None or record.mem_in_use is None:
            record.mem_in_use = alloc.bytes_in_use
    t = _new(Tensor)  # Tensor(...) without the __init__ frame: the slots set here
    t._value = out
    t._device = device
    t._handle = handle
    t._dtype = dtype
    t._seq = record.seq
    return t


def kernel_failed(ctx, device, opdef, arrays, attrs, record, node, e) -> Exception:
    """The error TensorFlow raises where ``opdef``'s kernel raised ``e``."""
    if isinstance(e, PoolExhausted):  # a real GPU's pool refused the kernel an allocation
        return _pool_oom(ctx, device, opdef, arrays, attrs, record, node, e.nbytes)
    if isinstance(e, MemoryError):  # the host could not hold it: TensorFlow's OOM, not NumPy's MemoryError
        _check_budget(ctx, device, opdef, attrs, record, node, host=True)
        return e
    if type(record) is OpRecord:
        ctx.trace.append(record)
    if "could not be broadcast" in str(e) and len(arrays) == 2:  # NumPy's words for TensorFlow's
        e = f"Incompatible shapes: {shape_text(arrays[0].shape)} vs. {shape_text(arrays[1].shape)}"
    error = getattr(e, "error_class", InvalidArgumentError)  # a CUDA failure: InternalError, Unimplemented…
    if node is not None:
        return error(f"{e}{where(opdef.name, node)}", op=opdef.name)
    suffix = f" [Op:{opdef.name}]" if opdef.eager_fallback else op_error_suffix(ctx, opdef.name, record.node,
                                                                                 record.seq)
    return error(f"{kernel_error_prefix(opdef, device, attrs, len(arrays))}{e}{suffix}")


def finish(ctx, device, opdef, out, record, node, duration):
    """The op's output ``Tensor`` (or tuple of them, or ``None``) from its kernel's result
    ``out``: accounted on the device (TensorFlow's OOM when it doesn't fit) and recorded."""
    if type(out) is _NDARRAY:  # the common case, one check
        dtype = _BY_NP.get(out.dtype) or dtypes.as_dtype(out.dtype)
    elif out is None:  # VarHandleOp, NoOp: nothing to account
        _complete(ctx, record, node, None, None, duration)
        return None
    elif type(out) is tuple:  # several outputs
        return _outputs(ctx, device, opdef, out, record, node, duration)
    else:  # a CuPy array, a NumPy scalar, a TensorList
        dtype = dtypes.variant if type(out) is _LIST else _BY_NP.get(out.dtype) or dtypes.as_dtype(out.dtype)
    shape, dtype_name = out.shape, dtype.name
    alloc = device.allocator
    handle = alloc.allocate(out.nbytes, (opdef.name, shape, dtype_name))
    if type(record) is OpRecord:  # the record ends with the bytes in use on the device, this output included
        if handle is not None:
            ctx.trace.append(record.completed(shape, dtype_name, duration, alloc.bytes_in_use))
            t = _new(Tensor)  # Tensor(...) without the __init__ frame: the slots set here
            t._value = out
            t._device = device
            t._handle = handle
            t._dtype = dtype
            t._seq = record.seq
            return t
        ctx.trace.append(record.completed(shape, dtype_name, duration))
    else:
        _complete(ctx, record, node, shape, dtype_name, duration)
        if handle is not None:
            if node is None or record.mem_in_use is None:
                record.mem_in_use = alloc.bytes_in_use
            return Tensor(out, device, handle, dtype, record.seq)
    raise oom(ctx, device, out, opdef.name, record.seq, dtype, node)


def _outputs(ctx, device, opdef, arrays, record, node, duration) -> tuple:
    """A multi-output op's tensors (``Unpack``, ``Split``, ``Svd`` …), each accounted on the
    device; the trace records the first output's shape and dtype (``()`` when there is none)."""
    types = [_BY_NP.get(a.dtype) or dtypes.as_dtype(a.dtype) for a in arrays]
    shape, dtype_name = (arrays[0].shape, types[0].name) if arrays else ((), None)
    seq = record.seq
    alloc, out = device.allocator, []
    for array, dtype in zip(arrays, types):
        handle = alloc.allocate(array.nbytes, (opdef.name, array.shape, dtype.name))
        if handle is None:
            _complete(ctx, record, node, shape, dtype_name, duration)
            raise oom(ctx, device, array, opdef.name, seq, dtype, node)
        out.append(Tensor(array, device, handle, dtype, seq))
    if type(record) is OpRecord:
        ctx.trace.append(record.completed(shape, dtype_name, duration, alloc.bytes_in_use))
    else:
        _complete(ctx, record, node, shape, dtype_name, duration)
        if node is None or record.mem_in_use is None:
            record.mem_in_use = alloc.bytes_in_use
    return tuple(out)


def _check_budget(ctx, device, opdef, attrs, record, node, host=False) -> None:
    """An op without inputs (``Fill``, ``RandomStandardNormal`` …) whose output the device cannot
    hold fails with TensorFlow's OOM before host memory is touched (its size follows from the
    shape function); ``host``: the kernel already failed for lack of host memory."""
    try:
        dtype, shape = opdef.shape(opdef.name, [], attrs or {}, None)
    except Exception:  # noqa: BLE001 (a shape function that needs inputs: nothing to check)
        return
    if shape is None or any(d is None for d in shape):
        return
    dtype = dtypes.as_dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.float64)) * dtype.np.itemsize
    alloc = device.allocator
    if not host and (alloc.limit is None or nbytes <= alloc.limit - alloc.bytes_in_use):
        return
    if not host:  # ask the allocator itself (it counts the OOM, and knows its free chunks)
        handle = alloc.allocate(nbytes, (opdef.name, tuple(shape), dtype.name))
        if handle is not None:
            alloc.free(handle)
            return
    if type(record) is OpRecord:
        ctx.trace.append(record)
    raise oom(ctx, device, _Planned(tuple(int(d) for d in shape), nbytes), opdef.name, record.seq, dtype, node)


def _pool_oom(ctx, device, opdef, arrays, attrs, record, node, nbytes) -> ResourceExhaustedError:
    """TensorFlow's OOM for an op whose kernel the CuPy pool refused memory: the output's shape
    from the op's shape function (else the refused bytes as a vector of the input's dtype)."""
    dtype = dtypes.as_dtype(arrays[0].dtype) if arrays and hasattr(arrays[0], "dtype") else None
    shape = None
    if opdef.shape is not None:
        try:
            out_dtype, shape = opdef.shape(opdef.name, [tuple(a.shape) for a in arrays], attrs or {}, dtype)
            dtype = dtypes.as_dtype(out_dtype) if out_dtype is not None else dtype
        except Exception:  # noqa: BLE001 (no static shape: fall back to the refused size)
            shape = None
    dtype = dtype or dtypes.float32
    if shape is None or any(d is None for d in shape):
        shape = (max(1, nbytes // dtype.np.itemsize),)
    size = int(np.prod(shape, dtype=np.float64)) * dtype.np.itemsize
    if type(record) is OpRecord:
        ctx.trace.append(record)
    return oom(ctx, device, _Planned(tuple(int(d) for d in shape), size), opdef.name, record.seq, dtype, node)


class _Planned:
    """An output that was never allocated: what the OOM report needs of it."""

    def __init__(self, shape, nbytes):
        self.shape, self.nbytes = shape, nbytes


def _complete(ctx, record, node, shape, dtype_name, duration) -> None:
    """Complete the op's trace record (see ``run_step``) without the bytes in use."""
    if type(record) is OpRecord:
        ctx.trace.append(record.completed(shape, dtype_name, duration))
    elif node is None:
        record.shape, record.dtype, record.duration_ns = shape, dtype_name, duration
    elif not record.duration_ns:
        record.duration_ns = duration


def allocate(ctx, device, array, op_name, seq, dtype, node=None):
    """Account ``array`` on ``device``; raises TensorFlow's OOM error when it doesn't fit."""
    handle = device.allocator.allocate(array.nbytes, (op_name, array.shape, dtype.name))
    if handle is None:
        raise oom(ctx, device, array, op_name, seq, dtype, node)
    return handle


def onto_device(ctx, device, call, array, op_name, seq, dtype, node=None):
    """``call()``: a host value or a copy going onto ``device``; a real GPU's pool refusing it
    is TensorFlow's OOM for ``array``."""
    try:
        return call()
    except PoolExhausted:
        raise oom(ctx, device, array, op_name, seq, dtype, node) from None


def oom(ctx, device, array, op_name, seq, dtype, node=None) -> ResourceExhaustedError:
    """TensorFlow's OOM error; the trace's ``oom`` event lists the live allocations."""
    alloc = device.allocator
    live = [{"nbytes": size, "op": tag[0], "shape": list(tag[1]), "dtype": tag[2]}
            for size, tag in alloc.live_allocations()]
    ctx.trace.emit(ev.OOM(seq, op_name, device.name, alloc.name, int(array.nbytes), list(array.shape),
                          dtype.name, live))
    shape = shape_text(array.shape)
    text = (f"OOM when allocating tensor with shape{shape} and type {dtype.c_name} on {device.name} by allocator "
            f"{alloc.name}")
    opdef = REGISTRY.get(op_name)
    if node is not None or opdef is None:  # a graph node, or a copy between devices
        return ResourceExhaustedError(f"{text}{where(op_name, node)}", op=None if node is None else op_name)
    return ResourceExhaustedError(f"{kernel_error_prefix(opdef, device)}{text}{op_error_suffix(ctx, op_name, None, seq)}")
