"""One op step and one record type (issue 27): every executed op is recorded as an ``OpRecord``
(``trace/events.py``), whose layout ``OpPlaced`` declares once; the C hot path is handed the
field names at ``configure()`` time; only the trace writes its buffer (``Trace.append``); no
module outside the record type reads a record by position."""

from __future__ import annotations

import ast
import collections
import gc
import json
import pathlib
import re
import sys
from collections import namedtuple
from contextlib import contextmanager
from dataclasses import MISSING, fields

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime.eager import executor
from devtrace.runtime.native import FASTPATH
from devtrace.trace import events as ev
from devtrace.trace import jsonl
from devtrace.trace.limit import Limiter
from fastpath_support import EACH, IMPLEMENTATIONS, collector_paused, extra_ops, fresh_runtime, using

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "devtrace"
TRACE_MODULE = PACKAGE / "trace" / "events.py"
RECORD_NAMES = {"record", "rec", "head", "event", "e"}  # what the modules that handle records call one


def test_the_record_is_op_placed_s_fields_in_its_order_with_its_defaults():
    assert ev.OpRecord._fields == tuple(f.name for f in fields(ev.OpPlaced))
    for f in fields(ev.OpPlaced):
        if f.default is not MISSING:
            assert ev.OpRecord._field_defaults[f.name] == f.default
    record = ev.OpRecord(7, "AddV2", None, "", "/device:CPU:0", ev.DEFAULT, (1, 2))
    assert (record.shape, record.dtype, record.duration_ns, record.mem_in_use) == (None, None, 0, None)
    assert record.kind == "op_placed" and record.event() == ev.OpPlaced(7, "AddV2", None, "", "/device:CPU:0",
                                                                         ev.DEFAULT, [1, 2])
    done = record.completed((2, 2), "float32", 5, 64)
    assert type(done) is ev.OpRecord and done == record._replace(shape=(2, 2), dtype="float32", duration_ns=5,
                                                                 mem_in_use=64)


# ---- only the trace writes its buffer; records are read by field name -------------------------------

def _sources():
    return sorted(p for p in PACKAGE.rglob("*.py") if p != TRACE_MODULE)


def _imports_record_type(tree) -> bool:
    return any(isinstance(node, ast.ImportFrom) and any(a.name == "OpRecord" for a in node.names)
               for node in ast.walk(tree))


def positional_reads(tree) -> list[str]:
    """Records read by position in a module that handles them (it imports ``OpRecord``): a name a
    record goes by, subscripted with a number or a slice, or told from other events as a tuple."""
    if not _imports_record_type(tree):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in RECORD_NAMES:
            index = node.slice
            if isinstance(index, ast.Slice) or isinstance(index, ast.UnaryOp) or (
                    isinstance(index, ast.Constant) and isinstance(index.value, int)):
                out.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Compare) and any(isinstance(c, ast.Name) and c.id == "tuple" for c in node.comparators):
            left = node.left
            if isinstance(left, ast.Call) and getattr(left.func, "id", None) == "type" and left.args \
                    and isinstance(left.args[0], ast.Name) and left.args[0].id in RECORD_NAMES:
                out.append(f"line {node.lineno}: {ast.unparse(node)}")
    return out


def buffer_writes(tree) -> list[str]:
    """Every use of the trace's buffer (``_events``)."""
    return [f"line {node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "_events"]


def test_no_module_but_the_trace_touches_its_buffer():
    found = {str(p.relative_to(PACKAGE)): hits for p in _sources() if (hits := buffer_writes(ast.parse(p.read_text())))}
    assert found == {}


def test_the_c_twin_appends_through_the_slot_trace_append_writes():
    """``_fastpath.c`` does ``Trace.append`` in C: the one slot it names is the trace's list."""
    source = (PACKAGE / "runtime" / "_fastpath.c").read_text()
    assert source.count('"_events"') == 1 and '{"_events", &r_events}' in source


def test_no_module_reads_a_record_by_position():
    found = {str(p.relative_to(PACKAGE)): hits for p in _sources()
             if (hits := positional_reads(ast.parse(p.read_text())))}
    assert found == {}


@pytest.mark.parametrize("line", ["x = record[1]", "op = e[1:6]", "last = head[-1]",
                                  "ok = type(e) is tuple"])
def test_the_scan_finds_a_positional_read(line):
    tree = ast.parse(f"from devtrace.trace.events import OpRecord\n{line}\n")
    assert positional_reads(tree) and not buffer_writes(tree)
    assert buffer_writes(ast.parse("ctx.trace._events.append(record)\n"))


# ---- at run time: every way an op is recorded, read only by name --------------------------------------

needs_c = pytest.mark.skipif(FASTPATH is None, reason="the C module is not in use here")


class PositionalRead(AssertionError):
    pass


@contextmanager
def records_read_by_name_only():
    """``OpRecord``'s ``__getitem__`` and ``__iter__`` refuse callers outside the record type (its
    module and namedtuple's own methods): a record read by position anywhere else fails."""
    allowed = {ev.__name__, collections.__name__, __name__}
    getitem, iterate = tuple.__getitem__, tuple.__iter__

    def check():
        caller = sys._getframe(2).f_globals.get("__name__")
        if caller not in allowed:
            raise PositionalRead(f"{caller} read an OpRecord by position")

    def guarded_getitem(self, index):
        check()
        return getitem(self, index)

    def guarded_iter(self):
        check()
        return iterate(self)

    ev.OpRecord.__getitem__, ev.OpRecord.__iter__ = guarded_getitem, guarded_iter
    try:
        yield
    finally:
        del ev.OpRecord.__getitem__, ev.OpRecord.__iter__


def _program(execute_binary, ctx, made: list):
    """Eager ops (the hot path, its ways out, a kernel's error, an OOM), a session's graph and a
    tf.function; the errors' texts. ``made``: the records as the step made them (a session reads
    the trace's events when it starts: those before are ``OpPlaced`` from then on)."""
    errors = []
    with tf.device("/CPU:0"):
        x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
        for _ in range(3):
            x = tf.add(x, x)
        tf.reduce_sum(x)
        for op_name in ("FastpathValueError", "FastpathVariant", "FastpathNoOutput", "FastpathTwoOutputs"):
            for _ in range(2):  # the second call finds its placement cached
                try:
                    execute_binary(op_name, x, x)
                except tf.errors.InvalidArgumentError as e:
                    errors.append(str(e))
    with tf.device("/GPU:0"):
        g = tf.constant(np.ones(1 << 16, np.float32))
        held = []
        try:
            for _ in range(8):
                held.append(tf.add(g, g))
        except tf.errors.ResourceExhaustedError as e:
            errors.append(str(e).splitlines()[0])
        del held
    made.extend(ctx.trace._events)
    graph = tf.Graph()
    with graph.as_default():
        a = tf.constant([1.0, 2.0])
        b = tf.add(a, a)
        c = tf.multiply(b, a)
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(c)
        session.run(c)

    @tf.function
    def f(v):
        return tf.add(v, v) * 2.0

    with tf.device("/CPU:0"):
        f(tf.constant([1.0]))
        tf.add(x, x)
        tf.add(x, x)
    made.extend(ctx.trace._events[len(made):])
    return errors


def _run(impl, stream=None) -> tuple[list, list, list]:
    """``_program`` on a fresh runtime with either hot path: its errors, the trace's records as the
    step made them (``OpRecord`` or ``OpPlaced``) and as ``Trace.events`` reads them."""
    with extra_ops(), using(IMPLEMENTATIONS[impl]) as execute_binary, collector_paused():
        ctx = fresh_runtime()
        ctx.trace.stream = stream
        made = []
        errors = _program(execute_binary, ctx, made)
        if stream is not None:  # the records written as they are (an OpRecord from its fields)
            ctx.trace.flush(final=True)
            stream.close(0)
        read = [e for e in ev.Trace.events.fget(_holding(made)) if type(e) is ev.OpPlaced]
    return errors, made, read


def _holding(records):
    trace = ev.Trace()
    for record in records:
        trace.append(record)
    return trace


@pytest.mark.parametrize("impl", EACH)
def test_every_op_is_recorded_as_an_op_record_and_read_by_name(impl, tmp_path):
    stream = jsonl.Stream(str(tmp_path / "t.jsonl"))
    with records_read_by_name_only():
        errors, made, read = _run(impl, stream)
    records = [r for r in made if type(r) is ev.OpRecord]
    assert {r.op for r in records} >= {"AddV2", "FastpathValueError", "FastpathVariant", "FastpathTwoOutputs", "Mul"}
    assert {r.op for r in records[-5:]} == {"AddV2", "Mul", "Identity", "Const"}  # those the stream writes as records (a function's Const too)
    assert any(not gc.is_tracked(r) for r in records) == (impl == "C")  # the C side's are untracked when made
    assert "kernel says no" in errors[0]
    assert "}} OOM when allocating tensor with shape[65536] and type float" in errors[-1]
    assert not any(type(e) is ev.OpRecord for e in read) and len(read) == sum(e.kind == "op_placed" for e in made)
    lines = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    placed = [line for line in lines if line["event"] == "op_placed" and line["seq"]]
    assert placed == [json.loads(json.dumps(ev.to_dict(e) | {"schema": 1})) for e in read if e.seq]


def test_the_limiter_counts_records_by_name():
    ops = ((1, "AddV2", ev.DEFAULT), (2, "MatMul", ev.FALLBACK), (3, "MatMul", ev.FALLBACK))
    records = [ev.OpRecord(seq, op, None, "", "/device:CPU:0", reason, (seq - 1,), (2,), "float32", 5, 64)
               for seq, op, reason in ops]
    limiter = Limiter(1)
    with records_read_by_name_only():
        kept = limiter.filter(records)
    assert kept == records[:1]
    assert limiter.record() == ev.TraceLimited(1, 2, [["MatMul", "/device:CPU:0", 2, 2]], 0, 0, 0)


@needs_c
def test_the_c_hot_path_records_what_the_python_step_records():
    c, python = _run("C"), _run("Python")

    def plain(read):  # times left out, and the function's number (each run traces it again)
        return [(e.seq, re.sub(r"_\d+$", "", e.op), e.node, e.device, e.reason, list(e.inputs), e.shape, e.dtype,
                 e.mem_in_use) for e in read]
    assert c[0] == python[0] and plain(c[2]) == plain(python[2])
    assert sum(type(r) is ev.OpRecord and r.op == "AddV2" for r in c[1]) >= 3


# ---- the C side takes the layout from the declaration -----------------------------------------------


def _configure(record_type):
    FASTPATH.configure(**dict(executor.configuration(), OpRecord=record_type))


@needs_c
def test_the_c_side_fills_each_field_where_the_declaration_puts_it():
    names = list(reversed(ev.OpRecord._fields))
    reordered = type("Reordered", (namedtuple("Reordered", names, defaults=[None] * len(names)),),
                     {"__slots__": ()})
    try:
        _configure(reordered)
        ctx = fresh_runtime()
        with tf.device("/CPU:0"):
            x = tf.constant(np.ones((2, 2), np.float32))
            tf.add(x, x)  # placed
            out = FASTPATH.execute_binary("AddV2", x, x)
        record = ctx.trace._events[-1]
        assert type(record) is reordered
        assert (record.op, record.inputs, record.shape, record.dtype, record.mem_in_use) == (
            "AddV2", (x._seq, x._seq), (2, 2), "float32", ctx.host.allocator.bytes_in_use)
        assert record.seq == ctx.trace._seq == out._seq and record.duration_ns > 0 and not gc.is_tracked(record)
    finally:
        executor._accelerated()


@needs_c
@pytest.mark.parametrize("names, message", [
    (["seq", "op", "node", "requested", "device", "reason", "inputs", "shape", "dtype", "duration_ns", "src"],
     "OpRecord has no field mem_in_use"),
    (list(ev.OpRecord._fields) + ["extra"], "OpRecord's field 'extra' has no default"),
])
def test_configure_refuses_a_record_it_cannot_fill(names, message):
    record_type = type("R", (namedtuple("R", names),), {"__slots__": ()})
    try:
        with pytest.raises(TypeError, match=message):
            _configure(record_type)
        with pytest.raises(TypeError, match="namedtuple with __slots__"):
            _configure(type("WithDict", (ev.OpRecord,), {}))  # no __slots__ = (): a __dict__
    finally:
        executor._accelerated()
