"""A function graph's ufunc nodes may compute into a dead input's NumPy array (``out=``), as
TensorFlow's kernels forward an input buffer no one else reads (``OpKernelContext::forward_input``):
the host allocation is saved, the output is still allocated and accounted as its own tensor. Values,
trace records and allocator figures stay those of the Python reference; an input that is returned,
read later, a variable's, a fed array, a view or seen by an op callback is never written into."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime.context import context
from fastpath_support import EACH, IMPLEMENTATIONS, allocator_state, collector_paused, fresh_runtime, trace_records, \
    using

C_ONLY = [p for p in EACH if p != "Python"]


def _reuse(fn, *args) -> dict:
    """``{node name: the input positions its plan may write into}`` of the function's ufunc nodes
    (the plan is made at the first call)."""
    fn(*args)
    placed = fn.get_concrete_function(*args)._placed
    return {op.name: step[7][3] for i, op, device, step in placed._plan
            if step is not None and len(step) == 8 and step[7] is not None and step[7][1] is not None}


def _values(fn, *args) -> tuple:
    """A call's node values by name (``PlacedFunction.run``'s dict) and the call's output."""
    concrete = fn.get_concrete_function(*args)
    values = concrete._placed.run(context(), list(args), list(concrete.graph.captures.values()))
    return {op.name: values.get(op._id) for op in concrete.graph._ops}, concrete(*args)


def _program() -> list:
    v = tf.Variable(np.full((2, 3), 0.5, np.float32))
    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))

    @tf.function
    def chain(a):  # each product dead after the next node: written into, node after node
        return ((a * 2.0 - 1.0) * v.read_value() + tf.sqrt(a)) * 3.0

    @tf.function
    def unary(a):  # one-input ufuncs, and a division by zero under quiet's errstate
        return tf.sqrt(tf.square(a - 2.0) * 1.0) / (a - 1.0) + tf.sqrt(a - 3.0)

    @tf.function
    def kept(a):  # b returned, c read twice, the variable's read, a reshaped view, a 0-d operand
        b = a * 2.0
        c = b - 1.0
        d = c * c + c
        r = tf.reshape(a + 1.0, [3, 2])
        return b, d - v, tf.reshape(r, [2, 3]) * 2.0, tf.reduce_sum(a) * 2.0 - 1.0

    seen = []
    for _ in range(2):
        seen.append(chain(a).numpy().tolist())
        seen.append(repr(unary(a).numpy().tolist()))
        seen.append([t.numpy().tolist() for t in kept(a)])
        v.assign_add(tf.ones((2, 3)))
    seen.append((a.numpy().tolist(), v.numpy().tolist()))
    return seen


def _run(impl) -> str:
    with using(IMPLEMENTATIONS[impl]), collector_paused():
        ctx = fresh_runtime()
        seen = _program()
        return re.sub(r"(__inference_\w+?)_\d+", r"\1", repr((seen, trace_records(ctx), allocator_state(ctx))))


@pytest.mark.parametrize("impl", C_ONLY)
def test_forwarding_leaves_values_records_and_memory_as_the_reference(impl):
    assert _run(impl) == _run("Python")


@pytest.mark.parametrize("impl", C_ONLY)
def test_a_dead_input_array_takes_the_result_along_a_chain(impl):
    with using(IMPLEMENTATIONS[impl]), collector_paused():
        fresh_runtime()
        v = tf.Variable(np.full((2, 3), 0.5, np.float32))
        a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))

        @tf.function
        def chain(a):
            b = a * 2.0
            c = b - 1.0
            d = c * v.read_value()
            return d + 1.0

        assert _reuse(chain, a) == {"mul": (), "sub": (0,), "mul_1": (0, 1), "add": (0,)}
        values, out = _values(chain, a)
        assert values["mul"]._value is None and values["sub"]._value is None  # given on to the next node
        assert values["mul_1"]._value is None and values["add"]._value is not None
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        np.testing.assert_array_equal(out.numpy(), (x * np.float32(2) - np.float32(1)) * np.float32(0.5) + 1)
        np.testing.assert_array_equal(a.numpy(), x)  # the fed array untouched
        np.testing.assert_array_equal(v.numpy(), np.full((2, 3), 0.5, np.float32))


@pytest.mark.parametrize("impl", C_ONLY)
def test_no_input_is_written_into_while_something_else_reads_it(impl):
    with using(IMPLEMENTATIONS[impl]), collector_paused():
        fresh_runtime()
        v = tf.Variable(np.full((2, 3), 0.5, np.float32))
        a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))

        @tf.function
        def kept(a):
            b = a * 2.0  # returned
            c = b - 1.0  # read again after the next node
            d = c * 2.0
            e = d + c  # both dead here: written into one of them
            w = v.read_value() * 1.0  # a copy (read_value's Identity) of the variable's buffer
            r = tf.reshape(e, [3, 2])  # a view of e's array
            s = tf.reshape(r * 1.0, [2, 3]) + w  # a view, and w's array
            return b, s, a * 3.0  # a fed array

        reuse = _reuse(kept, a)
        assert (reuse["sub"], reuse["mul_1"], reuse["add"], reuse["mul_4"]) == ((), (), (0, 1), ())
        assert reuse["mul_3"] == (0,) and reuse["add_1"] == (0, 1)  # a view: refused when it runs
        values, (b, s, a3) = _values(kept, a)
        for name in ("mul", "sub", "add", "Read/ReadVariableOp", "Reshape", "mul_3", "Reshape_1"):
            assert values[name]._value is not None, name  # nothing written into it
        for name in ("mul_1", "Identity", "mul_2"):  # add's, mul_2's and add_1's result written there
            assert values[name]._value is None, name
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        c = x * np.float32(2) - np.float32(1)
        np.testing.assert_array_equal(b.numpy(), x * np.float32(2))
        np.testing.assert_array_equal(s.numpy(), (c * np.float32(2) + c) * np.float32(1) + np.float32(0.5))
        np.testing.assert_array_equal(a3.numpy(), x * np.float32(3))
        np.testing.assert_array_equal(a.numpy(), x)
        np.testing.assert_array_equal(v.numpy(), np.full((2, 3), 0.5, np.float32))


@pytest.mark.parametrize("impl", C_ONLY)
def test_an_op_callback_sees_every_value_as_computed(impl):
    with using(IMPLEMENTATIONS[impl]), collector_paused():
        ctx = fresh_runtime()
        a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))

        @tf.function
        def chain(a):
            return (a * 2.0 - 1.0) * 3.0

        chain(a)
        seen = {}

        class Callback:
            def function(self, placed, args, values):
                for op in placed.graph._ops:
                    value = values.get(op._id)
                    if op.type in ("Mul", "Sub"):
                        seen[op.name] = value._value.tolist()

        ctx.op_callbacks.append(Callback())
        try:
            chain(a)
        finally:
            ctx.op_callbacks.clear()
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        assert seen == {"mul": (x * 2).tolist(), "sub": (x * 2 - 1).tolist(), "mul_1": ((x * 2 - 1) * 3).tolist()}


@pytest.mark.parametrize("impl", C_ONLY)
def test_one_input_ufuncs_and_quiet_kernels_forward_and_warn_of_nothing(impl):
    with using(IMPLEMENTATIONS[impl]), collector_paused():
        fresh_runtime()
        a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))

        @tf.function
        def unary(a):
            return tf.sqrt(tf.square(a - 2.0) * 1.0) / (a - 1.0)

        assert _reuse(unary, a) == {"sub": (), "Square": (0,), "mul": (0,), "Sqrt": (0,), "sub_1": (),
                                    "truediv": (0, 1)}
        before = np.geterr()
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # NumPy's RuntimeWarning for the division by zero would fail here
            values, out = _values(unary, a)
        assert np.geterr() == before  # quiet's errstate set for the kernel alone
        for name in ("sub", "Square", "mul", "Sqrt"):  # one buffer along the chain, the division's too
            assert values[name]._value is None, name
        assert values["sub_1"]._value is not None  # the first dead input taken, the other left
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        with np.errstate(all="ignore"):
            expected = np.sqrt(np.square(x - np.float32(2)) * np.float32(1)) / (x - np.float32(1))
        np.testing.assert_array_equal(out.numpy(), expected)
