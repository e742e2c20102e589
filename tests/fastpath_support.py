"""What the tests of the eager hot path share (test_fastpath_parity.py, test_fastpath_refcounts.py).

The hot path has two implementations, ``_fastpath.execute_binary`` (C) and its Python reference
``executor._execute_binary``; the ops modules bound one of them at import. :func:`using` switches
``tf.*`` functions and operators to either, so both run in one process on fresh runtimes
(:func:`fresh_runtime`), and :func:`extra_ops` registers kernels that take each way out of it.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

import numpy as np
import pytest

from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.ops import declare
from devtrace.ops.math import math_ops
from devtrace.runtime import context as context_module
from devtrace.runtime.dtypes import ListValue
from devtrace.runtime.eager import executor
from devtrace.runtime.graph import function_run
from devtrace.runtime.native import FASTPATH
from devtrace.runtime.registry import REGISTRY, register
from devtrace.trace.events import OpRecord

IMPLEMENTATIONS = {"C": None if FASTPATH is None else FASTPATH.execute_binary, "Python": executor._execute_binary}
# the C module runs in this process (built, and DEVTRACE_PURE_PYTHON not set: Tensor derives from its TensorBase)
c_in_use = pytest.mark.skipif(FASTPATH is None, reason="the C module is not in use here (not built, or "
                                                       "DEVTRACE_PURE_PYTHON is set)")
EACH = [pytest.param("C", marks=c_in_use), "Python"]  # parametrize: a test of either implementation
_BOUND = (declare, math_ops)  # the modules that bound executor.execute_binary at import


@contextmanager
def using(execute_binary):
    """``tf.add``, ``x + y`` … call ``execute_binary`` while the block runs (the C twins of the public
    functions, ``_fastpath.OpFunction``, run theirs with the C module's alone); a function graph's nodes
    run through the C module's ``run_node`` with its ``execute_binary``, else through ``run_step``."""
    saved = [module.execute_binary for module in _BOUND]
    saved_run_node = function_run.run_node, function_run.run_planned, function_run.run_plan
    for module in _BOUND:
        module.execute_binary = execute_binary
    c = FASTPATH is not None and execute_binary is FASTPATH.execute_binary
    function_run.run_node, function_run.run_planned, function_run.run_plan = (
        (FASTPATH.run_node, FASTPATH.run_planned, FASTPATH.run_plan) if c else (None, None, None))
    if FASTPATH is not None:  # the public functions' C twins (declare.op_function) too, or their Python functions
        FASTPATH.set_op_functions(c)
    try:
        yield execute_binary
    finally:
        for module, fn in zip(_BOUND, saved):
            module.execute_binary = fn
        function_run.run_node, function_run.run_planned, function_run.run_plan = saved_run_node
        if FASTPATH is not None:
            FASTPATH.set_op_functions(True)


def fresh_runtime(gpu_memory: str = "1MiB"):
    """A new initialised context: the host CPU and one simulated GPU of ``gpu_memory`` (small, so
    outputs run out of it), each with allocators that start from zero."""
    gpus = tuple(simulated.parse_simulate(f"1xT4:{gpu_memory}"))
    ctx = context_module.reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated"), env={})
    ctx.ensure_initialized("fastpath tests")
    return ctx


def _raises(error, text):
    def kernel(xp, a, b):
        raise error(text)  # a new exception each time: a raised one keeps its traceback and context
    return kernel


# kernels that leave the hot path each its own way (the op names say how)
KERNELS = {
    "FastpathVariant": lambda xp, a, b: ListValue.of([a, b]),  # not a plain array: finish()
    "FastpathNoOutput": lambda xp, a, b: None,  # a ResourceHandle
    "FastpathTwoOutputs": lambda xp, a, b: (a, b),  # a tuple of tensors
    "FastpathNotAnArray": lambda xp, a, b: [1, 2],  # finish() fails reading its dtype
    "FastpathUnknownDtype": lambda xp, a, b: np.zeros(2, "datetime64[s]"),  # a plain array devtrace has no dtype for
    "FastpathValueError": _raises(ValueError, "kernel says no"),  # a kernel error: InvalidArgumentError
    "FastpathMemoryError": _raises(MemoryError, "no room"),  # raised again as it is
    "FastpathKeyError": _raises(KeyError, "not a kernel error"),  # passes through untouched
}


class FailingAllocator:
    """A device's allocator whose ``allocate`` raises; the rest is the allocator's."""

    def __init__(self, allocator):
        self.allocator = allocator

    def allocate(self, nbytes, tag=None):
        raise RuntimeError("the allocator failed")

    def __getattr__(self, name):
        return getattr(self.allocator, name)


def failing_flush(trace):
    """``Trace.flush`` replaced: a flush that fails."""
    raise RuntimeError("the flush failed")


@contextmanager
def extra_ops():
    """The ops of :data:`KERNELS` registered (CPU and GPU, every dtype) while the block runs."""
    for name, kernel in KERNELS.items():
        register(name, kernel)
    try:
        yield sorted(KERNELS)
    finally:
        for name in KERNELS:
            REGISTRY.pop(name, None)


def allocator_state(ctx) -> list:
    """Every allocator's counters (the CPU's oneDNN allocator too), device by device."""
    state = []
    for device in ctx.devices:
        for alloc in (device.allocator, getattr(device.allocator, "onednn", None)):
            if alloc is not None:
                state.append((alloc.name, alloc.bytes_in_use, alloc.peak_bytes_in_use, alloc.num_allocs,
                              alloc.largest_alloc_size, getattr(alloc, "num_ooms", 0)))
    return state


def trace_records(ctx) -> list:
    """The trace's records as plain data, times left out (they differ run to run)."""
    out = []
    for event in ctx.trace._events:
        if type(event) is OpRecord:  # an executed op's record
            out.append(("OpRecord",) + tuple((name, value) for name, value in zip(event._fields, event)
                                             if name != "duration_ns"))
        else:
            out.append((type(event).__name__,) + tuple(
                (name, getattr(event, name, None)) for name in event.__slots__ if name != "duration_ns"))
    return out


def settle():
    """The cyclic garbage made since :func:`collector_paused` began collected (it is all in the
    youngest generation: no collection ran meanwhile, so this one is quick)."""
    gc.collect(0)


@contextmanager
def collector_paused():
    """No collection runs in the block unless :func:`settle` asks. When the cyclic collector runs
    depends on how many objects were made, which differs between the two implementations; what it
    frees (a tape's tensors, an error's frames) then changes the memory counters and even whether an
    output fits in the GPU, so two runs compare only if it runs at the same points in both. (The
    garbage of earlier runs waits too: its tensors are on other runtimes' devices.)"""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
