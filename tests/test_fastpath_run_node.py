"""A function graph's nodes through the C module (``_fastpath.run_node``) against the Python
reference (``execution.run_step``): the same function calls on a fresh runtime each way — nodes
with attributes, several outputs, int outputs, variables read and assigned (under an eager tape
too), an input on another device, a kernel's error, an output that does not fit the GPU, a node on the CPU — must leave the same values, errors, trace records (times aside) and
allocator counters."""

from __future__ import annotations

import re

import numpy as np
import pytest

import devtrace as tf
from fastpath_support import EACH, IMPLEMENTATIONS, allocator_state, collector_paused, fresh_runtime, trace_records, \
    using


def _program() -> list:
    seen = []

    @tf.function
    def step(a, b):
        c = tf.matmul(a, b, transpose_b=True) * 2.0 / (a[0, 0] + 0.0)  # attrs; a division by zero (quiet's kernel)
        parts = tf.unstack(c)  # several outputs: finish's own path
        n = tf.cast(tf.reduce_sum(parts[0]), tf.int32) + 3  # int outputs
        return tf.nn.relu(c - 1.0), n

    @tf.function
    def across(a):  # an input on another device: a copy (the reference's own lines)
        with tf.device("/CPU:0"):
            b = a * 2.0
        with tf.device("/GPU:0"):
            return b + 1.0

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def bad(a):
        return tf.matmul(a + 1.0, a) * 3.0  # a kernel's error for a non-square a

    @tf.function
    def big(a):
        return tf.matmul(a, a, transpose_b=True) * 2.0  # more than the GPU holds

    v = tf.Variable(np.ones((2, 3), np.float32))

    @tf.function
    def update(a):  # variables' reads and assignments (the plan's own steps)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * a)
        v.assign_sub(tape.gradient(loss, v) * 0.1)
        v.assign_add(a)
        v.assign(v * 0.5)
        return v.read_value() * 2.0 - tf.reduce_sum(a)  # a 0-d operand

    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    for _ in range(2):
        with tf.GradientTape() as tape:  # the run's nodes recorded on an eager tape
            out = update(a)
        seen.append((out.numpy().tolist(), tape.gradient(out, v).numpy().tolist(), v.numpy().tolist()))
    for _ in range(2):
        out, n = step(a, a)
        seen.append((out.numpy().tolist(), int(n), out.device))
    with tf.device("/CPU:0"):
        out, n = step(a, a)
        seen.append((out.numpy().tolist(), int(n), out.device))
    seen.append(across(a).numpy().tolist())
    for fn, arg in ((bad, a), (big, tf.constant(np.ones((600, 2), np.float32)))):
        try:
            fn(arg)
        except Exception as e:  # noqa: BLE001 (the error is what is compared)
            seen.append((type(e).__name__, str(e)))
    return seen


def _run(impl) -> tuple:
    """What ``_program`` leaves, the functions' numbers (a process-wide count) left out."""
    with using(IMPLEMENTATIONS[impl]), collector_paused():
        ctx = fresh_runtime()
        seen = _program()
        return re.sub(r"(__inference_\w+?)_\d+", r"\1", repr((seen, trace_records(ctx), allocator_state(ctx))))


@pytest.mark.parametrize("impl", [p for p in EACH if p != "Python"])
def test_function_nodes_run_in_c_as_the_reference_runs_them(impl):
    c, python = _run(impl), _run("Python")
    assert c == python
    assert "Matrix size-incompatible" in c and "[[{{node MatMul}}]]" in c and "'OpRecord'" in c
    assert "ResourceExhaustedError" in c and "OOM when allocating tensor with shape[600,600]" in c


@pytest.mark.parametrize("impl", [p for p in EACH if p != "Python"])
def test_a_plain_function_runs_whole_in_run_plan(impl, monkeypatch):
    """Consts, variables' reads and assignments and two-input nodes (ufunc or kernel) of a function
    on one device: run_plan runs every node; its Python lines take none."""
    from devtrace.runtime.graph import function_run

    def refused(*args, **kwargs):
        raise AssertionError("a node left to function_run's Python lines")

    with using(IMPLEMENTATIONS[impl]), collector_paused():
        fresh_runtime()
        v = tf.Variable(np.ones((2, 3), np.float32))

        @tf.function
        def update(a):
            v.assign_add(a * 0.5 - 1.0)
            return v.read_value() / (a + 1.0)

        a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
        update(a)
        monkeypatch.setattr(function_run, "run_planned", refused)
        monkeypatch.setattr(function_run.PlacedFunction, "_variable_op", refused)
        monkeypatch.setattr(function_run.PlacedFunction, "_node", refused)
        out = update(a)
    expected = (1.0 + 2 * (np.arange(6).reshape(2, 3) * 0.5 - 1.0)) / (np.arange(6).reshape(2, 3) + 1.0)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
