"""``devtrace diff``: matching ops across traces, what moved, copies/fallbacks/peak; trace file errors."""

from __future__ import annotations

import json

import pytest

from devtrace.errors import CheckFailed, UsageError
from devtrace.trace import diff as d
from devtrace.trace import events as ev
from devtrace.trace import jsonl

P = "/job:localhost/replica:0/task:0/device:"
CPU0 = P + "CPU:0"


def gpu(i: int) -> str:
    return f"{P}GPU:{i}"


def multitower(gpus: int) -> list:
    """Seed 000's manual multi-GPU example: per GPU two constants and a MatMul, then AddN on the CPU.

    ``gpus=0`` is the same program on a CPU-only machine with soft placement: everything on CPU:0.
    """
    events = [ev.TraceStart("eager", "devtrace", "manual.py", "simulated")]
    seq = 0
    products = []
    for g in range(4):
        device, reason = (gpu(g), ev.EXPLICIT) if gpus else (CPU0, ev.SOFT)
        a, b, seq = seq + 1, seq + 2, seq + 3
        events.append(ev.OpPlaced(a, "_EagerConst", None, gpu(g), device, reason, [], [2, 3], "float32"))
        events.append(ev.OpPlaced(b, "_EagerConst", None, gpu(g), device, reason, [], [3, 2], "float32"))
        events.append(ev.OpPlaced(seq, "MatMul", None, gpu(g), device, reason, [a, b],
                                  [2, 2], "float32"))
        products.append((seq, device))
    seq += 1
    for i, (_, device) in enumerate(products):
        if device != CPU0:
            events.append(ev.TensorCopied(seq, "AddN", i, device, CPU0, 16))
    events.append(ev.OpPlaced(seq, "AddN", None, "/CPU:0", CPU0, ev.EXPLICIT, [s for s, _ in products], [2, 2], "float32"))
    if gpus:
        for g in range(gpus):
            events.append(ev.MemoryStats(gpu(g), f"GPU_{g}_bfc", 1 << 30, 1 << 30, 768, 768, 3, 256, 1, 0, "limit"))
        events.append(ev.MemoryStats(CPU0, "cpu", None, 0, 1280, 1280, 5, 256, 0, 0, "host"))
    else:
        events.append(ev.MemoryStats(CPU0, "cpu", None, 0, 4352, 4352, 17, 256, 0, 0, "host"))
    return events


def test_four_gpus_vs_cpu_only():
    result = d.diff(multitower(4), multitower(0))
    assert result.matched == 13
    assert (result.a.ops, result.b.ops) == (13, 13)
    assert [(m.label, m.a_device, m.b_device) for m in result.moved if m.op == "MatMul"] == [
        (f"MatMul #{g}", gpu(g), CPU0) for g in range(4)]
    assert len(result.moved) == 12  # the 8 constants moved too; AddN stayed on CPU:0
    assert result.only_a == [] and result.only_b == []
    assert (result.a.copies, result.a.copy_bytes, result.b.copies, result.b.copy_bytes) == (4, 64, 0, 0)
    assert (result.copies_change, result.copy_bytes_change) == (-4, -64)
    assert d.render(result) == """\
ops: A 13 · B 13 · matched 13
moved: 12
  _EagerConst #0: GPU:0 → CPU:0
  _EagerConst #1: GPU:0 → CPU:0
  MatMul #0: GPU:0 → CPU:0
  _EagerConst #2: GPU:1 → CPU:0
  _EagerConst #3: GPU:1 → CPU:0
  MatMul #1: GPU:1 → CPU:0
  _EagerConst #4: GPU:2 → CPU:0
  _EagerConst #5: GPU:2 → CPU:0
  MatMul #2: GPU:2 → CPU:0
  _EagerConst #6: GPU:3 → CPU:0
  _EagerConst #7: GPU:3 → CPU:0
  MatMul #3: GPU:3 → CPU:0
only in A: 0
only in B: 0
copies: A 4 (64 B) · B 0 (0 B) · −4 (−64 B)
fallbacks: A 0 · B 0 · ±0
peak memory:
  device        A        B    change
  CPU:0   1.2 KiB  4.2 KiB  +3.0 KiB
  GPU:0     768 B        -
  GPU:1     768 B        -
  GPU:2     768 B        -
  GPU:3     768 B        -
"""


def test_fail_on():
    result = d.diff(multitower(4), multitower(0))
    assert d.failures(result, {"moved"}) == [
        "moved: 12 op(s) changed device (_EagerConst #0: GPU:0 → CPU:0 and 11 more)"]
    assert d.failures(result, {"copies", "fallback"}) == []  # B copies less and falls back no more
    assert d.failures(result, {"peak"}) == ["peak: CPU:0 1.2 KiB → 4.2 KiB"]
    assert len(d.failures(result, set(d.CHECKS))) == 2
    back = d.diff(multitower(0), multitower(4))
    assert d.failures(back, {"copies"}) == ["copies: 0 (0 B) → 4 (64 B)"]
    assert d.failures(back, {"peak"}) == ["peak: GPU:0 0 B → 768 B and 3 more"]
    same = d.diff(multitower(4), multitower(4))
    assert same.moved == [] and d.failures(same, set(d.CHECKS)) == []


def test_fail_on_moved_counts_ops_that_vanished_or_appeared():
    result = d.diff(multitower(4), [ev.TraceStart()])
    assert d.failures(result, {"moved"}) == ["moved: 13 op(s) only in A, 0 only in B (_EagerConst #0 on GPU:0 only in A)"]
    back = d.diff([ev.TraceStart()], multitower(4))
    assert d.failures(back, {"moved"}) == ["moved: 0 op(s) only in A, 13 only in B (_EagerConst #0 on GPU:0 only in B)"]


def test_fallbacks_counted():
    a = [ev.OpPlaced(1, "Cast", None, "", gpu(0), ev.DEFAULT)]
    b = [ev.OpPlaced(1, "Cast", None, "", CPU0, ev.FALLBACK)]
    result = d.diff(a, b)
    assert (result.a.fallbacks, result.b.fallbacks) == (0, 1)
    assert d.failures(result, {"fallback"}) == ["fallback: 0 → 1 ops fell back to the CPU"]
    assert "fallbacks: A 0 · B 1 · +1" in d.render(result)


def test_match_by_node_name_then_by_position():
    a = [ev.OpPlaced(1, "Const", "a", "", gpu(0), ev.DEFAULT),
         ev.OpPlaced(2, "Const", "b", "", gpu(0), ev.DEFAULT),
         ev.OpPlaced(3, "MatMul", "MatMul", "", gpu(0), ev.DEFAULT),
         ev.OpPlaced(4, "MatMul", None, "", gpu(0), ev.DEFAULT),
         ev.OpPlaced(5, "MatMul", None, "", gpu(1), ev.DEFAULT)]
    b = [ev.OpPlaced(1, "Const", "b", "", CPU0, ev.DEFAULT),  # same nodes, other order
         ev.OpPlaced(2, "Const", "a", "", gpu(0), ev.DEFAULT),
         ev.OpPlaced(3, "MatMul", None, "", gpu(1), ev.DEFAULT),
         ev.OpPlaced(4, "MatMul", "MatMul", "", gpu(0), ev.DEFAULT)]
    result = d.diff(a, b)
    assert result.matched == 4
    assert [(m.label, m.a_seq, m.b_seq, m.b_device) for m in result.moved] == [
        ("Const #1 (b)", 2, 1, CPU0), ("MatMul #1", 4, 3, gpu(1))]
    assert [(r.label, r.seq, r.device) for r in result.only_a] == [("MatMul #2", 5, gpu(1))]
    assert result.only_b == []
    text = d.render(result)
    assert "only in A: 1\n  MatMul #2 on GPU:1\nonly in B: 0\n" in text


def test_imported_tf1_traces_match_by_node():
    from devtrace.trace import tflog

    old, _ = tflog.parse("a: /job:localhost/replica:0/task:0/gpu:0\nMatMul: /job:localhost/replica:0/task:0/gpu:0\n")
    new, _ = tflog.parse("a: /job:localhost/replica:0/task:0/cpu:0\nMatMul: /job:localhost/replica:0/task:0/gpu:0\n")
    result = d.diff(old, new)
    assert [(m.label, m.b_device) for m in result.moved] == [("a", CPU0)]


def test_to_json():
    result = d.diff(multitower(4), multitower(0))
    obj = d.to_json(result)
    assert obj["schema"] == 1
    assert obj["a"] == {"ops": 13, "copies": 4, "copy_bytes": 64, "fallbacks": 0,
                        "peak": {CPU0: 1280, gpu(0): 768, gpu(1): 768, gpu(2): 768, gpu(3): 768}}
    assert obj["b"] == {"ops": 13, "copies": 0, "copy_bytes": 0, "fallbacks": 0, "peak": {CPU0: 4352}}
    assert obj["matched"] == 13 and obj["only_a"] == [] and obj["only_b"] == []
    assert obj["moved"][2] == {"label": "MatMul #0", "op": "MatMul", "node": None, "a_device": gpu(0),
                               "b_device": CPU0, "a_seq": 3, "b_seq": 3}
    assert (obj["copies_change"], obj["copy_bytes_change"], obj["fallbacks_change"]) == (-4, -64, 0)
    json.dumps(obj)  # serialisable as is


def test_parse_fail_on():
    assert d.parse_fail_on("") == set()
    assert d.parse_fail_on("moved, copies,") == {"moved", "copies"}
    with pytest.raises(UsageError) as info:
        d.parse_fail_on("moved,speed")
    assert str(info.value) == "--fail-on speed: unknown check (choose from moved, copies, fallback, peak)"


# -- reading trace files -----------------------------------------------------------------------


def write(tmp_path, name, content) -> str:
    path = tmp_path / name
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    return str(path)


def test_read_errors(tmp_path):
    good = jsonl.dumps(multitower(4))
    cases = {
        "notes.txt": ("Executing op MatMul in device GPU:0\n", ":1: not a devtrace trace (line is not JSON)"),
        "config.json": ('{"name": "x"}\n', ':1: not a devtrace trace (record has no "event")'),
        "list.json": ("[1, 2]\n", ":1: not a devtrace trace (line is not a JSON object)"),
        "v2.jsonl": (good.replace('"schema": 1', '"schema": 2'),
                     ": trace schema 2 is not supported (this devtrace reads schema 1)"),
        "noschema.jsonl": ('{"event": "trace_start"}\n', ':1: not a devtrace trace (record has no "schema")'),
        "empty.jsonl": ("", ": empty file, not a devtrace trace"),
        "blank.jsonl": ("\n  \n", ": empty file, not a devtrace trace"),
        "binary.jsonl": (b"\x89PNG\r\n\x1a\n\x00\x00", ": not a devtrace trace (binary file)"),
        "latin1.jsonl": ('{"schema": 1, "event": "message", "level": "INFO", "text": "caf\xe9"}'.encode("latin-1"),
                         ": not a devtrace trace (not UTF-8 text)"),
        "unknown.jsonl": ('{"schema": 1, "event": "op_started"}\n',
                          ':1: not a devtrace trace (unknown event "op_started")'),
        "partial.jsonl": (good.splitlines()[0] + '\n{"schema": 1, "event": "tensor_copied", "seq": 1}\n',
                          ":2: invalid tensor_copied event (missing dst, input_index, nbytes, op, src)"),
    }
    for name, (content, suffix) in cases.items():
        path = write(tmp_path, name, content)
        with pytest.raises(UsageError) as info:
            jsonl.read(path)
        assert str(info.value) == path + suffix, name
        assert "\n" not in str(info.value)
    with pytest.raises(UsageError) as info:
        jsonl.read(tmp_path / "missing.jsonl")
    assert str(info.value) == f"{tmp_path / 'missing.jsonl'}: cannot read trace (No such file or directory)"
    with pytest.raises(UsageError) as info:
        jsonl.read(tmp_path)
    assert str(info.value) == f"{tmp_path}: cannot read trace (Is a directory)"


def test_read_ignores_unknown_fields_within_the_schema(tmp_path):
    line = '{"schema": 1, "event": "message", "level": "INFO", "text": "hi", "added_later": 3}\n'
    assert jsonl.read(write(tmp_path, "t.jsonl", line)) == [ev.Message("INFO", "hi")]


# -- the command -------------------------------------------------------------------------------


def test_diff_command(tmp_path, capsys):
    from devtrace.cli.diff_cmd import diff as diff_cmd

    a, b = tmp_path / "gpu.jsonl", tmp_path / "cpu.jsonl"
    jsonl.write(a, multitower(4))
    jsonl.write(b, multitower(0))
    diff_cmd(a, b, json_=False, fail_on="")
    assert capsys.readouterr().out == d.render(d.diff(multitower(4), multitower(0)))

    with pytest.raises(CheckFailed) as info:
        diff_cmd(a, b, json_=False, fail_on="moved,peak")
    out, err = capsys.readouterr()
    assert out.startswith("ops: A 13 · B 13 · matched 13\n")  # the diff is printed before failing
    assert info.value.exit_code == 3
    assert str(info.value) == ("2 checks failed; first: --fail-on moved: 12 op(s) changed device "
                               "(_EagerConst #0: GPU:0 → CPU:0 and 11 more)")
    assert err == "Check failed: --fail-on peak: CPU:0 1.2 KiB → 4.2 KiB\n"

    with pytest.raises(CheckFailed):
        diff_cmd(a, b, json_=True, fail_on="moved")
    obj = json.loads(capsys.readouterr().out)
    assert obj["failures"] == ["moved: 12 op(s) changed device (_EagerConst #0: GPU:0 → CPU:0 and 11 more)"]

    with pytest.raises(UsageError, match=r"^--fail-on slow: unknown check"):
        diff_cmd(a, tmp_path / "missing.jsonl", json_=False, fail_on="slow")
    with pytest.raises(UsageError, match=r"missing\.jsonl: cannot read trace"):
        diff_cmd(a, tmp_path / "missing.jsonl", json_=False, fail_on="")


def test_diff_through_the_app(tmp_path):
    from typer.testing import CliRunner

    from devtrace.cli.app import app

    a, b = tmp_path / "gpu.jsonl", tmp_path / "cpu.jsonl"
    jsonl.write(a, multitower(4))
    b.write_text('{"schema": 2, "event": "trace_start"}\n')
    result = CliRunner().invoke(app, ["diff", str(a), str(b)])
    assert result.exit_code == 2
    assert f"Error: {b}: trace schema 2 is not supported (this devtrace reads schema 1)" in result.output
    jsonl.write(b, multitower(0))
    result = CliRunner().invoke(app, ["diff", str(a), str(b), "--fail-on", "moved"])
    assert result.exit_code == 3
    assert "  MatMul #3: GPU:3 → CPU:0" in result.output
