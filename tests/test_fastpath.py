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

from conftest import ROOT

SCENARIO = os.path.join(ROOT, "tests", "fastpath_scenario.py")


def _fastpath():
    try:
        return importlib.import_module("devtrace.runtime._fastpath")
    except ImportError:
        return None


needs_c = pytest.mark.skipif(_fastpath() is None, reason="the C module was not built here (no C compiler)")


def _run_scenario(pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DEVTRACE_PURE_PYTHON"}
    if pure:
        env["DEVTRACE_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, SCENARIO], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
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
    assert type(record) is tuple and record[1] == "AddV2"
    assert not gc.is_tracked(record) and not gc.is_tracked(record[6]) and not gc.is_tracked(record[7])


@needs_c
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


@needs_c
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
