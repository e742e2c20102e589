"""Eager execution: place an op, copy its inputs to its device, then run the shared execution
step (kernel, errors, memory, trace). In graph mode the same calls build graph nodes instead,
through the builder the graph room installs on the context.

This is the per-op hot path; it avoids work that isn't needed (placement is a cached dict
lookup, same-device inputs are passed through, an op's record is an ``OpRecord`` tuple).
"""

from __future__ import annotations

import numpy as np

from ...errors import InvalidArgumentError
from ...trace import events as ev
from ...trace.events import NOT_RUN, OpRecord, not_run
from .. import context as _context_mod
from .. import sources as _sources
from .. import dtypes
from .. import threads as _threads
from ..backends import PoolExhausted
from ..execution import KERNEL_ERRORS as _KERNEL_ERRORS, PLAIN as _PLAIN
from ..execution import allocate, finish, kernel_failed, oom, op_error_suffix, run_binary, run_step
from ..devices import Device
from ..memory.host import ONEDNN_LARGE_ALLOCATION, HostAllocator
from ..native import FASTPATH
from ..registry import REGISTRY, OpDef, lookup
from ..tensor import Tensor
from .device_selection import malformed, place
from .kernel_graph import announce
from .tape import record as tape_record

_COPY_EXEMPT = ("Identity", "IdentityN", "_EagerConst", "CopyToDevice")
_BY_NP = dtypes.BY_NP
_NEW = tuple.__new__  # _NEW(OpRecord, fields): the record without namedtuple's __new__ frame


class ResourceHandle:
    """What ``VarHandleOp`` returns: the device a variable lives on (and, once the variable owns
    it, the variable: a function graph captures the variable through its handle)."""

    __slots__ = ("device", "seq", "variable")
    dtype = dtypes.resource

    def __init__(self, device, seq):
        self.device = device
        self.seq = seq
        self.variable = None


def _ctx(op_name):
    """The initialised context, or ``None`` in graph mode (the caller then builds a node)."""
    ctx = _context_mod._context
    if ctx is None or ctx.initialized_by is None or not ctx.eager:
        ctx = _context_mod.context()
        if not ctx.eager:
            return None
        ctx.ensure_initialized(f"op {op_name}")
    return ctx


def _copy(ctx, tensor, device, seq, op_name, index, name=None):
    """Copy an input onto the op's device, honouring the device policy."""
    src = tensor._device
    if src is None:  # a graph's symbolic tensor used eagerly
        raise _out_of_scope(tensor)
    policy = ctx.device_policy
    if policy != "silent" and op_name not in _COPY_EXEMPT:
        text = (f"input #{index} was expected to be on {device.name} but is actually on {src.name} "
                f"(operation running on {device.name})")
        if policy == "explicit" or (policy == "silent_for_int32" and tensor._dtype is not dtypes.int32):
            raise InvalidArgumentError(
                f"Tensors on conflicting devices: cannot compute {op_name} as {text} Tensors can be copied "
                f"explicitly using: `with tf.device(device_name): x = tf.identity(x)` or transparently copied "
                f"by using tf.config.experimental.set_device_policy('silent'). Copying tensors between devices "
                f"may slow down your model{op_error_suffix(ctx, op_name, name, seq)}")
        if policy == "warn":
            ctx.trace.emit(ev.Message("WARNING", f"before computing {op_name} {text}. This triggers a copy "
                                                 f"which can be a performance bottleneck."))
    try:
        value = device.backend.copy_from(tensor._value, src.backend)
    except PoolExhausted:  # a real GPU's pool could not take the copy
        raise oom(ctx, device, tensor._value, "_Send/_Recv", seq, tensor._dtype) from None
    ctx.trace.emit(ev.TensorCopied(seq, op_name, index, src.name, device.name, int(tensor._value.nbytes)))
    return Tensor(value, device, allocate(ctx, device, value, "_Send/_Recv", seq, tensor._dtype), tensor._dtype, seq)


def _out_of_scope(tensor) -> TypeError:
    """TensorFlow's error for a graph tensor used outside its graph (the user's frames only)."""
    frames = "".join(f'    File "{f}", line {n}, in {fn}\n' for f, n, fn in tensor.op.traceback)
    return TypeError(f"{tensor!r} is out of scope and cannot be used here. Use return values, explicit Python "
                     f"locals or TensorFlow collections to access it.\nPlease see https://www.tensorflow.org/guide/"
                     f"function#all_outputs_of_a_tffunction_must_be_return_values for more information.\n\n"
                     f"{tensor!r} was defined here:\n{frames}\nThe tensor {tensor!r} cannot be accessed from here, "
                     f"because it was defined in {tensor.graph!r}, which is out of scope.")


def _dtype_error(ctx, op_name, inputs, dtype, name, seq):
    for i, t in enumerate(inputs):
        if t._dtype is not dtype:
            return InvalidArgumentError(
                f"cannot compute {op_name} as input #{i}(zero-based) was expected to be a {dtype.c_name} tensor "
                f"but is a {t._dtype.c_name} tensor{op_error_suffix(ctx, op_name, name, seq)}")


def _resource_device(ctx, resource, opdef, dtype):
    if ctx.scope_spec is None and ctx.scope:  # pinned to its variable, but the scope is still read
        raise malformed(ctx.scope, opdef.name)
    device = resource.device
    if dtype is not None and dtype.name not in opdef.kernels_for(ctx.machine.compat).get(device.device_type, ()):
        raise InvalidArgumentError(f"No {device.device_type} kernel for {opdef.name} with dtype {dtype.name} on "
                                   f"the variable's device {device.name} [Op:{opdef.name}]")
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
        if ctx is not None and not ctx.eager:  # graph mode
            return ctx.graph_builder.op(op_name, inputs, attrs, name, dtype, resource)
        ctx = _ctx(op_name)
        if ctx is None:  # graph mode in a context just made
            return _context_mod.context().graph_builder.op(op_name, inputs, attrs, name, dtype, resource)
    if ctx.threaded and not _threads.owned():  # ops from several threads: one at a time (threads.py)
        return _threads.locked(ctx, execute, op_name, inputs, attrs, name, dtype, resource)
    opdef = REGISTRY.get(op_name) or lookup(op_name)
    if dtype is None and inputs:
        dtype = inputs[0]._dtype
    if resource is None:
        device, reason = ctx.placement_cache.get((op_name, dtype, ctx.scope, ctx.soft_placement)) \
            or place(ctx, opdef, dtype, name)
    else:
        device, reason = _resource_device(ctx, resource, opdef, dtype)
    trace = ctx.trace
    trace._seq = seq = trace._seq + 1
    if not seq & 4095:  # Trace.FLUSH_EVERY: the ops before are complete (streamed, or forgotten)
        trace.flush()
    if len(inputs) == 2:  # most ops: spelled out, as comprehensions cost more than the kernel
        x, y = inputs
        arrays = (x._value, y._value)
        producers = (x._seq, y._seq)  # a tuple of ints: the collector soon stops visiting the record
        clean = x._device is device and y._device is device and x._dtype is dtype and y._dtype is dtype
    else:
        arrays = [t._value for t in inputs]
        producers = tuple([t._seq for t in inputs])
        clean = True
        for t in inputs:
            if t._device is not device or t._dtype is not dtype:
                clean = False
    temps = None  # copies live until the kernel has run
    if not clean:
        if not opdef.mixed_dtypes and any(t._dtype is not dtype for t in inputs):
            raise _dtype_error(ctx, op_name, inputs, dtype, name, seq)
        temps = [_copy(ctx, t, device, seq, op_name, i, name) if t._device is not device else None
                 for i, t in enumerate(inputs)]
        arrays = [t._value if c is None else c._value for t, c in zip(inputs, temps)]
    src = _sources.here(2) if _sources.ENABLED else None
    if trace.listeners:  # the live log prints before the kernel runs, as TensorFlow's does
        announce(ctx, opdef, inputs, attrs, dtype, device, resource)
        record = ev.OpPlaced(seq, op_name, name, ctx.scope, device.name, reason, producers, src=src)
        trace.emit(record)
    else:
        record = _NEW(OpRecord, (seq, op_name, name, ctx.scope, device.name, reason, producers) + not_run(src))
    out = run_step(ctx, device, opdef, arrays, attrs, record, None, dtype)
    if ctx.tapes and out is not None:
        tape_record(ctx, op_name, attrs, inputs, out, device)
    if ctx.op_callbacks and out is not None:
        for callback in tuple(ctx.op_callbacks):
            callback.eager(op_name, inputs, attrs, out, name)
    return ResourceHandle(device, seq) if out is None else out


def _execute_binary(op_name, x, y, name=None, dtype=None):
    """``execute(op_name, (x, y), None, name, dtype)``, with the call most programs make most
    spelled out: eager, placement cached, both inputs on the op's device with its dtype, a NumPy
    kernel, no placement log and no tape, then the execution step's two-input case
    (``execution.run_binary``). Anything else takes :func:`execute`.

    The reference for ``_fastpath.execute_binary`` (the same steps in C), which runs instead when
    it was built: see :data:`execute_binary`."""
    ctx = _context_mod._context
    if dtype is None:
        dtype = x._dtype
    if ctx is None or ctx.initialized_by is None or not ctx.eager or ctx.threaded or ctx.tapes or ctx.op_callbacks:
        return execute(op_name, (x, y), None, name, dtype)
    hit = ctx.placement_cache.get((op_name, dtype, ctx.scope, ctx.soft_placement))
    if hit is None:
        return execute(op_name, (x, y), None, name, dtype)
    device = hit[0]
    xp = device.xp
    trace = ctx.trace
    if x._device is not device or y._device is not device or y._dtype is not dtype or x._dtype is not dtype \
            or xp is None or trace.listeners:
        return execute(op_name, (x, y), None, name, dtype)
    trace._seq = seq = trace._seq + 1
    if not seq & 4095:  # Trace.FLUSH_EVERY, as in execute
        trace.flush()
    opdef = REGISTRY.get(op_name) or lookup(op_name)
    record = _NEW(OpRecord, (seq, op_name, name, ctx.scope, device.name, hit[1], (x._seq, y._seq))
                  + (not_run(_sources.here(2)) if _sources.ENABLED else NOT_RUN))
    out = run_binary(ctx, device, opdef, x._value, y._value, record)
    return ResourceHandle(device, seq) if out is None else out


def _accelerated():
    """``_fastpath.execute_binary`` configured with this runtime's classes and functions, or
    ``None`` when the C module is not in use (``native.py``): :func:`_execute_binary` runs then."""
    if FASTPATH is None:
        return None
    FASTPATH.configure(**configuration())
    return FASTPATH.execute_binary


def configuration() -> dict:
    """What ``_fastpath.configure`` is given: the classes whose slots it reads, the record type whose
    field names give it the record's layout, and the Python functions it hands every other case to."""
    return dict(Tensor=Tensor, Context=_context_mod.Context, Device=Device, Trace=ev.Trace, OpDef=OpDef,
                HostAllocator=HostAllocator, ndarray=np.ndarray, host_large=ONEDNN_LARGE_ALLOCATION,
                context_globals=vars(_context_mod), registry=REGISTRY, by_np=_BY_NP, plain=_PLAIN,
                kernel_errors=_KERNEL_ERRORS, execute=execute, lookup=lookup, kernel_failed=kernel_failed,
                finish=finish, oom=oom, ResourceHandle=ResourceHandle, OpRecord=OpRecord, run_step=run_step,
                sample_array=np.empty((3, 5), np.float32))


execute_binary = _accelerated() or _execute_binary
# a function graph's node through the execution step in C (graph/function_run.py), or None: run_step;
# run_planned: a planned node whole (its inputs and seq too)
run_node = FASTPATH.run_node if FASTPATH is not None else None
run_planned = FASTPATH.run_planned if FASTPATH is not None else None
# run_plan: function_run.run's loop in C, up to an entry it leaves to the Python lines (None: those run all)
run_plan = getattr(FASTPATH, "run_plan", None)


def execute_const(array: np.ndarray, dtype, name=None, account=True) -> Tensor:
    """``_EagerConst``: a host value placed like any op (GPU:0 by default, as the guide logs);
    a ``Const`` node in graph mode. ``account=False``: an op's host-memory argument (a shape, an
    axis), which TensorFlow keeps in host memory whatever the device: not counted on the device.

    Under a scope naming ``/device:CPU:0`` (``/CPU:0``, ``''`` at top level, a replica on the host)
    no op runs: TensorFlow makes every value on the host CPU and only renames it there
    (``pywrap_tensor.cc``), so nothing is logged or traced."""
    ctx = _ctx("_EagerConst")
    if ctx is None:
        return _context_mod.context().graph_builder.const(array, dtype, name)
    if ctx.threaded and not _threads.owned():
        return _threads.locked(ctx, execute_const, array, dtype, name, account)
    scope = ctx.outer_scope if ctx.scope_reason is ev.COLOCATED else ctx.scope  # a gradient's scope is devtrace's
    if "/device:CPU:0" in scope:
        return _host_const(ctx, scope, array, dtype, account)
    opdef = REGISTRY.get("_EagerConst") or lookup("_EagerConst")
    device, reason = place(ctx, opdef, dtype)
    if ctx.trace.listeners:
        announce(ctx, opdef, (), None, dtype, device)
    seq = ctx.trace.next_seq()
    record = ev.OpPlaced(seq, "_EagerConst", name, ctx.scope, device.name, reason, [], list(array.shape), dtype.name,
                         src=_sources.here(2) if _sources.ENABLED else None)
    ctx.trace.emit(record)
    try:
        value = device.backend.from_host(array) if account else array
    except PoolExhausted:
        raise oom(ctx, device, array, "_EagerConst", seq, dtype) from None
    handle = allocate(ctx, device, value, "_EagerConst", seq, dtype) if account else None
    record.mem_in_use = device.allocator.bytes_in_use
    return Tensor(value, device, handle, dtype, seq)


def _host_const(ctx, scope: str, array: np.ndarray, dtype, account: bool) -> Tensor:
    """A value made on the host CPU the scope names, with no op (and no producer in the trace);
    TensorFlow's text when the scope's job, replica or task does not exist."""
    device = ctx.find_device(scope)
    if device is None:
        raise InvalidArgumentError(f"{scope} unknown device.")
    if not account:
        return Tensor(array, device, None, dtype, 0)
    value = device.backend.from_host(array)
    return Tensor(value, device, allocate(ctx, device, value, "_EagerConst", 0, dtype), dtype, 0)


def copy_to_device(tensor: Tensor, name: str) -> Tensor:
    """``Tensor.cpu()`` / ``Tensor.gpu(i)``: ``tensor`` copied onto the device named ``TYPE:ID``
    (no op runs: the trace records the copy alone); ``RuntimeError: GPU:0 unknown device.`` when
    there is no such device, as TensorFlow raises."""
    ctx = _ctx("CopyToDevice")
    device_type, _, index = name.partition(":")
    device = next((d for d in ctx.devices if d.device_type == device_type and str(d.index) == index), None)
    if device is None:
        raise RuntimeError(f"{name} unknown device.")
    if device is tensor._device:
        return tensor
    return _copy(ctx, tensor, device, ctx.trace.next_seq(), "CopyToDevice", 0)


Tensor.cpu = lambda self: copy_to_device(self, "CPU:0")
Tensor.gpu = lambda self, gpu_index=0: copy_to_device(self, f"GPU:{gpu_index}")
