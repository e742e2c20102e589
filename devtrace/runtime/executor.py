"""Eager execution: place an op, copy its inputs to its device, run the kernel, account the
output's memory, and record every step in the trace.

This is the per-op hot path; it avoids work that isn't needed (placement is a cached dict
lookup, same-device inputs are passed through, events are slotted records).
"""

from __future__ import annotations

from time import perf_counter_ns

import numpy as np

from ..errors import InvalidArgumentError, NotFoundError, ResourceExhaustedError
from ..trace import events as ev
from . import context as _context_mod
from . import dtypes
from .kernels import REGISTRY
from .placer import place
from .tensor import Tensor

_NP_TO_DTYPE = {d.np: d for d in dtypes.ALL}
_COPY_EXEMPT = ("Identity", "IdentityN", "_EagerConst")


class ResourceHandle:
    """What ``VarHandleOp`` returns: the device a variable lives on."""

    __slots__ = ("device", "seq")

    def __init__(self, device, seq):
        self.device = device
        self.seq = seq


def _ctx(op_name):
    """The initialised context, or ``None`` in graph mode (the caller then builds a node)."""
    ctx = _context_mod._context
    if ctx is None or ctx.initialized_by is None or not ctx.eager:
        ctx = _context_mod.context()
        if not ctx.eager:
            return None
        ctx.ensure_initialized(f"op {op_name}")
    return ctx


def _op_def(op_name):
    opdef = REGISTRY.get(op_name)
    if opdef is None:
        raise NotFoundError(f"Op type not registered '{op_name}' in binary running on devtrace. [Op:{op_name}]")
    return opdef


def _shape_text(shape) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def allocate(ctx, device, array, op_name, seq, dtype):
    """Account ``array`` on ``device``; raises TensorFlow's OOM error when it doesn't fit."""
    handle = device.allocator.allocate(array.nbytes, (op_name, array.shape, dtype.name))
    if handle is None:
        raise _oom(ctx, device, array, op_name, seq, dtype)
    return handle


def _oom(ctx, device, array, op_name, seq, dtype):
    alloc = device.allocator
    live = [{"nbytes": size, "op": tag[0], "shape": list(tag[1]), "dtype": tag[2]}
            for size, tag in alloc.live_allocations()]
    ctx.trace.emit(ev.OOM(seq, op_name, device.name, alloc.name, int(array.nbytes), list(array.shape),
                          dtype.name, live))
    return ResourceExhaustedError(
        f"OOM when allocating tensor with shape{_shape_text(array.shape)} and type {dtype.c_name} on "
        f"{device.name} by allocator {alloc.name} [Op:{op_name}]", op=op_name)


def _copy(ctx, tensor, device, seq, op_name, index):
    """Copy an input onto the op's device, honouring the device policy."""
    src = tensor._device
    policy = ctx.device_policy
    if policy != "silent" and op_name not in _COPY_EXEMPT:
        text = (f"input #{index} was expected to be on {device.name} but is actually on {src.name} "
                f"(operation running on {device.name})")
        if policy == "explicit" or (policy == "silent_for_int32" and tensor._dtype is not dtypes.int32):
            raise InvalidArgumentError(
                f"Tensors on conflicting devices: cannot compute {op_name} as {text} Tensors can be copied "
                f"explicitly using: `with tf.device(device_name): x = tf.identity(x)` or transparently copied "
                f"by using tf.config.experimental.set_device_policy('silent'). Copying tensors between devices "
                f"may slow down your model [Op:{op_name}]", op=op_name)
        if policy == "warn":
            ctx.trace.emit(ev.Message("WARNING", f"before computing {op_name} {text}. This triggers a copy "
                                                 f"which can be a performance bottleneck."))
    value = device.backend.copy_from(tensor._value, src.backend)
    ctx.trace.emit(ev.TensorCopied(seq, op_name, index, src.name, device.name, int(tensor._value.nbytes)))
    return Tensor(value, device, allocate(ctx, device, value, "_Send/_Recv", seq, tensor._dtype), tensor._dtype, seq)


def _dtype_error(op_name, inputs, dtype):
    for i, t in enumerate(inputs):
        if t._dtype is not dtype:
            return InvalidArgumentError(
                f"cannot compute {op_name} as input #{i}(zero-based) was expected to be a {dtype.c_name} tensor "
                f"but is a {t._dtype.c_name} tensor [Op:{op_name}]", op=op_name)


def _resource_device(resource, opdef, dtype):
    device = resource.device
    if dtype is not None and dtype.name not in opdef.kernels.get(device.device_type, ()):
        raise InvalidArgumentError(f"No {device.device_type} kernel for {opdef.name} with dtype {dtype.name} on "
                                   f"the variable's device {device.name} [Op:{opdef.name}]", op=opdef.name)
    return device, ev.RESOURCE


def execute(op_name, inputs=(), attrs=None, name=None, dtype=None, resource=None):
    """Run one op eagerly and return its output ``Tensor`` (or a ``ResourceHandle``); in graph
    mode, add a node to the graph and return its symbolic output instead.

    ``dtype`` is the dtype the kernel is chosen for (default: the first input's); ``resource``
    is the ``ResourceHandle`` of a variable input, which pins the op to the variable's device.
    This is the per-op hot path: keep it flat.
    """
    ctx = _context_mod._context
    if ctx is None or ctx.initialized_by is None or not ctx.eager:
        ctx = _ctx(op_name)
        if ctx is None:  # graph mode
            from .graph import build_op

            return build_op(op_name, inputs, attrs, name, dtype, resource)
    opdef = REGISTRY.get(op_name) or _op_def(op_name)
    if dtype is None and inputs:
        dtype = inputs[0]._dtype
    if resource is None:
        device, reason = ctx.placement_cache.get((op_name, dtype, ctx.scope, ctx.soft_placement)) \
            or place(ctx, opdef, dtype)
    else:
        device, reason = _resource_device(resource, opdef, dtype)
    trace = ctx.trace
    trace._seq = seq = trace._seq + 1
    if len(inputs) == 2:  # most ops: spelled out, as comprehensions cost more than the kernel
        x, y = inputs
        arrays = [x._value, y._value]
        producers = [x._seq, y._seq]
        clean = x._device is device and y._device is device and x._dtype is dtype and y._dtype is dtype
    else:
        arrays = [t._value for t in inputs]
        producers = [t._seq for t in inputs]
        clean = True
        for t in inputs:
            if t._device is not device or t._dtype is not dtype:
                clean = False
    temps = None  # copies live until the kernel has run
    if not clean:
        if any(t._dtype is not dtype for t in inputs):
            raise _dtype_error(op_name, inputs, dtype)
        temps = [_copy(ctx, t, device, seq, op_name, i) if t._device is not device else None
                 for i, t in enumerate(inputs)]
        arrays = [t._value if c is None else c._value for t, c in zip(inputs, temps)]
    if trace.listeners:  # the live log prints before the kernel runs, as TensorFlow's does
        event = ev.OpPlaced(seq, op_name, name, ctx.scope, device.name, reason, producers)
        trace.emit(event)
    else:
        event = None
    backend = device._backend or device.backend
    start = perf_counter_ns()
    try:
        if backend.direct:  # NumPy, in this thread: call the kernel itself
            out = opdef.fn(backend.xp, *arrays, **attrs) if attrs else opdef.fn(backend.xp, *arrays)
        else:
            out = backend.run(opdef.fn, arrays, attrs)
    except (ValueError, TypeError, IndexError) as e:
        if event is None:
            trace._events.append(ev.OpPlaced(seq, op_name, name, ctx.scope, device.name, reason, producers))
        raise InvalidArgumentError(f"{e} [Op:{op_name}]", op=op_name) from None
    duration = perf_counter_ns() - start
    if out is None:
        if event is None:
            trace._events.append((seq, op_name, name, ctx.scope, device.name, reason, producers, None, None, duration))
        return ResourceHandle(device, seq)
    out_dtype = _NP_TO_DTYPE.get(out.dtype) or dtypes.as_dtype(out.dtype)
    if event is None:
        trace._events.append((seq, op_name, name, ctx.scope, device.name, reason, producers, out.shape,
                              out_dtype.name, duration))
    else:
        event.shape, event.dtype, event.duration_ns = out.shape, out_dtype.name, duration
    handle = device.allocator.allocate(out.nbytes, (op_name, out.shape, out_dtype.name))
    if handle is None:
        raise _oom(ctx, device, out, op_name, seq, out_dtype)
    return Tensor(out, device, handle, out_dtype, seq)


def execute_const(array: np.ndarray, dtype, name=None) -> Tensor:
    """``_EagerConst``: a host value placed like any op (GPU:0 by default, as the guide logs);
    a ``Const`` node in graph mode."""
    ctx = _ctx("_EagerConst")
    if ctx is None:
        from .graph import build_const

        return build_const(array, dtype, name)
    device, reason = place(ctx, REGISTRY["_EagerConst"], dtype)
    seq = ctx.trace.next_seq()
    ctx.trace.emit(ev.OpPlaced(seq, "_EagerConst", name, ctx.scope, device.name, reason, [],
                               list(array.shape), dtype.name))
    value = device.backend.from_host(array)
    return Tensor(value, device, allocate(ctx, device, value, "_EagerConst", seq, dtype), dtype, seq)
