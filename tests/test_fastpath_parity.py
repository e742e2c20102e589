"""The eager hot path in C (``_fastpath.execute_binary``) against its Python reference
(``executor._execute_binary``), on random programs of binary ops.

A program makes a few tensors (float16/32/64, bfloat16, int32/64, bool, complex; 0-d to 2-d,
broadcasting and not, empty; on the CPU or a simulated GPU of 1 MiB, most of it taken in some
programs, so outputs run out of memory), then runs ops on them through ``tf.*`` functions, Python
operators and the hot path's own entry (explicit dtypes; kernels that leave it each its own way;
an op taken out of the registry while its placement stays cached), under device scopes, with
names, inside a GradientTape (and its gradients), with the placement log on, inside an ``except``
block, with NumPy's floating-point errors raised, across a trace flush (that may fail), with an
allocator that fails. It runs once with each implementation, on a fresh runtime each time, the
cyclic collector paused: everything a user or a view can see must be the same — values, dtypes,
devices, errors and their chains, trace records (times aside), the trace's seq, every allocator's
counters, and the counters once every tensor is gone. Half the steps are the hot path's own case,
so most of its branches run (a failing example is printed as drawn: shrinking is off, it is slow).
"""

from __future__ import annotations

import contextlib
import io
import operator
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import devtrace as tf
from devtrace.runtime.dtypes import ListValue
from devtrace.runtime.eager.executor import ResourceHandle
from devtrace.runtime.registry import REGISTRY
from devtrace.trace import events as ev
from fastpath_support import (IMPLEMENTATIONS, KERNELS, FailingAllocator, allocator_state, c_in_use, collector_paused,
                              extra_ops, failing_flush, fresh_runtime, settle, trace_records, using)

DTYPES = ("float16", "float32", "float64", "bfloat16", "int32", "int64", "bool", "complex64", "complex128")
# (400, 1) with (1, 400), (300, 300): outputs of 90 KB to 2.5 MB, more than the GPU has (with the
# inputs), and oneDNN's on the host
SHAPES = ((), (1,), (3,), (2, 3), (2, 1), (1, 3), (0,), (0, 3), (400, 1), (1, 400), (300, 300))
DEVICES = ("/CPU:0", "/GPU:0")
VALUES = {"f": (0.0, 1.0, -2.0, 0.5, 3.0, np.nan, np.inf), "i": (0, 1, -2, 3, 7), "b": (True, False),
          "c": (0, 1 + 1j, -2j, 0.5)}
FUNCTIONS = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "less", "less_equal", "greater",
             "greater_equal", "logical_and")
OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "<": operator.lt,
             "<=": operator.le, ">": operator.gt, ">=": operator.ge}
OP_NAMES = ("AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Less")  # the hot path's own entry, with a dtype


# -- programs ----------------------------------------------------------------------------------

# most tensors, and most scopes, are the program's main dtype and device: most ops then find their
# inputs clean, on the hot path
MAIN = "main"
tensors = st.tuples(st.sampled_from((MAIN,) * 3 + DTYPES), st.sampled_from(SHAPES),
                    st.sampled_from((MAIN,) * 3 + DEVICES), st.integers(0, 2**16))
operand = st.integers(0, 50)  # an index into the tensors so far (modulo their number)
# how a step's ops are placed: half the steps the hot path's own case (the main device's scope, the
# placement cached by the first of two calls, no tape, no placement log), half anything
PLAIN = {"scope": MAIN, "repeat": 2, "tape": False, "log": False}
placed = st.one_of(st.just(PLAIN), st.fixed_dictionaries({
    "scope": st.sampled_from((MAIN, MAIN, None) + DEVICES), "repeat": st.integers(1, 3), "tape": st.booleans(),
    "log": st.sampled_from((False, False, False, True))}))
# what the ops run in, whatever the path
conditions = st.fixed_dictionaries({
    "in_except": st.sampled_from((False, False, True)), "errstate": st.sampled_from(("ignore", "ignore", "raise")),
    "flush": st.sampled_from((None,) * 4 + ("flushes", "raises")),  # the last call's seq: a multiple of 4096
    "allocator": st.sampled_from(("works",) * 9 + ("raises",))})  # the scope's device's
wrappers = st.builds(lambda a, b: {**a, **b}, placed, conditions)
steps = st.one_of(
    st.tuples(st.just("function"), st.sampled_from(FUNCTIONS), operand, st.one_of(operand, st.just(-1)),
              st.sampled_from((None, "", "named")), wrappers),
    st.tuples(st.just("operator"), st.sampled_from(sorted(OPERATORS)), operand, st.one_of(operand, st.just(-1)),
              st.none(), wrappers),
    st.tuples(st.just("direct"), st.sampled_from(OP_NAMES), operand, operand,
              st.sampled_from((None,) * 3 + DTYPES), wrappers),
    st.tuples(st.just("kernel"), st.sampled_from(sorted(KERNELS)), operand, st.one_of(st.just(-1), operand),
              st.none(), wrappers),  # -1: the first operand again
    # then taken out of the registry, its placement still cached, and called again
    st.tuples(st.just("unregister"), st.sampled_from(sorted(KERNELS)), operand, st.just(-1), st.none(), wrappers),
    st.tuples(st.just("delete"), operand),
)
# the main dtype and device, the GPU's memory taken by other tensors (of 1 MiB), tensors, steps
programs = st.tuples(st.sampled_from(DTYPES), st.sampled_from(DEVICES), st.sampled_from((0, 0, 768 << 10)),
                     st.lists(tensors, min_size=1, max_size=4), st.lists(steps, min_size=2, max_size=8))


# -- running one ---------------------------------------------------------------------------------

def _array(dtype_name, shape, seed):
    dtype = tf.as_dtype(dtype_name)
    kind = "b" if dtype.is_bool else "c" if dtype.is_complex else "f" if dtype.is_floating else "i"
    values = np.random.default_rng(seed).choice(np.array(VALUES[kind], dtype=object), size=shape)
    return np.asarray(values.tolist() if shape else values.item()).astype(dtype.as_numpy_dtype)


def _seen(value):
    """What a user can see of an op's result."""
    if isinstance(value, tuple):
        return tuple(_seen(v) for v in value)
    if isinstance(value, ResourceHandle):
        return ("ResourceHandle", value.device.name, value.seq)
    if value is None or not hasattr(value, "numpy"):
        return repr(value)
    return ("Tensor", value.dtype.name, value.device, tuple(value.shape), _contents(value._device.backend.to_host(
        value._value)))


def _contents(array):
    if isinstance(array, ListValue):  # a variant: the arrays it holds
        return [None if a is None else _contents(a) for a in array[()]]
    return (np.asarray(array).dtype.str, np.asarray(array).tobytes())


def _failure(e):
    chain, context = [], e.__context__
    while context is not None and len(chain) < 4:
        chain.append(type(context).__name__)
        context = context.__context__
    return ("error", type(e).__name__, str(e), repr(e.__cause__), e.__suppress_context__, tuple(chain))


def _attempt(log, fn):
    try:
        result = fn()
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        log.append(_failure(e))
        return None
    log.append(_seen(result))
    return result


def _call(impl, step, pool):
    kind, what, i, j, extra = step[:5]
    x = pool[i % len(pool)]
    y = (x if kind in ("kernel", "unregister") else 2) if j < 0 else pool[j % len(pool)]
    if kind == "function":
        return lambda: getattr(tf, what)(x, y, name=extra)
    if kind == "operator":
        return lambda: OPERATORS[what](x, y)
    if kind == "direct":
        return lambda: impl(what, x, y, None, None if extra is None else tf.as_dtype(extra))
    return lambda: impl(what, x, y)


@contextlib.contextmanager
def _wrapped(ctx, w, device):
    """The step's surroundings: a device scope, a failing flush, a failing allocator, a tape."""
    with contextlib.ExitStack() as stack:
        if w["scope"] is not None:
            device = device if w["scope"] == MAIN else w["scope"]
            stack.enter_context(tf.device(device))
        if w["flush"] == "raises":
            stack.enter_context(mock.patch.object(ev.Trace, "flush", failing_flush))
        if w["allocator"] == "raises":
            target = ctx.devices[DEVICES.index(device)]  # the CPU, then the GPU
            stack.enter_context(mock.patch.object(target, "allocator", FailingAllocator(target.allocator)))
        yield stack.enter_context(tf.GradientTape(persistent=True)) if w["tape"] else None


def _run_op(ctx, impl, step, pool, log, device):
    w = step[5]
    with np.errstate(all=w["errstate"]):
        _run_wrapped(ctx, impl, step, pool, log, device, w)


def _run_wrapped(ctx, impl, step, pool, log, device, w):
    run = _call(impl, step, pool)
    ctx.set_log_device_placement(w["log"])
    result = None
    with _wrapped(ctx, w, device) as tape:
        for t in pool if tape is not None else ():
            if t.dtype.is_floating:
                tape.watch(t)
        for i in range(w["repeat"]):  # the first call may place the op; the next find it cached
            if w["flush"] is not None and i == w["repeat"] - 1:
                ctx.trace._seq |= 4095
            if w["in_except"]:
                try:
                    raise KeyError("being handled")
                except KeyError:
                    result = _attempt(log, run)
            else:
                result = _attempt(log, run)
    ctx.set_log_device_placement(False)
    if step[0] == "unregister":
        REGISTRY.pop(step[1], None)
        _attempt(log, run)
    if tape is not None and result is not None and not isinstance(result, (tuple, ResourceHandle)):
        _attempt(log, lambda: tape.gradient(result, pool[:2]))
    if result is not None and not isinstance(result, (tuple, ResourceHandle)) and len(pool) < 12:
        pool.append(result)


def run_program(impl, program) -> dict:
    """Everything a user or a view can see of ``program`` run with ``impl`` as the hot path."""
    main_dtype, main_device, taken, made, program_steps = program
    log, pool = [], []
    with using(impl), collector_paused(), extra_ops():
        ctx = fresh_runtime()
        with tf.device("/GPU:0"):
            filler = tf.constant(np.zeros(taken, np.uint8))
        for dtype_name, shape, device, seed in made:
            dtype_name = main_dtype if dtype_name == MAIN else dtype_name
            with tf.device(main_device if device == MAIN else device):
                t = _attempt(log, lambda: tf.constant(_array(dtype_name, shape, seed)))
            if t is not None:
                pool.append(t)
        for step in program_steps:
            if not pool:
                break
            if step[0] == "delete":
                del pool[step[1] % len(pool)]
            else:
                _run_op(ctx, impl, step, pool, log, main_device)
        seen = {"log": log, "seq": ctx.trace._seq, "records": trace_records(ctx), "memory": allocator_state(ctx)}
        del pool, t, filler
        settle()
        seen["memory after"] = allocator_state(ctx)
    return seen


@pytest.mark.slow  # 400 random programs, each run twice
@c_in_use
@settings(max_examples=400, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs)
def test_c_and_python_hot_paths_agree_on_random_programs(program):
    with contextlib.redirect_stderr(io.StringIO()):  # the placement log's lines
        c = run_program(IMPLEMENTATIONS["C"], program)
        python = run_program(IMPLEMENTATIONS["Python"], program)
    for key in python:
        assert c[key] == python[key], key
