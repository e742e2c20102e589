"""Reference counts around the eager hot path: every way through ``_fastpath.execute_binary`` (and,
as a check of the check, its Python reference) leaves every object it touches with the count it
had, and makes nothing that outlives the call.

Each case runs one op twice 200 times after a warm-up (the placement cached, the C module's dtype
cache filled), the trace's records cleared and the cyclic collector run before and after: the reference
count of each object the op reads or hands on (its inputs, their arrays, seqs and dtype, the device,
its allocator and name, the context, the trace, the scope, the op's name and node name, the cached
placement and its reason, the registry and the OpDef, its ufunc and kernel, the output's dtype, the
Python functions the C module calls) must be unchanged — a leak of one reference per op shows as
+400, a reference given back once too often as -400 — and the interpreter must hold about as many
memory blocks after each 200 as before (a leaked tuple per op: +200 each time; the allocator's own
bookkeeping moves by tens, once). Each object is held 1000 times more while the ops run, and for
good when its count moved: one released too often is counted, not freed (which would crash the
test run instead of failing the test).
"""

from __future__ import annotations

import gc
import sys
from contextlib import ExitStack
from unittest import mock

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime import execution, registry, tensor
from devtrace.runtime.eager import executor
from devtrace.runtime.registry import REGISTRY
from devtrace.trace import events as ev
from fastpath_support import EACH, IMPLEMENTATIONS, FailingAllocator, extra_ops, failing_flush, fresh_runtime

ROUNDS = 200
_KEPT = []  # the extra references of objects whose counts moved (see the module's docstring)
CPU, GPU = "/CPU:0", "/GPU:0"


def _fresh(text: str) -> str:
    return "".join(list(text))  # an equal string only this test holds: its count is the op's doing


class _Sink:
    """Where the placement log's lines go (pytest's capture would keep them: memory that grows)."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass


def _in_except(call):
    def run():
        try:
            raise KeyError("being handled")
        except KeyError:
            return call()
    return run


# name: (device, op, x's shape and dtype, y's, what the case changes: see _arrange)
CASES = {
    "host output": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ()),
    "host output, named": (CPU, "Mul", ((2, 3), "float32"), ((3,), "float32"), ("named",)),
    "host output, a comparison": (CPU, "Less", ((2, 3), "int64"), ((2, 3), "int64"), ()),
    "host output of oneDNN's size": (CPU, "AddV2", ((300, 300), "float32"), ((300, 300), "float32"), ()),
    "0-d: a NumPy scalar": (CPU, "Sub", ((), "float64"), ((), "float64"), ()),
    "a kernel without a ufunc": (CPU, "Pow", ((2, 3), "float32"), ((2, 3), "float32"), ()),
    "GPU output": (GPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ()),
    "GPU out of memory": (GPU, "AddV2", ((300, 300), "float32"), ((300, 300), "float32"), ()),  # 3 x 360 KB
    "kernel error": (CPU, "AddV2", ((2, 3), "float32"), ((2,), "float32"), ()),
    "kernel error inside an except block": (CPU, "AddV2", ((2, 3), "float32"), ((2,), "float32"), ("except",)),
    "kernel error on the GPU": (GPU, "Maximum", ((2, 3), "float32"), ((4,), "float32"), ()),
    "kernel MemoryError": (CPU, "FastpathMemoryError", ((2,), "float32"), ((2,), "float32"), ()),
    "kernel MemoryError inside an except block": (CPU, "FastpathMemoryError", ((2,), "float32"), ((2,), "float32"),
                                                  ("except",)),
    "not a kernel error": (CPU, "FastpathKeyError", ((2,), "float32"), ((2,), "float32"), ()),
    "a variant output": (CPU, "FastpathVariant", ((2,), "float32"), ((2,), "float32"), ()),
    "no output": (GPU, "FastpathNoOutput", ((2,), "float32"), ((2,), "float32"), ()),
    "two outputs": (CPU, "FastpathTwoOutputs", ((2,), "float32"), ((2,), "float32"), ()),
    "an output of no devtrace dtype": (CPU, "FastpathUnknownDtype", ((2,), "float32"), ((2,), "float32"), ()),
    "an output that is not an array": (CPU, "FastpathNotAnArray", ((2,), "float32"), ((2,), "float32"), ()),
    "a flush": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("flush",)),
    "a flush that raises": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("flush", "flush raises")),
    "an allocator that raises": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("allocator raises",)),
    "an op no longer registered": (CPU, "FastpathVariant", ((2,), "float32"), ((2,), "float32"), ("unregistered",)),
    "a tape": (CPU, "Mul", ((2, 3), "float32"), ((2, 3), "float32"), ("tape",)),
    "the placement log": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("log",)),
    "no placement cached": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("uncached",)),
    "inputs of two dtypes": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float64"), ()),
    "inputs on two devices": (GPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("y on the CPU",)),
    "a dtype asked for": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("dtype",)),
    "x not a tensor": (CPU, "AddV2", ((2, 3), "float32"), ((2, 3), "float32"), ("x not a tensor",)),
}


def _tensor(spec, seed):
    shape, dtype = spec
    return tf.constant(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def _arrange(stack, ctx, impl, device, op_name, x, y, changes):
    """The call the case repeats, with what it changes in place."""
    name = _fresh("node") if "named" in changes else None
    dtype = x.dtype if "dtype" in changes else None
    if "x not a tensor" in changes:
        x = np.ones(3)
    call = (lambda: impl(op_name, x, y, name, dtype)) if dtype is not None else (lambda: impl(op_name, x, y, name))
    if "except" in changes:
        call = _in_except(call)
    if "flush" in changes:
        plain = call

        def call():
            ctx.trace._seq |= 4095  # this op's seq: a multiple of Trace.FLUSH_EVERY
            return plain()
    if "flush raises" in changes:
        stack.enter_context(mock.patch.object(ev.Trace, "flush", failing_flush))
    if "allocator raises" in changes:
        target = ctx.devices[0]
        stack.enter_context(mock.patch.object(target, "allocator", FailingAllocator(target.allocator)))
    if "unregistered" in changes:
        stack.enter_context(mock.patch.dict(REGISTRY))
        del REGISTRY[op_name]
    if "tape" in changes:
        untaped = call

        def call():
            with tf.GradientTape() as tape:  # a tape per op: one tape would keep every op's tensors
                tape.watch(x)
                return untaped()
    if "log" in changes:
        ctx.set_log_device_placement(True)
        stack.callback(ctx.set_log_device_placement, False)
        stack.enter_context(mock.patch.multiple("sys", stdout=_Sink(), stderr=_Sink()))
    if "uncached" in changes:
        cached = call

        def call():
            try:
                return cached()
            finally:
                ctx.placement_cache.clear()
    return call


def _watched(ctx, device, op_name, x, y):
    """The objects whose counts must not move (the C module holds or reads each)."""
    opdef = REGISTRY.get(op_name)
    hit = next((v for k, v in ctx.placement_cache.items() if k[0] == op_name), None)
    objects = {
        "x": x, "y": y, "x._value": x._value, "y._value": y._value, "x._seq": x._seq, "y._seq": y._seq,
        "x._dtype": x._dtype, "y._dtype": y._dtype, "device": device, "device.name": device.name,
        "allocator": device.allocator, "context": ctx, "trace": ctx.trace, "trace._events": ctx.trace._events,
        "scope": ctx.scope, "placement cache": ctx.placement_cache, "op name": op_name, "registry": REGISTRY,
        "opdef": opdef, "kernel": getattr(opdef, "fn", None), "ufunc": getattr(opdef, "ufunc", None),
        "placement": hit, "placement reason": hit and hit[1], "bool": tf.bool, "float32": tf.float32,
        "execute": executor.execute, "finish": execution.finish, "kernel_failed": execution.kernel_failed,
        "oom": execution.oom, "lookup": registry.lookup, "ResourceHandle": executor.ResourceHandle,
        "Tensor": tensor.Tensor, "release": tensor._TensorBase.__del__,
    }
    return {k: v for k, v in objects.items()  # a small int (a constant's seq 0) is every op's: not counted
            if v is not None and not (type(v) is int and -5 <= v <= 256)}


def _counts(objects):
    return {k: sys.getrefcount(v) for k, v in objects.items()}


def _quiet(call):
    try:
        call()
    except Exception:  # noqa: BLE001 (the errors are the case's: what they hold is what is counted)
        pass


@pytest.mark.parametrize("impl", EACH)
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_way_through_the_hot_path_keeps_reference_counts(case, impl):
    device_name, op_name, x_spec, y_spec, changes = CASES[case]
    op_name = _fresh(op_name)
    with extra_ops(), ExitStack() as stack, np.errstate(all="ignore"):
        ctx = fresh_runtime()
        ctx.trace._seq = 1_000_000  # seqs of their own, not small ints every op shares
        with tf.device(CPU if "y on the CPU" in changes else device_name):
            y = _tensor(y_spec, 1)
        stack.enter_context(tf.device(device_name))
        x = _tensor(x_spec, 0)
        call = _arrange(stack, ctx, IMPLEMENTATIONS[impl], ctx.find_device(device_name) or x._device, op_name, x, y,
                        changes)
        _quiet(call)  # placed
        objects = _watched(ctx, x._device, op_name, x, y)
        if "flush" in changes:  # a flush forgets the records: the list is a new one
            del objects["trace._events"]
        padding = list(objects.values()) * (ROUNDS * 5)
        for _ in range(10):  # cached, the C module's dtype cache filled, the error machinery warm
            _quiet(call)
        ctx.trace._events.clear()
        gc.collect()
        before, grown = _counts(objects), []
        for _ in range(3):  # a leak grows the blocks in every round; the allocator's own moves, not in all
            blocks = sys.getallocatedblocks()
            for _ in range(ROUNDS):
                _quiet(call)
            ctx.trace._events.clear()
            gc.collect()
            grown.append(sys.getallocatedblocks() - blocks)
        after = _counts(objects)
        changed = {k: after[k] - before[k] for k in before if after[k] != before[k]}
        if changed:
            _KEPT.append(padding)
        del padding
        assert changed == {}, f"reference counts moved over {3 * ROUNDS} ops: {changed}"
        assert min(grown) < ROUNDS // 4, f"{grown} more memory blocks after each {ROUNDS} ops"
