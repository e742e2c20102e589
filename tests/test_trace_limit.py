"""``devtrace run --trace-limit N``: the trace keeps the first N executed ops, counts the rest exactly
(``trace_limited`` before ``trace_end``), and every view says the trace was limited (issue 15)."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT, devtrace
from devtrace.errors import UsageError
from devtrace.trace import events as ev
from devtrace.trace import jsonl
from devtrace.trace.limit import Limiter

GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
LOOP = """import devtrace as tf

@tf.function
def f(x):
    return tf.matmul(x, x) + 1.0

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
for _ in range(5):
    y = f(x)
with tf.device("/CPU:0"):
    z = tf.identity(y)
for _ in range({adds}):
    z = tf.add(z, y)
print(float(tf.reduce_sum(z)))
"""


def _program(tmp_path, adds=5, name="loop.py"):
    path = tmp_path / name
    path.write_text(LOOP.format(adds=adds))
    return str(path)


def _records(path):
    return [json.loads(line) for line in open(path)]


def test_the_trace_keeps_the_first_n_ops_and_counts_the_rest(tmp_path):
    prog, full, cut = _program(tmp_path), tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    assert devtrace("run", prog, "--simulate", "1", "--trace", str(full)).returncode == 0
    r = devtrace("run", prog, "--simulate", "1", "--trace", str(cut), "--trace-limit", "4")
    assert r.returncode == 0, r.stderr
    whole, limited = _records(full), _records(cut)
    executed = [r for r in whole if r["event"] == "op_placed" and r["seq"]]
    kept = [r for r in limited if r["event"] == "op_placed" and r["seq"]]
    assert [r["seq"] for r in kept] == [r["seq"] for r in executed[:4]]  # the first four, as they ran
    # a function's placement records (seq 0) are not executed ops: always kept, never counted
    assert [r for r in limited if r["event"] == "op_placed" and not r["seq"]] == \
        [r for r in whole if r["event"] == "op_placed" and not r["seq"]]
    footer, end = limited[-2], limited[-1]
    assert end["event"] == "trace_end" and end["events"] == len(limited) - 1
    left_out = executed[4:]
    copies = [r for r in whole if r["event"] == "tensor_copied"]
    calls = [r for r in whole if r["event"] == "function_call"]
    kept_calls = [r for r in limited if r["event"] == "function_call"]
    counts: dict = {}
    for r in left_out:
        counts[(r["op"], r["device"])] = counts.get((r["op"], r["device"]), 0) + 1
    assert footer == {"schema": 1, "event": "trace_limited", "limit": 4, "ops": len(left_out),
                      "op_types": [[op, device, n, 0] for (op, device), n in sorted(counts.items())],
                      "copies": len(copies), "copy_bytes": sum(c["nbytes"] for c in copies),
                      "calls": (len(calls) - len(kept_calls)) // 2}
    # the call that reached the limit is closed: its start and end are both written
    assert [c["end"] for c in kept_calls] == [False, True]
    # devices and memory figures are all there
    assert [r for r in limited if r["event"] == "memory_stats"] == [r for r in whole if r["event"] == "memory_stats"]


def test_summary_and_checks_stay_exact(tmp_path):
    prog = _program(tmp_path)
    full = devtrace("run", prog, "--simulate", "1", "--format", "summary")
    cut = devtrace("run", prog, "--simulate", "1", "--format", "summary", "--trace-limit", "3")
    assert full.returncode == cut.returncode == 0
    note = cut.stderr.splitlines()[-1]  # the summary goes where the placement log would
    assert note.startswith("trace limited to its first 3 ops (--trace-limit): ") and note.endswith("(counted above)")
    assert cut.stderr.splitlines()[:-1] == full.stderr.splitlines() and "ops: 40" in full.stderr
    # the checks count the ops past the limit: as many as without it
    checks = ("--expect", "AddV2=CPU", "--max-copies", "1")
    r = devtrace("run", prog, "--simulate", "1", "--trace-limit", "3", *checks)
    whole = devtrace("run", prog, "--simulate", "1", *checks)
    assert r.returncode == whole.returncode == 3
    counts = whole.stderr.splitlines()[0].split(" ran elsewhere: ")[0]
    assert counts.startswith("Check failed: --expect AddV2=CPU: ")
    assert r.stderr.splitlines()[0].startswith(counts + " ran elsewhere: #0 on GPU:0 (default) and ")
    assert r.stderr.splitlines()[1:] == whole.stderr.splitlines()[1:] == [
        "Check failed: --max-copies 1: 2 copies (32 bytes)", "Error: 2 checks failed"]


def test_table_and_timeline_say_the_trace_was_limited(tmp_path):
    prog, cut = _program(tmp_path), tmp_path / "cut.jsonl"
    r = devtrace("run", prog, "--simulate", "1", "--format", "table", "--trace-limit", "2", "--trace", str(cut))
    lines = r.stderr.splitlines()
    seqs = [int(line.split()[0]) for line in lines if line.strip()[:1].isdigit()]
    assert [s for s in seqs if s] == [1, 2]  # and the function's placement (seq 0)
    assert lines[-1].startswith("trace limited to its first 2 ops (--trace-limit): ")
    out = tmp_path / "t.json"
    assert devtrace("timeline", str(cut), "-o", str(out)).returncode == 0
    meta = json.loads(out.read_text())["otherData"]
    full = _records(cut)[-2]
    assert meta["limited"] == f"trace limited to its first 2 ops (--trace-limit): {full['ops']} more not recorded"
    assert meta["ops"] == len([r for r in _records(cut) if r["event"] == "op_placed"]) + full["ops"]


def test_diff_of_limited_traces_compares_the_rest_by_type_and_device(tmp_path):
    prog, a, b, c = _program(tmp_path), tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    devtrace("run", prog, "--simulate", "1", "--trace", str(a), "--trace-limit", "3")
    devtrace("run", prog, "--simulate", "1", "--trace", str(b))
    devtrace("run", prog, "--trace", str(c), "--trace-limit", "3")  # no GPU: everything on the CPU
    same = devtrace("diff", str(a), str(b), "--fail-on", "moved")
    assert same.returncode == 0, same.stdout + same.stderr
    lines = same.stdout.splitlines()
    assert lines[1].startswith("A: trace limited to its first 3 ops (--trace-limit): ")
    assert "only in B: 0" in lines and "ops per type and device changed over the whole run: 0" in lines
    moved = devtrace("diff", str(a), str(c), "--fail-on", "moved", "--json")
    assert moved.returncode == 3
    obj = json.loads(moved.stdout)
    assert obj["a"]["limited"]["limit"] == 3 and obj["a"]["ops"] == obj["b"]["ops"]
    assert {"op": "AddV2", "device": CPU0, "a": 0, "b": 10} in obj["counts_changed"]  # 5 in f, 5 outside
    assert any(f.startswith("moved: ops per type and device changed") for f in obj["failures"])


@pytest.mark.parametrize("value", ["0", "-3", "1.5", "abc", "", "1e3", "\uff13"])
def test_bad_limits_are_one_line_and_exit_2(tmp_path, value):
    r = devtrace("run", _program(tmp_path), "--trace-limit", value)
    assert r.returncode == 2
    assert r.stderr == (f"Error: --trace-limit {value}: expected a whole number of ops, at least 1 "
                        f"(e.g. --trace-limit 100000 keeps the first 100000 ops)\n")


def test_limiter_closes_calls_and_keeps_non_op_records():
    limiter = Limiter(1)
    events = [ev.TraceStart(), ev.OpRecord(1, "AddV2", None, "", GPU0, ev.DEFAULT, []),
              ev.FunctionCall("__inference_f_1", 1), ev.OpRecord(2, "MatMul", None, "", CPU0, ev.FALLBACK, []),
              ev.TensorCopied(2, "MatMul", 0, GPU0, CPU0, 16), ev.FunctionCall("__inference_f_1", 1, True, 1),
              ev.Message("WARNING", "w"), ev.SessionRun(1, 1), ev.OpPlaced(3, "Neg", None, "", GPU0, ev.DEFAULT),
              ev.SessionRun(1, 1, True, 1)]
    kept = limiter.filter(events)
    assert kept == events[:2] + [events[6]]
    assert limiter.record() == ev.TraceLimited(1, 2, [["MatMul", CPU0, 1, 1], ["Neg", GPU0, 1, 0]], 1, 16, 2)
    assert Limiter(5).record() is None


def test_a_malformed_trace_limited_record_is_a_usage_error(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"schema": 1, "event": "trace_start"}\n'
                    '{"schema": 1, "event": "trace_limited", "limit": 1, "ops": 1, "op_types": [["A", 1]]}\n')
    with pytest.raises(UsageError, match=r"bad.jsonl:2: invalid trace_limited event \(field 'op_types' must hold"):
        list(jsonl.iter_read(path))


def test_bash_completion_offers_the_flag():
    import os
    import subprocess
    import sys

    env = dict(os.environ, _DEVTRACE_COMPLETE="complete_bash", COMP_WORDS="devtrace run --trace-l", COMP_CWORD="2")
    done = subprocess.run([sys.executable, "-m", "devtrace"], env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.split() == ["--trace-limit"]
