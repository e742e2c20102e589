"""The runtime's C module (runtime/_fastpath.c) against its Python references.

The C module is what runs wherever devtrace was installed with a C compiler; the Python references
(tensor._TensorBase, executor._execute_binary) run without one, or with DEVTRACE_PURE_PYTHON=1.
Both must be indistinguishable: same values, trace records, memory figures and errors.
"""

import gc
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig

import numpy as np
import pytest

import devtrace as tf
from conftest import ROOT
from devtrace.trace.events import OpRecord
from fastpath_support import EACH, IMPLEMENTATIONS, c_in_use, extra_ops, fresh_runtime

SCENARIO = os.path.join(ROOT, "tests", "fastpath_scenario.py")
FINALISERS = os.path.join(ROOT, "tests", "fastpath_finalisers.py")


def _fastpath():
    try:
        return importlib.import_module("devtrace.runtime._fastpath")
    except ImportError:
        return None


# built here: a subprocess can run it (this process may run the references: DEVTRACE_PURE_PYTHON)
needs_c = pytest.mark.skipif(_fastpath() is None, reason="the C module was not built here (no C compiler)")


def _run_scenario(pure: bool, script: str = SCENARIO) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DEVTRACE_PURE_PYTHON"}
    if pure:
        env["DEVTRACE_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, f"exit {out.returncode}: {out.stderr[-3000:]}"
    return out.stdout


def test_built_wherever_a_compiler_is():
    """setup.py marks the module optional; a compiler that is there must have built it."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None or not os.path.exists(sysconfig.get_paths()["include"] + "/Python.h"):
        pytest.skip("no C compiler or Python headers here: the Python references run")
    assert _fastpath() is not None, "devtrace/runtime/_fastpath.c was not built: pip install -e . again"


@needs_c
def test_in_use_unless_pure_python_is_asked_for():
    code = ("from devtrace.runtime.eager import executor; from devtrace.runtime import tensor; "
            "print(type(executor.execute_binary).__name__, tensor.Tensor.__base__.__name__)")
    run = lambda env: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,  # noqa: E731
                                     env={**os.environ, **env}, check=True).stdout.split()
    assert run({"DEVTRACE_PURE_PYTHON": "0"}) == ["builtin_function_or_method", "TensorBase"]
    assert run({"DEVTRACE_PURE_PYTHON": "1"}) == ["function", "_TensorBase"]


@needs_c
def test_c_and_python_paths_are_indistinguishable():
    """Values, every trace record (times aside), allocator counters on the host and a simulated
    GPU, memory info, an OOM, kernel errors with their exception chains, the ops that leave the
    fast path (placement log, tape, a variant output, no output), and a flush of the trace."""
    c, python = _run_scenario(pure=False), _run_scenario(pure=True)
    assert c.splitlines() == python.splitlines()
    assert "oom: ResourceExhaustedError" in c and "shapes: InvalidArgumentError" in c and "seq: 5040" in c


@needs_c
def test_finalisers_that_run_inside_an_op_replace_nothing_it_still_uses():
    """3.10 and 3.11 collect inside allocations: a finaliser run there replaces the device scope,
    the trace's records or the placement cache while the op holds what it read of them (a scope
    string it had only borrowed was used after it was freed: a crash)."""
    c, python = _run_scenario(pure=False, script=FINALISERS), _run_scenario(pure=True, script=FINALISERS)
    assert c.splitlines() == python.splitlines()
    assert [line.split()[0] for line in c.splitlines()] == ["scope", "records", "placements"]
    assert all("records right: True" in line for line in c.splitlines())


@c_in_use
def test_records_and_shapes_are_left_to_reference_counting():
    """Trace records hold only ints, strings and tuples of them: untracked by the cyclic GC when
    made, so a long trace costs the collector nothing (the records are the same tuples)."""
    import devtrace as tf
    from devtrace.runtime.context import context

    with tf.device("/CPU:0"):
        x = tf.constant(np.ones((2, 2), np.float32))
        tf.add(x, x)  # placed, and its placement cached
        tf.add(x, x)  # the hot path's record
    record = context().trace._events[-1]
    assert type(record) is OpRecord and record.op == "AddV2"
    assert not gc.is_tracked(record) and not gc.is_tracked(record.inputs) and not gc.is_tracked(record.shape)


def test_a_freed_tensor_gives_its_host_memory_back():
    import devtrace as tf
    from devtrace.runtime.context import context

    with tf.device("/CPU:0"):
        x = tf.constant(np.ones((4, 4), np.float32))
        host = context().host.allocator
        before = (host.bytes_in_use, host.num_allocs, host.peak_bytes_in_use)
        y = tf.add(x, x)
        assert (host.bytes_in_use, host.num_allocs) == (before[0] + 64, before[1] + 1)
        assert host.peak_bytes_in_use == max(before[2], before[0] + 64)
        del y
        assert host.bytes_in_use == before[0]


def test_tensors_and_records_made_where_freed_ones_were_are_new_ones():
    """The C module keeps a freed Tensor's and record's memory for the next op's (its free lists, which a
    full collection empties): each tensor made there gives its bytes back when it goes, is weakly
    referenced anew, and each record is the op's own."""
    import weakref

    from devtrace.runtime.context import context

    trace = context().trace
    with tf.device("/CPU:0"):
        x = tf.constant(np.ones((4, 4), np.float32))
        host = context().host.allocator
        before = host.bytes_in_use
        for i in range(6):
            if i == 3:
                gc.collect()
            y = tf.add(x, x)
            ref = weakref.ref(y)
            record = trace._events[-1]
            assert (record.seq, record.op, record.inputs, record.shape) == (y._seq, "AddV2", (x._seq, x._seq), (4, 4))
            assert record.mem_in_use == host.bytes_in_use == before + 64 and ref() is y
            del y
            assert host.bytes_in_use == before and ref() is None
        assert np.array_equal(tf.multiply(x, x).numpy(), np.ones((4, 4), np.float32))


def test_tensors_and_their_subclasses_give_their_memory_and_weak_references_back_when_freed():
    """Tensor's deallocation (the C module's own: host memory given back without a call) and a
    subclass's (its own slots, then Tensor's part): the bytes come back once, before weak references
    are called back, and each tensor lets go of what it held and of its type."""
    import weakref

    from devtrace.runtime.context import context
    from devtrace.runtime.tensor import Tensor

    class Held:
        pass

    class Sub(Tensor):
        __slots__ = ("extra",)

    class Same(Tensor):  # laid out as Tensor: a tensor's class can move between them (SlicedVariable)
        __slots__ = ()

    tf.constant(0.0)  # the runtime initialised
    host = context().host
    alloc, called, held = host.allocator, [], []
    counts, before = (sys.getrefcount(Tensor), sys.getrefcount(Sub), sys.getrefcount(Same)), alloc.bytes_in_use
    for cls in (Tensor, Sub, Tensor, Sub, Same):
        t = cls(np.ones(3, np.float32), host, alloc.allocate(12), tf.float32, 0)
        if cls is Same:
            t.__class__ = Tensor
            t.__class__ = Same
        if cls is Sub:
            t.extra = Held()
            held.append(weakref.ref(t.extra))
        ref = weakref.ref(t, lambda _: called.append(alloc.bytes_in_use))
        assert alloc.bytes_in_use == before + 12
        del t
        assert ref() is None and alloc.bytes_in_use == before
    del cls
    assert called == [before] * 5 and [r() for r in held] == [None, None]
    assert (sys.getrefcount(Tensor), sys.getrefcount(Sub), sys.getrefcount(Same)) == counts


def test_records_and_their_subclasses_free_whole():
    """OpRecord's deallocation (the C module's own: a tuple with nothing else to let go) frees a record
    made in C or in Python, and one of a subclass, each letting go of its items and its type once."""
    from devtrace.runtime.context import context

    class Sub(OpRecord):
        __slots__ = ()

    fields = tuple(f"item {i}" for i in range(len(OpRecord._fields)))
    events = context().trace._events
    events.clear()  # (records held there hold their type)
    gc.collect()  # ... and so do records in earlier tests' garbage, which a collection in the loop would free
    counts = sys.getrefcount(OpRecord), sys.getrefcount(Sub), sys.getrefcount(fields[3])
    with tf.device("/CPU:0"):
        x = tf.constant(np.ones((2, 2), np.float32))
        for _ in range(300):
            tf.add(x, x)
            Sub(*fields)
            OpRecord(*fields)
            events.clear()
    assert (sys.getrefcount(OpRecord), sys.getrefcount(Sub), sys.getrefcount(fields[3])) == counts
    assert Sub(*fields)[3] == "item 3" and type(Sub(*fields)) is Sub


@c_in_use
def test_configure_refuses_what_it_cannot_read():
    fastpath = _fastpath()

    class NoSlots:
        pass

    from devtrace.runtime.eager import executor

    with pytest.raises(TypeError, match="configure"):
        fastpath.configure(Tensor=NoSlots)
    with pytest.raises(TypeError, match="keyword"):
        fastpath.configure(1)
    executor._accelerated()  # configured again, as at import: the rest of the suite runs on it
    assert executor.execute_binary is fastpath.execute_binary


# -- errors, in process: the C function and its reference called side by side ------------------

def _error_of(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return e
    raise AssertionError("no error")


def _chain(e):
    links = []
    while e is not None and len(links) < 5:  # a cycle shows as five links
        links.append((type(e).__name__, e.__suppress_context__))
        e = e.__context__
    return links


@pytest.mark.parametrize("impl", EACH)
def test_a_kernel_error_inside_an_except_block_chains_as_the_reference_does(impl):
    """`raise kernel_failed(...) from None` inside `except ValueError as e`: the op's error has the
    kernel's ValueError as its context, which has the exception the caller was handling; and the
    caller is still handling its own afterwards."""
    from devtrace.errors import InvalidArgumentError

    fast = IMPLEMENTATIONS[impl]
    fresh_runtime()
    with tf.device("/CPU:0"):
        x, y = tf.constant(np.ones((2, 3), np.float32)), tf.constant(np.ones(2, np.float32))
        _error_of(lambda: fast("AddV2", x, y))  # placed; the next call finds its placement cached
        try:
            raise KeyError("the caller's")
        except KeyError:
            e = _error_of(lambda: fast("AddV2", x, y))
            still = sys.exc_info()[1]
    assert isinstance(e, InvalidArgumentError) and "Incompatible shapes: [2,3] vs. [2]" in str(e)
    assert _chain(e) == [("InvalidArgumentError", True), ("ValueError", False), ("KeyError", False)]
    assert isinstance(still, KeyError)


@pytest.mark.parametrize("impl", EACH)
def test_a_generator_that_runs_a_failing_op_keeps_its_own_exception_state(impl):
    """The exception a failing kernel raised is handled on a stack item of its own (C) or in the
    reference's except block: a generator running the op while its caller handles another exception
    does not take that one with it."""
    fast = IMPLEMENTATIONS[impl]
    fresh_runtime()

    def ops():
        with tf.device("/CPU:0"):
            x, y = tf.constant(np.ones((2, 3), np.float32)), tf.constant(np.ones(2, np.float32))
            for _ in range(2):  # placed, then cached
                _error_of(lambda: fast("AddV2", x, y))
        yield sys.exc_info()[1]
        yield sys.exc_info()[1]

    gen = ops()
    try:
        raise KeyError("the caller's")
    except KeyError:
        assert isinstance(next(gen), KeyError)  # the caller's, seen from the generator
    assert next(gen) is None  # the caller handles nothing now: neither does the generator


@pytest.mark.parametrize("impl", EACH)
def test_a_kernel_memory_error_is_raised_again_with_its_own_context(impl):
    """kernel_failed returns a MemoryError itself (no budget to check): raised `from None`, it keeps
    the context it had, and is not made its own context (a cycle the traceback printer cuts short)."""
    fast = IMPLEMENTATIONS[impl]
    fresh_runtime()
    with extra_ops(), tf.device("/CPU:0"):
        x = tf.constant(np.ones(3, np.float32))
        for _ in range(2):  # placed, then cached
            e = _error_of(lambda: fast("FastpathMemoryError", x, x))
        try:
            raise KeyError("the caller's")
        except KeyError:
            handled = _error_of(lambda: fast("FastpathMemoryError", x, x))
    assert type(e) is MemoryError and _chain(e) == [("MemoryError", True)]
    assert _chain(handled) == [("MemoryError", True), ("KeyError", False)]
