"""Renderers: exact text for hand-built traces (the seed 003 multi-tower example and an eager one)."""

from __future__ import annotations

import sys

import pytest

from devtrace.output import format_bytes
from devtrace.trace import events as ev
from devtrace.trace import jsonl, render_dot, render_summary, render_table, render_tf1, render_tf2

from conftest import golden

P = "/job:localhost/replica:0/task:0/device:"
CPU0, GPU0, GPU1, GPU2, GPU3 = (P + d for d in ("CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"))
MiB = 1 << 20


def k20m(i: int, bus: str) -> list:
    return [f"{P}GPU:{i}", f"device: {i}, name: Tesla K20m, pci bus id: {bus}, compute capability: 3.5"]


def multitower() -> list:
    """The 2017 guide's multi-tower program (seed 003) as devtrace records it, in the guide's order."""
    return [
        ev.TraceStart("graph", "devtrace", "multitower.py", "simulated"),
        ev.DeviceMapping([k20m(0, "0000:02:00.0"), k20m(1, "0000:03:00.0"),
                          k20m(2, "0000:83:00.0"), k20m(3, "0000:84:00.0")]),
        ev.OpPlaced(1, "Const", "Const_3", "/gpu:3", GPU3, ev.EXPLICIT, [], [3, 2], "float32"),
        ev.OpPlaced(2, "Const", "Const_2", "/gpu:3", GPU3, ev.EXPLICIT, [], [2, 3], "float32"),
        ev.OpPlaced(3, "MatMul", "MatMul_1", "/gpu:3", GPU3, ev.EXPLICIT, [2, 1], [2, 2], "float32"),
        ev.OpPlaced(4, "Const", "Const_1", "/gpu:2", GPU2, ev.EXPLICIT, [], [3, 2], "float32"),
        ev.OpPlaced(5, "Const", "Const", "/gpu:2", GPU2, ev.EXPLICIT, [], [2, 3], "float32"),
        ev.OpPlaced(6, "MatMul", "MatMul", "/gpu:2", GPU2, ev.EXPLICIT, [5, 4], [2, 2], "float32"),
        ev.TensorCopied(7, "AddN", 0, GPU2, CPU0, 16),
        ev.TensorCopied(7, "AddN", 1, GPU3, CPU0, 16),
        ev.OpPlaced(7, "AddN", "AddN", "/cpu:0", CPU0, ev.EXPLICIT, [6, 3], [2, 2], "float32"),
        ev.MemoryStats(GPU2, "GPU_2_bfc", 4 * 1024 * MiB, 4 * 1024 * MiB, 768, 1280, 3, 256, 1, 0, "preallocate"),
        ev.MemoryStats(GPU3, "GPU_3_bfc", 4 * 1024 * MiB, 4 * 1024 * MiB, 768, 3 * MiB + 512 * 1024, 3, 256, 1, 0,
                       "preallocate"),
        ev.MemoryStats(CPU0, "cpu", None, 0, 256, 256, 1, 256, 0, 0, "host"),
    ]


def eager() -> list:
    """Seed 000's first example plus a fallback, a copy, a MirroredStrategy message and an OOM."""
    return [
        ev.TraceStart(),
        ev.DeviceCreated(CPU0, "CPU"),
        ev.DeviceCreated(GPU0, "GPU", 0, 1024 * MiB, "device: 0, name: Tesla K40c", True),
        ev.DeviceCreated(GPU1, "GPU", 0, 1024 * MiB, "device: 0, name: Tesla K40c", True),
        ev.OpPlaced(1, "_EagerConst", None, "", GPU0, ev.DEFAULT, [], [2, 3], "float32"),
        ev.OpPlaced(2, "_EagerConst", None, "", GPU0, ev.DEFAULT, [], [3, 2], "float32"),
        ev.OpPlaced(3, "MatMul", None, "", GPU0, ev.DEFAULT, [1, 2], [2, 2], "float32"),
        ev.TensorCopied(4, "Cast", 0, GPU0, CPU0, 16),
        ev.OpPlaced(4, "Cast", "to_int", "/GPU:0", CPU0, ev.FALLBACK, [3], [2, 2], "int32"),
        ev.Message("INFO", "Using MirroredStrategy with devices ('/job:localhost/replica:0/task:0/device:GPU:0',)"),
        ev.OOM(5, "Fill", GPU0, "GPU_0_bfc", 2048 * 2048 * 4, [2048, 2048], "float32"),
        ev.MemoryStats(GPU0, "GPU_0_bfc", 1024 * MiB, 1024 * MiB, 1024, 1536, 4, 512, 1, 1, "limit"),
    ]


# -- tf2 -------------------------------------------------------------------------------------


def test_tf2_render_eager():
    assert render_tf2.render(eager()) == (
        "Executing op _EagerConst in device /job:localhost/replica:0/task:0/device:GPU:0\n"
        "Executing op _EagerConst in device /job:localhost/replica:0/task:0/device:GPU:0\n"
        "Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0\n"
        "Executing op Cast in device /job:localhost/replica:0/task:0/device:CPU:0\n"
        "INFO:tensorflow:Using MirroredStrategy with devices ('/job:localhost/replica:0/task:0/device:GPU:0',)\n"
    )


def test_tf2_line_is_none_for_events_tensorflow_does_not_print():
    for e in eager():
        if e.kind not in ("op_placed", "message"):
            assert render_tf2.line(e) is None
    assert render_tf2.line(ev.Message("WARNING", "x")) == "WARNING:tensorflow:x"
    assert render_tf2.render([ev.TraceStart()]) == ""


# -- tf1 -------------------------------------------------------------------------------------

SEED_003_LEGACY = """\
Device mapping:
/job:localhost/replica:0/task:0/gpu:0 -> device: 0, name: Tesla K20m, pci bus id: 0000:02:00.0
/job:localhost/replica:0/task:0/gpu:1 -> device: 1, name: Tesla K20m, pci bus id: 0000:03:00.0
/job:localhost/replica:0/task:0/gpu:2 -> device: 2, name: Tesla K20m, pci bus id: 0000:83:00.0
/job:localhost/replica:0/task:0/gpu:3 -> device: 3, name: Tesla K20m, pci bus id: 0000:84:00.0
Const_3: /job:localhost/replica:0/task:0/gpu:3
Const_2: /job:localhost/replica:0/task:0/gpu:3
MatMul_1: /job:localhost/replica:0/task:0/gpu:3
Const_1: /job:localhost/replica:0/task:0/gpu:2
Const: /job:localhost/replica:0/task:0/gpu:2
MatMul: /job:localhost/replica:0/task:0/gpu:2
AddN: /job:localhost/replica:0/task:0/cpu:0
"""

SEED_003_MODERN = """\
Device mapping:
/job:localhost/replica:0/task:0/device:GPU:0 -> device: 0, name: Tesla K20m, pci bus id: 0000:02:00.0, compute capability: 3.5
/job:localhost/replica:0/task:0/device:GPU:1 -> device: 1, name: Tesla K20m, pci bus id: 0000:03:00.0, compute capability: 3.5
/job:localhost/replica:0/task:0/device:GPU:2 -> device: 2, name: Tesla K20m, pci bus id: 0000:83:00.0, compute capability: 3.5
/job:localhost/replica:0/task:0/device:GPU:3 -> device: 3, name: Tesla K20m, pci bus id: 0000:84:00.0, compute capability: 3.5
Const_3: (Const): /job:localhost/replica:0/task:0/device:GPU:3
Const_2: (Const): /job:localhost/replica:0/task:0/device:GPU:3
MatMul_1: (MatMul): /job:localhost/replica:0/task:0/device:GPU:3
Const_1: (Const): /job:localhost/replica:0/task:0/device:GPU:2
Const: (Const): /job:localhost/replica:0/task:0/device:GPU:2
MatMul: (MatMul): /job:localhost/replica:0/task:0/device:GPU:2
AddN: (AddN): /job:localhost/replica:0/task:0/device:CPU:0
"""


def test_tf1_legacy_is_the_2017_guide_block():
    # Seed 003 prints each mapping line wrapped as "... pci bus" / "id: 0000:02:00.0"; devtrace prints
    # it as one line. Joined, the seed block and the rendering are identical.
    assert render_tf1.render(multitower(), legacy=True) == SEED_003_LEGACY


def test_tf1_modern():
    assert render_tf1.render(multitower()) == SEED_003_MODERN


def test_tf1_no_known_devices_and_eager_ops():
    events = [ev.DeviceMapping([]), ev.OpPlaced(1, "MatMul", None, "", CPU0, ev.DEFAULT)]
    assert render_tf1.render(events) == (
        "Device mapping: no known devices.\n"
        "MatMul: (MatMul): /job:localhost/replica:0/task:0/device:CPU:0\n")
    assert render_tf1.render(events, legacy=True) == (
        "Device mapping: no known devices.\n"
        "MatMul: /job:localhost/replica:0/task:0/cpu:0\n")


def test_tf1_line_and_legacy_names():
    e = ev.OpPlaced(1, "MatMul", "c", "", GPU1, ev.DEFAULT)
    assert render_tf1.line(e) == "c: (MatMul): /job:localhost/replica:0/task:0/device:GPU:1"
    assert render_tf1.line(e, legacy=True) == "c: /job:localhost/replica:0/task:0/gpu:1"
    assert render_tf1.line(ev.TensorCopied(1, "MatMul", 0, CPU0, GPU1, 8)) is None
    assert render_tf1.legacy_device(P + "XLA_GPU:0") == P + "XLA_GPU:0"


# -- table -----------------------------------------------------------------------------------


def test_table_rows():
    assert render_table.rows(multitower()) == [
        ["1", "Const", "Const_3", "/gpu:3", "GPU:3", "explicit", ""],
        ["2", "Const", "Const_2", "/gpu:3", "GPU:3", "explicit", ""],
        ["3", "MatMul", "MatMul_1", "/gpu:3", "GPU:3", "explicit", ""],
        ["4", "Const", "Const_1", "/gpu:2", "GPU:2", "explicit", ""],
        ["5", "Const", "Const", "/gpu:2", "GPU:2", "explicit", ""],
        ["6", "MatMul", "MatMul", "/gpu:2", "GPU:2", "explicit", ""],
        ["7", "AddN", "AddN", "/cpu:0", "CPU:0", "explicit", "2 (32 B)"],
    ]


def test_print_placement_table_plain(capsys, monkeypatch):
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    render_table.print_placement_table(eager())
    assert capsys.readouterr().out == (
        "seq  op           node    requested  device  reason                  copies in\n"
        "  1  _EagerConst                     GPU:0   default\n"
        "  2  _EagerConst                     GPU:0   default\n"
        "  3  MatMul                          GPU:0   default\n"
        "  4  Cast         to_int  /GPU:0     CPU:0   fallback:no-GPU-kernel  1 (16 B)\n"
    )
    render_table.print_placement_table([ev.TraceStart()])
    assert capsys.readouterr().out == "No ops ran.\n"


def test_table_render_is_the_plain_table():
    assert render_table.render(multitower()).splitlines()[-1] == \
        "  7  AddN    AddN      /cpu:0     CPU:0   explicit  2 (32 B)"
    assert render_table.render([ev.TraceStart()]) == ""


def test_table_helpers():
    assert render_table.short_device(GPU3) == "GPU:3"
    assert render_table.short_device("/job:worker/replica:0/task:1/device:GPU:0") == \
        "/job:worker/replica:0/task:1/device:GPU:0"
    assert [format_bytes(n) for n in (0, 96, 1536, 3 * MiB, 5 << 30)] == \
        ["0 B", "96 B", "1.5 KiB", "3.0 MiB", "5.0 GiB"]
    names = [P + "GPU:10", P + "GPU:2", CPU0, P + "XLA_CPU:0"]
    assert sorted(names, key=render_table.device_sort_key) == [CPU0, P + "GPU:2", P + "GPU:10", P + "XLA_CPU:0"]


# -- summary ---------------------------------------------------------------------------------


def test_summarize():
    assert render_summary.summarize(eager()) == {
        "ops": 4,
        "ops_per_device": {CPU0: 1, GPU0: 3, GPU1: 0},
        "fallbacks": 1,
        "fallback_ops": {"Cast": 1},
        "copies": 1,
        "copy_bytes": 16,
        "memory": {GPU0: {"in_use": 1024, "peak": 1536, "reserved": 1024 * MiB, "limit": 1024 * MiB}},
        "ooms": 1,
        "limited": None,
        "threads": [],  # one thread ran ops
    }


def test_summary_text():
    assert render_summary.render(multitower()) == (  # human units: 768 B, not "0.0 MiB" (issue 16)
        "device  ops  in use     peak\n"
        "CPU:0     1   256 B    256 B\n"
        "GPU:2     3   768 B  1.2 KiB\n"
        "GPU:3     3   768 B  3.5 MiB\n"
        "ops: 7\n"
        "fallbacks: 0\n"
        "copies: 2 (32 B)\n"
        "OOMs: 0\n"
    )
    assert render_summary.render(eager()).splitlines()[3:] == [
        "GPU:1     0        -        -",
        "ops: 4",
        "fallbacks: 1 (Cast ×1)",
        "copies: 1 (16 B)",
        "OOMs: 1",
    ]


# -- dot -------------------------------------------------------------------------------------


def test_dot():
    assert render_dot.render(multitower()) == golden("tf1_multi_tower.dot")


def test_dot_eager_labels_and_quoting():
    events = eager() + [ev.OpPlaced(9, "Identity", 'say "hi"', "", GPU1, ev.DEFAULT, [3, 0])]
    out = render_dot.render(events)
    assert '    op1 [label="_EagerConst"];' in out
    assert '    op9 [label="say \\"hi\\": Identity"];' in out
    assert "  op3 -> op4 [color=red, fontcolor=red, label=\"16 B\"];" in out
    assert "  op3 -> op9 [color=red, fontcolor=red];" in out  # crosses devices, no copy recorded
    assert out == render_dot.render(events)


# -- jsonl -----------------------------------------------------------------------------------


def test_jsonl_round_trip(tmp_path):
    events = multitower() + eager()[1:]
    text = jsonl.dumps(events)
    first = text.splitlines()[0]
    assert first == ('{"schema": 1, "event": "trace_start", "mode": "graph", "source": "devtrace", '
                     '"program": "multitower.py", "backend": "simulated", "streamed": false, "gpu_times": null}')
    path = tmp_path / "t.jsonl"
    jsonl.write(path, events)
    assert path.read_text() == text
    back = jsonl.read(path)
    assert [ev.to_dict(e) for e in back] == [ev.to_dict(e) for e in events]


def test_jsonl_adds_trace_start():
    lines = jsonl.dumps([ev.Message("INFO", "hi")]).splitlines()
    assert lines == ['{"schema": 1, "event": "trace_start", "mode": "eager", "source": "devtrace", '
                     '"program": null, "backend": null, "streamed": false, "gpu_times": null}',
                     '{"schema": 1, "event": "message", "level": "INFO", "text": "hi"}']


def test_renderers_do_not_import_heavy_modules():
    # a fresh interpreter is the only way to see what importing them pulls in
    import os
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = ("import sys; import devtrace.trace.render_tf2, devtrace.trace.render_tf1, devtrace.trace.render_table,"
            " devtrace.trace.render_summary, devtrace.trace.render_dot, devtrace.trace.jsonl, devtrace.trace.tflog,"
            " devtrace.trace.diff; print(sorted(m for m in ('numpy', 'rich', 'devtrace.runtime') if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("events", [multitower(), eager(), [ev.TraceStart()]])
def test_every_renderer_accepts_any_trace(events):
    for fn in (render_tf2.render, render_tf1.render, render_table.render, render_summary.render, render_dot.render):
        assert isinstance(fn(events), str)


@pytest.mark.parametrize("record", [
    (1, "AddV2", None, "", "/job:localhost/replica:0/task:0/device:GPU:0", ev.DEFAULT, [0, 0]),
    (2, "MatMul", 'n"ode\\é', "/GPU:1", "/job:localhost/replica:0/task:0/device:CPU:0", ev.SOFT, [1], (2, 3), "float32", 1234),
    (3, "Fill", "x\n", "", "/job:localhost/replica:0/task:0/device:GPU:0", ev.EXPLICIT, [], (), "int64", 5, 768),
    (4, "Unpack", None, "", "d", ev.FALLBACK, [3, 2, 1], None, None, 0),
])
def test_an_op_record_is_written_exactly_as_its_event(record):
    import json

    encode = json.JSONEncoder(ensure_ascii=False).encode
    fast = jsonl._encode_lines([ev.OpRecord(*record)], encode, {})
    assert fast == jsonl._encode_lines([ev.OpPlaced(*record)], encode, {})
    assert json.loads(fast)["seq"] == record[0]
