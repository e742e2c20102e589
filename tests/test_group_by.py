"""``--group-by scope|step|device|op`` (issue 34 item 1): one row per name scope, step, device or op
type, with where its ops ran, why, the copies they needed and their time; fitted to 80 columns."""

import re

import pytest

from conftest import ROOT, devtrace, program

PROGRAM = '''import tensorflow as tf

with tf.device("/GPU:0"):
    a = tf.constant([1.0, 2.0, 3.0])


@tf.function
def step(x):
    with tf.name_scope("layer"):
        y = x * 2.0
        z = tf.random.shuffle(y)
    return z + 1.0


step(a)
step(a)
b = a * 3.0
'''
TIME = re.compile(r"\s+\d+(\.\d+)? (ns|µs|ms|s)$")


def grouped(tmp_path, by, *extra, columns="200"):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    r = devtrace("run", str(path), "--simulate", "1", "--format", "table", "--group-by", by, *extra,
                 env={"COLUMNS": columns})
    assert r.returncode == 0, r.stderr
    return r.stderr


def untimed(text):
    """The lines without their time column (kernel times vary from run to run)."""
    lines = text.splitlines()
    assert all(TIME.search(line) for line in lines[1:]), text
    return [re.sub(r"\s+time$", "  time", lines[0])] + [TIME.sub("", line).rstrip() for line in lines[1:]]


def test_group_by_scope_counts_each_scope_s_ops_devices_reasons_and_copies(tmp_path):
    assert untimed(grouped(tmp_path, "scope")) == [
        "scope        pass  ops  devices          why                     copies  time",
        "(eager)              5  CPU:0 2,GPU:0 3  default 4, explicit 1",
        "layer        fwd     6  CPU:0 2,GPU:0 4  fallback 2, default 4   2 (24 B)",
        "(top level)  fwd     6  GPU:0            default 4, colocated 2  2 (24 B)",
    ]


def test_group_by_step_has_one_row_per_function_call(tmp_path):
    assert untimed(grouped(tmp_path, "step")) == [
        "step             ops  devices          why                                 copies  time",
        "(outside steps)    5  CPU:0 2,GPU:0 3  default 4, explicit 1",
        "step_1 #1          6  CPU:0 1,GPU:0 5  fallback 1, default 4, colocated 1  2 (24 B)",
        "step_1 #2          6  CPU:0 1,GPU:0 5  fallback 1, default 4, colocated 1  2 (24 B)",
    ]


def test_group_by_device_and_op(tmp_path):
    assert untimed(grouped(tmp_path, "device")) == [
        "device  ops  devices  why                                  copies  time",
        "CPU:0     4  CPU:0    fallback 2, default 2                2 (24 B)",
        "GPU:0    13  GPU:0    default 10, colocated 2, explicit 1  2 (24 B)",
    ]
    rows = untimed(grouped(tmp_path, "op"))
    assert "RandomShuffle         2  CPU:0    fallback 2             2 (24 B)" in rows


def test_grouped_rows_fit_80_columns(tmp_path):
    text = grouped(tmp_path, "scope", columns="80")
    assert max(len(line) for line in text.splitlines()) <= 80
    row = text.splitlines()[2]  # "why" is cut (…) by as much as the time column needs: none when the
    assert row.startswith("layer        fwd     6  CPU:0 2,GPU:0 4  fallback 2, defau")  # times are short
    assert "fallback 2, default 4  2 (24 B)" in row or "…  2 (24 B)" in row and len(row) == 80, text


def test_summary_group_by_ends_with_the_totals(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    r = devtrace("run", str(path), "--simulate", "1", "--format", "summary", "--group-by", "device")
    assert r.returncode == 0, r.stderr
    # the totals are the summary's (a function body's placement records count there as ops)
    assert r.stderr.splitlines()[-4:] == ["ops: 25", "fallbacks: 3 (RandomShuffle ×3)", "copies: 4 (48 B)",
                                          "OOMs: 0"]


@pytest.mark.parametrize("args, message", [
    (["--group-by", "layer", "--format", "table"], "--group-by layer: choose one of scope, step, device, op, src"),
    (["--group-by", "scope"], "--group-by needs --format table or --format summary (not tf2)"),
    (["--group-by", "scope", "--format", "jsonl"], "--group-by needs --format table or --format summary (not jsonl)"),
])
def test_group_by_usage_errors(tmp_path, args, message):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    r = devtrace("run", str(path), *args)
    assert (r.returncode, r.stderr) == (2, f"Error: {message}\n")


@pytest.mark.slow
def test_quickstart_fit_by_scope_and_step_in_80_columns():
    """TensorFlow's quickstart ``fit``: each Keras layer's forward and backward ops, one row per step."""
    quickstart = program("../../tests/tf221/programs/keras_quickstart.py")
    def scope_table(columns):
        scope = devtrace("run", quickstart, "--simulate", "2", "--format", "table", "--group-by", "scope",
                         env={"COLUMNS": str(columns)})
        lines = scope.stderr.splitlines()
        return lines[lines.index(next(line for line in lines if line.startswith("scope "))):]

    # 80 columns: the table fits (its names cut in the middle: the batches' host-to-GPU copies take a column)
    assert max(len(line) for line in scope_table(80)) <= 80
    table = scope_table(100)
    rows = {tuple(line.split()[:2]) for line in table[1:]}
    for layer in ("sequential/dense", "sequential/dense_1", "sequential/dropout"):
        assert (layer, "fwd") in rows and (layer, "bwd") in rows, table
    step = devtrace("run", quickstart, "--simulate", "2", "--format", "table", "--group-by", "step",
                    env={"COLUMNS": "80"})
    steps = [line for line in step.stderr.splitlines() if line.startswith("multi_step_")]
    assert len(steps) == 24 and all(len(line) <= 80 for line in steps)
    # the loss converts y_true to float32 first (a Cast, as Keras 3's Loss.__call__), Dropout reads its SeedGenerator;
    # the 5 nodes of Dropout's gradient towards its constant zeros (SelectV2_1, Sum, Reshape and their Consts) are
    # placed but never run: TensorFlow prunes a function body's unused stateless nodes. The 60,000 samples make whole
    # batches of 32: the step is traced once, for that static batch, as TensorFlow traces it; the labels (a vector)
    # reach the cross-entropy through Casts only, no Reshape and its shape Const (TensorFlow's step has none)
    assert steps[0].split()[:4][1:] == ["#1", "201", "GPU:0"] and steps[0].startswith("multi_step_on_iterator_1")


def test_run_format_table_is_boxed_on_a_terminal_only_when_it_fits(tmp_path):
    """``run --format table`` follows ``list``'s and ``mem``'s rule (``output.print_table``)."""
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    wide = devtrace("run", str(path), "--simulate", "1", "--format", "table", env={"TTY_COMPATIBLE": "1"})
    # (a loaded machine's run may pass a second: its status line comes first, then goes)
    assert wide.returncode == 0 and "┏━━━━━┳" in wide.stderr and "│   5 │ RandomShuffle" in wide.stderr
    narrow = devtrace("run", str(path), "--simulate", "1", "--format", "table",
                      env={"TTY_COMPATIBLE": "1", "COLUMNS": "60"})
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", narrow.stderr)  # without a status line's cursor moves
    assert next(line for line in plain.splitlines() if "seq" in line).split() == [
        "seq", "op", "node", "requested", "device", "reason", "copies", "in"]
    piped = devtrace("run", str(path), "--simulate", "1", "--format", "table")
    assert piped.stderr.startswith("seq  op ")
    grouped = devtrace("run", str(path), "--simulate", "1", "--format", "table", "--group-by", "device",
                       env={"TTY_COMPATIBLE": "1"})
    assert "┏━━━━━━━━┳" in grouped.stderr and "│ CPU:0  │   4 │" in grouped.stderr


def test_jsonl_into_a_reader_that_leaves_stops_the_program_with_141_and_a_complete_trace(tmp_path):
    """``run … --format jsonl | head -3``: the lines stream as the program runs; when the reader
    leaves, the program stops within a second (at its next trace flush), exit 141, and the
    ``--trace`` file ends with its ``trace_end``."""
    import json
    import os
    import subprocess
    import sys
    import time

    prog = tmp_path / "long.py"
    prog.write_text("import tensorflow as tf\nx = tf.constant([1.0])\nfor i in range(10**7):\n    x = x + 1.0\n"
                    "print('ran to its end')\n")
    trace = tmp_path / "t.jsonl"
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    p = subprocess.Popen([sys.executable, "-m", "devtrace", "run", str(prog), "--format", "jsonl", "--trace",
                          str(trace)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    lines = [p.stdout.readline() for _ in range(3)]
    p.stdout.close()  # head -3 exits
    left = time.monotonic()
    status = p.wait(timeout=60)
    elapsed = time.monotonic() - left
    stderr = p.stderr.read().decode()
    assert [json.loads(line)["event"] for line in lines] == ["trace_start", "device_created", "op_placed"]
    assert status == 141 and elapsed <= 1.0, (status, elapsed, stderr)
    assert "ran to its end" not in stderr
    records = [json.loads(line) for line in trace.read_text().splitlines()]
    assert records[-1]["event"] == "trace_end" and records[-1]["status"] == 141
    assert records[-1]["events"] == len(records) - 1


SLOW = "import time\nimport tensorflow as tf\nx = tf.constant([1.0])\nt0 = time.time()\n" \
       "while time.time() - t0 < 2.0:\n    x = x + 1.0\n"


def test_a_long_run_shows_a_live_status_line_on_a_terminal_only(tmp_path):
    prog = tmp_path / "slow.py"
    prog.write_text(SLOW)
    tty = devtrace("run", str(prog), "--format", "summary", env={"TTY_COMPATIBLE": "1"})
    assert tty.returncode == 0 and re.search(r"running: [\d,]+ ops", tty.stderr)
    assert tty.stderr.rstrip().endswith("OOMs: 0")
    piped = devtrace("run", str(prog), "--format", "summary")
    assert piped.returncode == 0 and "running" not in piped.stderr
    assert piped.stderr.split()[:4] == ["device", "ops", "in", "use"]
