"""Ops run from threads: one run, one trace (one trace_start, one trace_end, every op once, unique
seqs in one order, whole JSON lines), TensorFlow's per-thread device scopes, whole placement-log
lines, and a signal while threads run ending with its status and a complete trace
(``runtime/threads.py``)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import FIXTURES, ROOT, devtrace

PROGRAMS = os.path.join(FIXTURES, "threads")


def _simulated(n="2"):
    from devtrace.devices import simulated
    from devtrace.devices.physical import CPUInfo, Machine
    from devtrace.runtime.context import reset_context

    gpus = tuple(simulated.parse_simulate(n))
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated"), env={})
    ctx.ensure_initialized("test")
    return ctx


def _records(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]  # every line whole JSON


def test_threads_write_one_trace_with_every_op_once(tmp_path):
    n = 300
    trace = tmp_path / "t.jsonl"
    done = devtrace("run", os.path.join(PROGRAMS, "threaded_ops.py"), str(n), "--simulate", "2",
                    "--trace", str(trace))
    assert done.returncode == 0, done.stderr
    # values right, and each thread's tf.device scope its own (the main thread's GPU:1 not inherited)
    assert done.stdout.splitlines() == [
        f"{i} [{1.0 + n}, {float(i + n)}] /job:localhost/replica:0/task:0/device:GPU:{i % 2}" for i in range(8)]
    records = _records(trace)
    kinds = [r["event"] for r in records]
    assert kinds.count("trace_start") == 1 and kinds[0] == "trace_start"
    assert kinds.count("trace_end") == 1 and kinds[-1] == "trace_end"
    assert records[-1]["status"] == 0 and records[-1]["events"] == len(records) - 1
    ops = [r for r in records if r["event"] == "op_placed"]
    adds = [r for r in ops if r["op"] == "AddV2"]
    assert len(adds) == 8 * n
    seqs = [r["seq"] for r in ops]
    assert len(set(seqs)) == len(seqs) and seqs == sorted(seqs)  # one order: seq as written
    by_device = {d: sum(1 for r in adds if r["device"].endswith(d)) for d in ("GPU:0", "GPU:1")}
    assert by_device == {"GPU:0": 4 * n, "GPU:1": 4 * n}
    # each op's inputs were made before it, on its own thread's chain
    assert all(0 < r["inputs"][0] < r["seq"] for r in adds)
    # each op line names its thread (numbered from 1 as they first ran an op; the main thread is 0 and
    # not written), agreeing with the thread records before it; each thread's chain of 300 adds is its own
    current, names, per_thread = 0, {}, {}
    for r in records:
        if r["event"] == "thread":
            current = r["thread"]
            names[current] = r["name"]
        elif r["event"] == "op_placed":
            assert r.get("thread", 0) == current
            if r["op"] == "AddV2":
                per_thread.setdefault(current, []).append(r)
    assert sorted(per_thread) == list(range(1, 9))
    assert all(len(rs) == n for rs in per_thread.values())
    assert all(re.fullmatch(r"Thread-\d+ \(work\)", names[t]) for t in per_thread)
    for rs in per_thread.values():  # one thread's adds: each reads the one before it
        assert all(b["inputs"][0] == a["seq"] for a, b in zip(rs, rs[1:]))
    # the views say which thread ran what: the timeline's metadata and each op's args
    done = devtrace("timeline", str(trace))
    assert done.returncode == 0, done.stderr
    timeline = json.loads(done.stdout)
    meta = timeline["metadata"]["devtrace"] if "metadata" in timeline else timeline["otherData"]
    threads = {t["name"]: t["ops"] for t in meta["threads"]}
    assert "MainThread" not in threads  # it ran no op here
    assert threads == {names[t]: sum(1 for r in ops if r.get("thread") == t) for t in per_thread}
    drawn = [e for e in timeline["traceEvents"] if e.get("cat") == "op" and e["name"] == "AddV2"]
    assert {e["args"]["thread"] for e in drawn} == {names[t] for t in per_thread}


def test_the_summary_counts_each_threads_ops():
    done = devtrace("run", os.path.join(PROGRAMS, "threaded_ops.py"), "20", "--simulate", "2", "--format", "summary")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("threads: "))  # the report: on stderr
    # each worker: its constant and 20 adds, and the first on each GPU the shared 1.0; the main thread none
    assert re.fullmatch(r"threads: 8 \(ops:( Thread-\d+ \(work\) 2[12],){7} Thread-\d+ \(work\) 2[12]\)", line), line
    counts = sorted(int(n) for n in re.findall(r"\) (\d+)", line))
    assert counts == [21] * 6 + [22] * 2


def test_main_returning_first_still_traces_its_threads_ops(tmp_path):
    trace = tmp_path / "t.jsonl"
    done = devtrace("run", os.path.join(PROGRAMS, "left_running.py"), "--simulate", "1", "--trace", str(trace))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["done 500.0"] * 3
    records = _records(trace)
    assert sum(1 for r in records if r.get("op") == "AddV2") == 1500
    assert records[-1]["event"] == "trace_end" and records[-1]["status"] == 0


def test_device_scopes_are_per_thread():
    """TensorFlow's device scope is thread-local: a scope in one thread does not apply in another,
    and a new thread starts with none (runs on GPU:0, the default), whatever the starting thread's."""
    import devtrace as tf

    _simulated()
    seen = {}
    entered, leave = threading.Event(), threading.Event()

    def unscoped():
        seen["unscoped"] = (tf.constant([1.0]) + 1.0).device

    def scoped():
        with tf.device("/GPU:1"):
            entered.set()
            leave.wait(10)
            seen["scoped"] = (tf.constant([1.0]) * 2.0).device

    with tf.device("/GPU:1"):
        t = threading.Thread(target=unscoped)
        t.start()
        t.join()
        seen["main scoped"] = (tf.constant([1.0]) - 1.0).device
    t = threading.Thread(target=scoped)
    t.start()
    entered.wait(10)
    seen["main while thread scoped"] = (tf.constant([1.0]) + 3.0).device  # the thread's scope is not main's
    leave.set()
    t.join()
    gpu = "/job:localhost/replica:0/task:0/device:GPU:"
    assert seen == {"unscoped": gpu + "0", "main scoped": gpu + "1", "scoped": gpu + "1",
                    "main while thread scoped": gpu + "0"}


def test_gradient_tapes_are_per_thread():
    """A tape records the ops of the thread that opened it (TensorFlow's tapes are thread-local)."""
    import devtrace as tf

    _simulated("1")
    x = tf.constant(3.0)
    opened, go = threading.Event(), threading.Event()
    result = {}

    def other():
        opened.wait(10)
        result["other"] = float(x * x)  # runs while main's tape is open: not recorded on it
        go.set()

    t = threading.Thread(target=other)
    t.start()
    with tf.GradientTape() as tape:
        tape.watch(x)
        opened.set()
        go.wait(10)
        y = x * x * x
    t.join()
    assert result["other"] == 9.0
    assert float(tape.gradient(y, x)) == 27.0


def test_values_and_memory_right_from_a_thread_pool():
    """Ops from a pool on two simulated GPUs: every value right, every op once in the trace, and
    each device's memory back to what it held before once the pool's tensors are gone."""
    from concurrent.futures import ThreadPoolExecutor

    import devtrace as tf

    ctx = _simulated()

    def work(i):
        with tf.device(f"/GPU:{i % 2}"):
            x = tf.fill([64], float(i))
            for _ in range(200):
                x = x + 1.0
            return float(tf.reduce_sum(x))

    import gc

    assert [work(0), work(1)] == [64.0 * 200, 64.0 * 201]  # the cached scalars made, in this thread
    gc.collect()
    before = [d.allocator.bytes_in_use for d in ctx.devices]
    start = ctx.trace._seq

    with ThreadPoolExecutor(8) as pool:
        totals = list(pool.map(work, range(16)))
    assert totals == [64.0 * (i + 200) for i in range(16)]
    ops = [e for e in ctx.trace.events if getattr(e, "seq", 0) > start and e.kind == "op_placed"]
    seqs = [e.seq for e in ops]
    assert len(seqs) == len(set(seqs)) == ctx.trace._seq - start
    assert sum(1 for e in ops if e.op == "AddV2") == 16 * 200
    gc.collect()
    assert [d.allocator.bytes_in_use for d in ctx.devices] == before


def test_placement_log_lines_are_whole(tmp_path):
    """With placement logging on, ops from 8 threads print whole lines, one per op: none cut by
    another thread's (TensorFlow logs each op's placement as one line)."""
    n = 50
    code = (
        "import threading, tensorflow as tf\n"
        "tf.debugging.set_log_device_placement(True)\n"
        "def work(i):\n"
        "    with tf.device(f'/GPU:{i % 2}'):\n"
        "        x = tf.constant([1.0])\n"
        f"        for _ in range({n}):\n"
        "            x = x + 1.0\n"
        "ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n")
    program = str(tmp_path / "logged.py")
    with open(program, "w") as f:
        f.write(code)
    done = devtrace("run", program, "--simulate", "2")
    assert done.returncode == 0, done.stderr
    executing = [line for line in done.stderr.splitlines() if "Executing op" in line]
    for line in executing:
        assert re.fullmatch(r"Executing op (AddV2|_EagerConst) in device "
                            r"/job:localhost/replica:0/task:0/device:GPU:[01]", line), line
    adds = [line for line in executing if "AddV2" in line]
    assert len(adds) == 8 * n and sum(line.endswith("GPU:0") for line in adds) == 4 * n
    assert sum("_EagerConst" in line for line in executing) >= 8  # (a cached scalar two threads made at once: twice)


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_while_threads_run_ops_ends_the_run_with_a_complete_trace(tmp_path, sig, status):
    trace = tmp_path / "t.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVTRACE_")}
    env.update({"DEVTRACE_NVML": "0", "PYTHONIOENCODING": "utf-8"})
    proc = subprocess.Popen([sys.executable, "-m", "devtrace", "run", os.path.join(PROGRAMS, "endless.py"),
                             "--simulate", "2", "--trace", str(trace)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert proc.stdout.readline() == "started\n"
        time.sleep(0.2)  # the threads run ops (and flush batches) meanwhile
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == status, err
    assert "Traceback" not in err
    records = _records(trace)
    kinds = [r["event"] for r in records]
    assert kinds.count("trace_start") == 1 and kinds.count("trace_end") == 1
    assert records[-1] == {"schema": 1, "event": "trace_end", "status": status, "events": len(records) - 1}
    seqs = [r["seq"] for r in records if r["event"] == "op_placed"]
    assert len(seqs) > 400 and len(set(seqs)) == len(seqs)
