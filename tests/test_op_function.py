"""A binary op's public function with the C module (``_fastpath.OpFunction``, ``declare.op_function``)
against its Python function: the same outputs, errors, trace records and allocator figures for every
kind of call, and the same function to whoever looks at it (signature, doc, pickling, binding)."""

from __future__ import annotations

import copy
import inspect
import pickle
import types

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime import context as context_module
from devtrace.runtime.native import FASTPATH
from fastpath_support import allocator_state, c_in_use, collector_paused, fresh_runtime, trace_records

pytestmark = c_in_use


def _program(log):
    """Calls that take the common case and calls that leave it, each its own way; what each gives."""
    out = []

    def call(label, fn, *args, **kwargs):
        try:
            value = fn(*args, **kwargs)
            out.append((label, value.device, value.dtype.name, value.numpy().tolist()))
        except Exception as e:  # noqa: BLE001 (the error is the result)
            out.append((label, type(e).__name__, str(e)))

    with tf.device("/GPU:0"):
        g = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
        row = tf.constant(np.ones(3, np.float32))
        wide = tf.constant(np.ones((2, 4), np.float32))
        i = tf.constant(np.ones((2, 3), np.int32))
        b = tf.constant(np.array([True, False]))
        s = tf.constant(["a", "b"])
    with tf.device("/CPU:0"):
        c = tf.constant(np.ones((2, 3), np.float32))
    for scope in ("/GPU:0", "/CPU:0"):
        with tf.device(scope):
            call("common", tf.add, g, g)
            call("common, name None", tf.subtract, g, g, None)
            call("operator", lambda x, y: x * y, g, g)
            call("broadcast", tf.maximum, g, row)
            call("shapes that do not broadcast", tf.add, g, wide)
            call("two dtypes", tf.add, g, i)
            call("two devices", tf.multiply, g, c)
            call("named", tf.add, g, g, name="plus")
            call("keyword", tf.math.subtract, x=g, y=g)
            call("a Python number", tf.add, g, 2.0)
            call("a list", tf.multiply, [1.0, 2.0, 3.0], row)
            call("strings", tf.add, s, s)
            call("a fixed dtype", tf.logical_and, b, b)
            call("a fixed dtype refused", tf.logical_and, g, g)
            with tf.GradientTape() as tape:
                tape.watch(g)
                y = tf.multiply(g, g)
            call("a tape", lambda: tape.gradient(y, g))
            tf.debugging.set_log_device_placement(log)
            call("the placement log (when on)", tf.add, g, g)
            tf.debugging.set_log_device_placement(False)
    return out


def _run(on, log, capsys):
    FASTPATH.set_op_functions(on)
    try:
        with collector_paused():
            ctx = fresh_runtime()
            out = _program(log)
            printed = capsys.readouterr()
            return out, trace_records(ctx), allocator_state(ctx), ctx.trace._seq, printed.out, printed.err
    finally:
        FASTPATH.set_op_functions(True)
        context_module.reset_context()


@pytest.mark.parametrize("log", [False, True])
def test_each_call_is_what_the_python_function_gives(log, capsys):
    c, python = _run(True, log, capsys), _run(False, log, capsys)
    assert c == python
    labels = [row[0] for row in c[0]]
    assert labels.count("common") == 2 and "InvalidArgumentError" in dict((r[0], r[1]) for r in c[0])["two dtypes"]
    assert ("Executing op AddV2 in device /job:localhost/replica:0/task:0/device:GPU:0" in c[4] + c[5]) == log


def test_it_is_its_python_function_to_whoever_looks():
    add, subtract = tf.add, tf.math.subtract
    assert type(add) is FASTPATH.OpFunction and tf.math.add is add
    assert isinstance(add, types.FunctionType) and inspect.isfunction(add) and callable(add)
    assert str(inspect.signature(add)) == str(inspect.signature(subtract)) == "(x, y, name=None)"
    assert add.__name__ == "add" and subtract.__name__ == "subtract" and add.__module__ == "devtrace.ops.math.math_ops"
    assert add.__doc__.startswith("``y`` converts with ``x``'s dtype") and add.__code__.co_name == "add"
    assert repr(add).startswith("<function add at 0x")
    assert pickle.loads(pickle.dumps(add)) is add and copy.copy(add) is add and copy.deepcopy(add) is add
    try:
        add.marked = True  # an attribute set is the function's
        assert add.marked is True and add.__dict__["marked"] is True
    finally:
        del add.marked

    class Holder:
        plus = add  # bound as a function is: a method

    x = tf.constant([1.0, 2.0])
    assert Holder.plus is add
    assert Holder().plus.__func__ is add
    assert tf.add(x, x).numpy().tolist() == [2.0, 4.0]
