"""What the eager hot path remembers between ops (``_fastpath.c``'s memos of the context, the op's
registry entry and its cached placement, and the last output shape) never outlives a change: each
change below made between two ops is seen by the second as the Python reference sees it — same
devices, values, trace records and allocator figures."""

from __future__ import annotations

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime import context as context_module
from devtrace.runtime.registry import REGISTRY, register
from fastpath_support import EACH, IMPLEMENTATIONS, allocator_state, collector_paused, fresh_runtime, trace_records, \
    using


def _run(impl, change):
    """Two adds in the hot path's own case with ``change(ctx)`` between them: what each run shows."""
    with collector_paused(), using(IMPLEMENTATIONS[impl]) as execute_binary:
        ctx = fresh_runtime()
        with tf.device("/GPU:0"):
            x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
            y = tf.constant(np.ones((2, 3), np.float32))
            outs = [execute_binary("AddV2", x, y), execute_binary("AddV2", x, y)]
            ctx = change(ctx) or ctx
            outs += [execute_binary("AddV2", x, y), tf.add(x, y), x + y]
        seen = [(t.device, t.dtype.name, t.numpy().tolist()) for t in outs]
        return seen, trace_records(ctx), allocator_state(ctx), ctx.trace._seq


def _cached_elsewhere(ctx):
    """The cached placement of the add now names the host CPU (a dict written in place)."""
    cpu = ctx.find_device("/job:localhost/replica:0/task:0/device:CPU:0")
    for key, (device, reason) in list(ctx.placement_cache.items()):
        if key[0] == "AddV2":
            ctx.placement_cache[key] = (cpu, reason)


def _cache_cleared(ctx):
    ctx.placement_cache.clear()


def _cache_replaced(ctx):
    ctx.placement_cache = {}


def _context_replaced(ctx):
    """A new runtime: the tensors of the old one are on its devices (copied onto the new one's)."""
    return fresh_runtime()


def _kernel_replaced(ctx):
    """AddV2's registry entry replaced by one whose kernel subtracts (put back by the test)."""
    register("AddV2", lambda xp, a, b: a - b)


CHANGES = {"placement cached elsewhere": _cached_elsewhere, "placement cache cleared": _cache_cleared,
           "placement cache replaced": _cache_replaced, "context replaced": _context_replaced,
           "kernel replaced": _kernel_replaced}


@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("impl", EACH)
def test_a_change_between_two_ops_is_seen_by_the_second(impl, change):
    if impl == "Python" and IMPLEMENTATIONS["C"] is None:
        pytest.skip("the C module is not in use here: nothing to compare")
    saved = REGISTRY["AddV2"]
    try:
        got = _run(impl, CHANGES[change])
        REGISTRY["AddV2"] = saved
        want = _run("Python", CHANGES[change])
    finally:
        REGISTRY["AddV2"] = saved
        context_module.reset_context()
    assert got == want
    values = [value for _, _, value in got[0]]
    if change == "kernel replaced":
        assert values[2:] == [[[-1.0, 0.0, 1.0], [2.0, 3.0, 4.0]]] * 3
    else:
        assert values == [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]] * 5
    if change == "placement cached elsewhere":
        assert [device[-5:] for device, _, _ in got[0]] == ["GPU:0", "GPU:0", "CPU:0", "CPU:0", "CPU:0"]


@pytest.mark.parametrize("impl", EACH)
def test_outputs_of_changing_shapes_record_each_its_own(impl):
    """Outputs of one shape share the record's shape tuple; another shape is recorded as it is."""
    with collector_paused(), using(IMPLEMENTATIONS[impl]) as execute_binary:
        ctx = fresh_runtime()
        with tf.device("/CPU:0"):
            a, b = tf.constant(np.ones((2, 2), np.float32)), tf.constant(np.ones((2,), np.float32))
            c, d = tf.constant(np.ones((), np.float32)), tf.constant(np.ones((1, 2, 2), np.float32))
            pairs = [(a, a), (a, a), (a, b), (b, b), (c, c), (c, c), (a, d), (a, a), (b, b)]
            for x, y in pairs * 2:
                execute_binary("AddV2", x, y)
        shapes = [record.shape for record in ctx.trace._events[-len(pairs):]]
    context_module.reset_context()
    assert shapes == [(2, 2), (2, 2), (2, 2), (2,), (), (), (1, 2, 2), (2, 2), (2,)]
