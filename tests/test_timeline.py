"""The timeline (Trace Event Format) and the HTML report (issue 17).

The format's fields are those of Google's "Trace Event Format" document: every event has
``ph``, ``pid`` and ``ts`` (µs); complete events (``X``) have ``dur``, ``tid``, ``name`` and
``args``; metadata events (``M``) name processes and threads; flow events (``s``/``f``) share an
``id`` and bind to the enclosing slice (``bp: "e"`` on the finish); counters (``C``) carry numeric
series in ``args``; instants (``i``) have a scope ``s``.
"""

import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, devtrace, program
from devtrace.trace import events as ev
from devtrace.trace import jsonl, render_html, render_timeline, timeline

GPU = "/job:localhost/replica:0/task:0/device:GPU:"
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
PHASES = {"M", "X", "s", "f", "C", "i"}


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_fields(doc):
    """Every event has the fields its phase requires, with the documented types."""
    assert set(doc) >= {"traceEvents", "displayTimeUnit", "otherData"}
    for e in doc["traceEvents"]:
        ph = e["ph"]
        assert ph in PHASES, e
        assert isinstance(e["pid"], int) and isinstance(e["name"], str), e
        if ph == "M":
            assert e["name"] in ("process_name", "process_sort_index", "thread_name", "thread_sort_index")
            assert isinstance(e["args"], dict) and isinstance(e["tid"], int)
            continue
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
        if ph == "X":
            assert isinstance(e["tid"], int) and isinstance(e["args"], dict)
            assert isinstance(e["dur"], (int, float)) and e["dur"] > 0, e
        elif ph in ("s", "f"):
            assert isinstance(e["id"], int) and isinstance(e["tid"], int) and e["cat"] == "copy"
            if ph == "f":
                assert e["bp"] == "e"
        elif ph == "C":
            assert e["args"] and all(isinstance(v, (int, float)) for v in e["args"].values()), e
        elif ph == "i":
            assert e["s"] in ("t", "p", "g")


def names(doc):
    """(process names by pid, {thread name: (pid, tid)})."""
    procs, threads = {}, {}
    for e in doc["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            threads[e["args"]["name"]] = (e["pid"], e["tid"])
    return procs, threads


def enclosing(slices, e):
    """The complete events on e's track whose [ts, ts + dur] contains e's ts."""
    return [x for x in slices if (x["pid"], x["tid"]) == (e["pid"], e["tid"])
            and x["ts"] <= e["ts"] <= x["ts"] + x["dur"]]


@pytest.fixture(scope="module")
def multi_tower(tmp_path_factory):
    out = tmp_path_factory.mktemp("tl") / "run.trace.json"
    r = devtrace("run", program("multi_tower.py"), "--simulate", "4", "--format", "timeline", "-o", str(out))
    assert r.returncode == 0, r.stderr
    return load(out)


def test_multi_tower_tracks(multi_tower):
    check_fields(multi_tower)
    procs, threads = names(multi_tower)
    assert set(threads) == {"CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"}
    assert procs[threads["CPU:0"][0]] == "host"
    for i in range(4):  # one physical GPU each: a process per card
        assert procs[threads[f"GPU:{i}"][0]].startswith(f"GPU {i} (physical)")
    assert len({pid for pid, _ in threads.values()}) == 5
    assert len({tid for _, tid in threads.values()}) == 5


def test_multi_tower_ops(multi_tower):
    _, threads = names(multi_tower)
    track = {v: k for k, v in threads.items()}
    ops = [e for e in multi_tower["traceEvents"] if e["ph"] == "X" and e["cat"] == "op"]
    assert [e["args"]["seq"] for e in ops] == list(range(1, 14))
    assert sorted(e["name"] for e in ops) == ["AddN"] + ["MatMul"] * 4 + ["_EagerConst"] * 8
    for e in ops:
        assert set(e["args"]) >= {"seq", "node", "requested", "device", "reason", "shape", "dtype", "bytes"}
        assert track[(e["pid"], e["tid"])] == e["args"]["device"].rsplit("device:", 1)[1]
        assert e["args"]["reason"] == "explicit"
    matmuls = [e for e in ops if e["name"] == "MatMul"]
    assert [track[(e["pid"], e["tid"])] for e in matmuls] == ["GPU:0", "GPU:1", "GPU:2", "GPU:3"]
    assert all(e["args"]["shape"] == [2, 2] and e["args"]["dtype"] == "float32" and e["args"]["bytes"] == 16
               for e in matmuls)
    assert all(e["args"]["duration_ns"] > 0 for e in matmuls)  # measured kernel times
    addn = next(e for e in ops if e["name"] == "AddN")
    assert track[(addn["pid"], addn["tid"])] == "CPU:0" and addn["args"]["inputs"] == [3, 6, 9, 12]
    # the host runs ops one after another: no two ops overlap, in seq order
    for a, b in zip(ops, ops[1:]):
        assert a["ts"] + a["dur"] <= b["ts"] + 1e-6


def test_multi_tower_copies_and_flows(multi_tower):
    _, threads = names(multi_tower)
    events = multi_tower["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    copies = [e for e in slices if e["cat"] == "copy"]
    assert len(copies) == 4
    assert all(e["name"] == "MemcpyDtoH" and e["args"]["bytes"] == 16 and (e["pid"], e["tid"]) == threads["CPU:0"]
               for e in copies)
    assert sorted(e["args"]["src"] for e in copies) == [GPU + str(i) for i in range(4)]
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert len(starts) == 4 and set(starts) == set(ends)
    producers = set()
    for fid, s in starts.items():
        f = ends[fid]
        assert s["name"] == f["name"] == f"16 B {s['name'].split()[2]} → CPU:0"
        (p,) = enclosing(slices, s)  # the arrow starts on the MatMul that produced the tensor ...
        assert p["name"] == "MatMul"
        producers.add(p["args"]["seq"])
        (c,) = enclosing(slices, f)  # ... and ends on the AddN that needed it
        assert c["name"] == "AddN" and f["ts"] > s["ts"]
        assert any(x["args"]["producer_seq"] == p["args"]["seq"] and x["ts"] + x["dur"] <= c["ts"] + 1e-6
                   for x in copies)  # the copy sits on the destination track before its consumer
    assert producers == {3, 6, 9, 12}


def test_multi_tower_counters(multi_tower):
    counters = [e for e in multi_tower["traceEvents"] if e["ph"] == "C" and e["name"].startswith("memory ")]
    by_name = {}
    for e in counters:
        by_name.setdefault(e["name"], []).append(e)
    assert set(by_name) == {"memory CPU:0"} | {f"memory GPU:{i}" for i in range(4)}
    for i in range(4):
        series = by_name[f"memory GPU:{i}"]
        assert all(e["args"]["limit"] == 15569256448 for e in series)
        assert series[0]["args"]["reserved"] == 0 and series[-1]["args"]["reserved"] == 15569256448
        assert series[-1]["args"]["peak"] == 768
        assert [e["ts"] for e in series] == sorted(e["ts"] for e in series)
    assert by_name["memory GPU:0"][-1]["args"]["in_use"] == 256
    assert "limit" not in by_name["memory CPU:0"][-1]["args"]  # host memory has no limit
    assert by_name["memory CPU:0"][-1]["args"]["in_use"] == 16
    copied = [e for e in multi_tower["traceEvents"] if e["ph"] == "C" and e["name"] == "copied in CPU:0"]
    assert [e["args"] for e in copied] == [{"copies": n, "bytes": 16 * n} for n in range(1, 5)]


def test_multi_tower_metadata(multi_tower):
    m = multi_tower["otherData"]
    assert m["program"].endswith("multi_tower.py") and m["backend"] == "simulated" and m["layout"] == "measured"
    assert (m["ops"], m["ops_written"], m["copies"], m["copies_written"], m["copy_bytes"]) == (13, 13, 4, 4, 64)
    assert m["sampled"] is False and "every op" in m["sampling"]
    assert "simulated GPUs too" in m["time"]
    assert [d["short"] for d in m["devices"]] == ["CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"]


def test_sequence_layout_gives_every_op_and_copy_one_unit(tmp_path):
    out = tmp_path / "seq.json"
    r = devtrace("run", program("multi_tower.py"), "--simulate", "4", "--format", "timeline", "-o", str(out),
                 "--layout", "sequence")
    assert r.returncode == 0, r.stderr
    doc = load(out)
    check_fields(doc)
    slices = sorted((e for e in doc["traceEvents"] if e["ph"] == "X"), key=lambda e: e["ts"])
    assert [e["ts"] for e in slices] == list(range(17)) and all(e["dur"] == 1 for e in slices)
    assert doc["otherData"]["layout"] == "sequence"


def test_virtual_gpus_share_their_physical_gpu(tmp_path):
    out = tmp_path / "v.json"
    r = devtrace("run", program("virtual_gpus.py"), "--simulate", "1", "--format", "timeline", "-o", str(out))
    assert r.returncode == 0, r.stderr
    doc = load(out)
    procs, threads = names(doc)
    assert threads["GPU:0"][0] == threads["GPU:1"][0] != threads["CPU:0"][0]
    assert procs[threads["GPU:0"][0]].startswith("GPU 0 (physical)")
    (copy,) = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "copy"]
    assert copy["name"] == "MemcpyDtoD" and (copy["pid"], copy["tid"]) == threads["GPU:1"]


def test_oom_is_an_instant_with_the_live_allocations(tmp_path):
    out = tmp_path / "oom.json"
    r = devtrace("run", program("oom.py"), "--simulate", "1", "--limit", "64", "--format", "timeline", "-o", str(out))
    assert r.returncode == 1  # the program failed; the timeline is written anyway
    doc = load(out)
    check_fields(doc)
    (oom,) = [e for e in doc["traceEvents"] if e["ph"] == "i" and e["cat"] == "oom"]
    assert oom["args"]["op"] == "Square" and oom["args"]["bytes"] == 16 << 20
    assert oom["args"]["live_bytes"] == 64 << 20 and len(oom["args"]["live"]) == 4
    _, threads = names(doc)
    assert (oom["pid"], oom["tid"]) == threads["GPU:0"]


def test_tf1_session_encloses_its_ops_and_graph_copies_have_arrows(tmp_path):
    out = tmp_path / "tf1.json"
    r = devtrace("run", program("tf1_multi_tower.py"), "--simulate", "4", "--format", "timeline", "-o", str(out))
    assert r.returncode == 0, r.stderr
    doc = load(out)
    check_fields(doc)
    events = doc["traceEvents"]
    (session,) = [e for e in events if e["ph"] == "X" and e["cat"] == "session"]
    inner = [e for e in events if e["ph"] == "X" and e["cat"] in ("op", "copy")]
    assert len(inner) == 9 and session["args"]["ops"] == 7
    assert all(session["ts"] <= e["ts"] and e["ts"] + e["dur"] <= session["ts"] + session["dur"] + 1e-6
               for e in inner)
    slices = [e for e in events if e["ph"] == "X"]
    for s in (e for e in events if e["ph"] == "s"):
        (p,) = enclosing(slices, s)
        assert p["name"] == "MatMul"
        (f,) = [e for e in events if e["ph"] == "f" and e["id"] == s["id"]]
        (c,) = enclosing(slices, f)
        assert c["cat"] == "copy"


def test_tf_function_calls_are_slices_around_their_nodes(tmp_path):
    out = tmp_path / "fn.json"
    r = devtrace("run", program("train_function_gpu1.py"), "--simulate", "2", "--format", "timeline", "-o", str(out))
    assert r.returncode == 0, r.stderr
    doc = load(out)
    check_fields(doc)
    events = doc["traceEvents"]
    calls = [e for e in events if e["ph"] == "X" and e["cat"] == "function_call"]
    assert [c["args"]["call"] for c in calls] == [1, 2, 3]
    assert all(c["name"] == f"{c['args']['function']} #{c['args']['call']}" for c in calls)
    assert {c["args"]["function"] for c in calls} == {calls[0]["args"]["function"]}
    assert calls[0]["args"]["function"].startswith("__inference_train_step_")
    ops = [e for e in events if e["ph"] == "X" and e["cat"] == "op" and e["name"] == "MatMul"]
    for call in calls:
        inside = [e for e in ops if call["ts"] <= e["ts"] and e["ts"] + e["dur"] <= call["ts"] + call["dur"] + 1e-6]
        assert len(inside) == 2  # the forward MatMul and its gradient for w (x needs none)
    names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert "tf.function" in names


def test_timeline_of_an_imported_tensorflow_log(tmp_path):
    trace = tmp_path / "imp.jsonl"
    r = devtrace("import", os.path.join(ROOT, "fixtures", "tflogs", "tf1_multitower_003.log"), "--format", "jsonl",
                 "-o", str(trace))
    assert r.returncode == 0, r.stderr
    out = tmp_path / "imp.json"
    r = devtrace("timeline", str(trace), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr.startswith(f"Wrote timeline {out}: 7 ops on")
    doc = load(out)
    check_fields(doc)
    ops = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "op"]
    assert len(ops) == 7 and all(e["args"]["reason"] == "imported" for e in ops)
    assert doc["otherData"]["source"] == "tensorflow-log"


# -- streaming and sampling ---------------------------------------------------------------------

def synthetic(n, copy_every=10):
    """A trace of n ops alternating GPU:0 / GPU:1, every copy_every-th op reading the other GPU."""
    yield ev.TraceStart("eager", "devtrace", "synthetic.py", "simulated")
    yield ev.DeviceCreated(CPU0, "CPU")
    for i in range(2):
        yield ev.DeviceCreated(GPU + str(i), "GPU", i, 1 << 30, f"device: {i}, name: Fake", True)
    for seq in range(1, n + 1):
        dev = GPU + str(seq % 2)
        if seq > 1 and seq % copy_every == 0:
            yield ev.TensorCopied(seq, "AddV2", 0, GPU + str((seq - 1) % 2), dev, 4096)
            inputs = [seq - 1]
        else:
            inputs = []
        yield ev.OpPlaced(seq, "AddV2", None, "", dev, ev.DEFAULT, inputs, [32, 32], "float32", 2000)


class Recorder:
    """A file that remembers how many events had been read at each write."""

    def __init__(self, source):
        self.source, self.read, self.writes, self.parts = source, 0, [], []

    def events(self):
        for e in self.source:
            self.read += 1
            yield e

    def write(self, text):
        self.writes.append(self.read)
        self.parts.append(text)


@pytest.mark.parametrize("module", [render_timeline, render_html])
def test_writers_stream_and_sample_past_a_size(module):
    n, every = 20000, 20
    rec = Recorder(synthetic(n))
    tl = module.write(rec.events(), rec, full_ops=1000, sample_every=every)
    total = n + n // 10 + 4  # ops, copies, trace_start and three devices
    assert rec.read == total
    assert any(0 < w < total // 2 for w in rec.writes)  # output was written while events were still coming
    m = tl.meta()
    assert (m["ops"], m["copies"], m["copy_bytes"]) == (n, n // 10, n // 10 * 4096)  # exact
    assert m["sampled"] is True and f"1 op in {every}" in m["sampling"]
    sampled_ops = (n - 1000) // every
    copies_written = 100 + sum(1 for k in range(1, sampled_ops + 1) if (1000 + every * k) % 10 == 0)
    assert m["copies_written"] == copies_written
    # producers of written copies past the threshold are drawn too, once
    assert m["ops_written"] == 1000 + sampled_ops + (copies_written - 100)
    text = "".join(rec.parts)
    if module is render_timeline:
        doc = json.loads(text)
        check_fields(doc)
        assert doc["otherData"]["sampled"] is True
        ops = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "op"]
        full = sorted(e["args"]["seq"] for e in ops if "sampled" not in e["args"])
        assert full == list(range(1, 1001)) + [1000 + every * k for k in range(1, sampled_ops + 1)]
        late = [e for e in ops if "sampled" in e["args"]]
        assert sorted(e["args"]["seq"] for e in late) == [1000 + every * k - 1 for k in range(1, sampled_ops + 1)]
        assert len([e for e in doc["traceEvents"] if e["ph"] == "s"]) == copies_written
        final = {e["name"]: e["args"] for e in doc["traceEvents"] if e["ph"] == "C"}
        assert final["ops GPU:0"]["ops"] == n // 2 and final["ops GPU:1"]["ops"] == n // 2  # exact totals
        assert final["copied in GPU:0"]["copies"] + final["copied in GPU:1"]["copies"] == n // 10
        assert any(e["ph"] == "i" and e["name"].startswith("sampling") for e in doc["traceEvents"])
    else:
        assert '"sampled":true' in text and f"1 op in {every}" in text


def test_timeline_command_streams_a_trace_file_with_sampling_options(tmp_path):
    trace = tmp_path / "big.jsonl"
    jsonl.write(trace, list(synthetic(3000)))
    out = tmp_path / "big.json"
    r = devtrace("timeline", str(trace), "-o", str(out), "--full-ops", "500", "--sample-every", "100")
    assert r.returncode == 0, r.stderr
    assert "sampled: 550 of 3000 ops drawn" in r.stderr  # 500, 1 in 100 of the rest, and their copies' producers
    m = load(out)["otherData"]
    assert (m["ops"], m["ops_written"], m["sampled"]) == (3000, 550, True)


# -- bad input ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def trace_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("trace") / "mt.jsonl"
    r = devtrace("run", program("multi_tower.py"), "--simulate", "4", "--trace", str(path))
    assert r.returncode == 0
    return path


@pytest.mark.parametrize("command", ["timeline", "report"])
@pytest.mark.parametrize("content, message", [
    ("", "empty file, not a devtrace trace"),
    ("# devtrace\nhello\n", ":1: not a devtrace trace (line is not JSON)"),
    ('{"schema": 1, "event": "trace_start", "mode": "eager"}\n', "empty trace (no devices and no ops to draw)"),
])
def test_bad_traces_exit_2_with_one_line_and_no_file(tmp_path, command, content, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    out = tmp_path / "out"
    r = devtrace(command, str(bad), "-o", str(out))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("Error: ") and message in r.stderr
    assert os.listdir(tmp_path) == ["bad.jsonl"]


@pytest.mark.parametrize("command", ["timeline", "report"])
def test_a_bad_line_late_in_a_trace_leaves_no_half_file(tmp_path, trace_file, command):
    bad = tmp_path / "late.jsonl"
    lines = trace_file.read_text().splitlines()
    bad.write_text("\n".join(lines[:20] + ["{not json"] + lines[20:]) + "\n")
    out = tmp_path / "out.json"
    out.write_text("previous")
    r = devtrace(command, str(bad), "-o", str(out))
    assert (r.returncode, r.stderr) == (2, f"Error: {bad}:21: not a devtrace trace (line is not JSON)\n")
    assert out.read_text() == "previous" and sorted(os.listdir(tmp_path)) == ["late.jsonl", "out.json"]


@pytest.mark.parametrize("args", [["timeline", "{trace}", "-o", "{tmp}/no/such/dir/t.json"],
                                  ["report", "{trace}", "-o", "{tmp}"],
                                  ["run", "{program}", "--html", "{tmp}/no/such/dir/r.html"],
                                  ["run", "{program}", "--format", "timeline", "-o", "{tmp}"],
                                  ["run", "{program}", "-o", "{tmp}/x.json"]])
def test_unwritable_output_exits_2_with_one_line(tmp_path, trace_file, args):
    args = [a.format(trace=trace_file, tmp=tmp_path, program=program("multi_tower.py")) for a in args]
    r = devtrace(*args)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("Error: "), r.stderr
    assert r.stdout == ""  # checked before the program ran
    assert os.listdir(tmp_path) == []


def test_unwritable_directory_exits_2(tmp_path, trace_file):
    locked = tmp_path / "locked"
    locked.mkdir()
    os.chmod(locked, 0o500)
    if os.access(locked, os.W_OK):
        pytest.skip("running as root: every directory is writable")
    r = devtrace("report", str(trace_file), "-o", str(locked / "r.html"))
    assert (r.returncode, r.stderr) == (2, f"Error: --output {locked / 'r.html'}: cannot write (permission denied)\n")


def test_timeline_to_stdout(trace_file):
    r = devtrace("timeline", str(trace_file))
    assert r.returncode == 0 and r.stderr == ""
    doc = json.loads(r.stdout)
    assert doc["otherData"]["ops"] == 13


def test_timeline_modules_import_nothing_from_cli_or_runtime():
    import ast

    for name in ("timeline", "render_timeline", "render_html", "_report_app"):
        path = os.path.join(ROOT, "devtrace", "trace", f"{name}.py")
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = ("." * node.level) + (node.module or "")
            elif isinstance(node, ast.Import):
                target = " ".join(a.name for a in node.names)
            else:
                continue
            assert not re.search(r"(^\.\.(cli|runtime)\b)|devtrace\.(cli|runtime)", target), (name, target)


# -- memory at every op, Session.run calls ------------------------------------------------------

def test_memory_counters_follow_every_op(multi_tower):
    slices = [e for e in multi_tower["traceEvents"] if e["ph"] == "X" and e["cat"] == "op"]
    _, threads = names(multi_tower)
    gpu0 = [e for e in slices if (e["pid"], e["tid"]) == threads["GPU:0"]]
    series = [e for e in multi_tower["traceEvents"] if e["ph"] == "C" and e["name"] == "memory GPU:0"]
    at_ops = [e for e in series if any(abs(e["ts"] - (o["ts"] + o["dur"])) < 1e-6 for o in gpu0)]
    # in use once each op's output was accounted: two constants, then the MatMul
    assert [e["args"]["in_use"] for e in at_ops] == [256, 512, 768]
    assert [e["args"]["peak"] for e in at_ops] == [256, 512, 768]


TWO_RUNS = ("import devtrace as tf\ntf.compat.v1.disable_eager_execution()\n"
            "with tf.device('/gpu:0'):\n    a = tf.constant([1.0, 2.0])\n"
            "with tf.device('/cpu:0'):\n    b = a * 2.0\n"
            "sess = tf.compat.v1.Session()\nsess.run(b)\nsess.run(b)\nsess.run(a)\n")


def test_each_session_run_call_is_a_slice_around_what_it_did(tmp_path):
    prog = tmp_path / "two_runs.py"
    prog.write_text(TWO_RUNS)
    trace = tmp_path / "t.jsonl"
    out = tmp_path / "t.json"
    r = devtrace("run", str(prog), "--simulate", "1", "--format", "timeline", "-o", str(out), "--trace", str(trace))
    assert r.returncode == 0, r.stderr
    recorded = [e for e in jsonl.read(trace) if isinstance(e, ev.SessionRun)]
    assert [(e.session, e.index, e.end) for e in recorded] == [(1, 1, False), (1, 1, True), (1, 2, False),
                                                                (1, 2, True), (1, 3, False), (1, 3, True)]
    assert [e.ops for e in recorded if e.end] == [3, 3, 1]
    doc = load(out)
    check_fields(doc)
    _, threads = names(doc)
    events = doc["traceEvents"]
    calls = [e for e in events if e["ph"] == "X" and e["cat"] == "session_run"]
    assert [e["name"] for e in calls] == ["Session.run #1", "Session.run #2", "Session.run #3"]
    assert all((e["pid"], e["tid"]) == threads["Session.run"] for e in calls)
    assert [e["args"]["ops_executed"] for e in calls] == [3, 3, 1]
    assert [e["args"]["ops_placed"] for e in calls] == [3, 0, 0]
    for a, b in zip(calls, calls[1:]):
        assert a["ts"] + a["dur"] <= b["ts"] + 1e-6
    inside = {i: [e for e in events if e["ph"] == "X" and e["cat"] in ("op", "copy")
                  and c["ts"] <= e["ts"] and e["ts"] + e["dur"] <= c["ts"] + c["dur"] + 1e-6]
              for i, c in enumerate(calls)}
    assert sorted(e["name"] for e in inside[0]) == ["Const", "Const", "MemcpyDtoH", "Mul"]  # placed and run
    assert [e["name"] for e in inside[1]] == ["MemcpyDtoH"]  # its own copy; its nodes were placed by #1
    assert inside[2] == [] and calls[2]["dur"] > 0  # nothing new, still a visible slice
    (session,) = [e for e in events if e["ph"] == "X" and e["cat"] == "session"]
    assert all(session["ts"] <= c["ts"] and c["ts"] + c["dur"] <= session["ts"] + session["dur"] + 1e-6
               for c in calls)


def test_new_event_fields_round_trip_and_old_traces_still_read(tmp_path):
    run = ev.SessionRun(2, 5, True, 7, "InvalidArgumentError")
    assert ev.from_dict(ev.to_dict(run)) == run
    placed = ev.OpPlaced(1, "AddV2", None, "", CPU0, ev.DEFAULT, [], [2], "float32", 10, 4096)
    path = tmp_path / "t.jsonl"
    jsonl.write(path, [ev.TraceStart(), placed, run])
    assert jsonl.read(path)[1:] == [placed, run]
    old = dict(ev.to_dict(placed), schema=1)
    del old["mem_in_use"]  # a trace written before the field existed
    path.write_text(json.dumps(old) + "\n")
    (read,) = jsonl.read(path)
    assert read.mem_in_use is None and read.duration_ns == 10
