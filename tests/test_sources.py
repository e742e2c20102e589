"""Where an op came from (issue 34 item 2): each op's ``src``, the program's ``path:line`` that made it —
an eager op's line, the line of a ``tf.function``'s body that made its node (every call), a helper's
own line in another file of the program, the program's line that called Keras — in the JSONL trace,
the table's last column, ``--group-by src`` and the report's hover. Lines of
``fixtures/programs/sources/main.py`` and ``lib/helper.py``."""

import json
import os

import pytest

from conftest import devtrace, program

MAIN = program("sources/main.py")
# the first ops of main.py, executed: (seq, op, src)
EAGER_AND_FUNCTION = [
    (1, "_EagerConst", "main.py:9"),  # x = tf.constant(...)
    (2, "_EagerConst", "main.py:10"),  # tf.transpose's perm
    (3, "Transpose", "main.py:10"),
    (4, "MatMul", "main.py:10"),
    (5, "__inference_step_1", "main.py:19"),  # step(x): the call
    (6, "Const", "main.py:15"),  # w = v * 2.0 (its constant, then the Mul)
    (7, "Mul", "main.py:15"),
    (8, "Const", "main.py:16"),  # tf.reduce_sum(w): its axes, then the Sum
    (9, "Sum", "main.py:16"),
    (10, "Identity", "main.py:19"),  # the function's output, made by the call (at tracing): each call's line
    (11, "__inference_step_1", "main.py:20"),  # the second call: the body's lines again, from the same graph
    (12, "Const", "main.py:15"),
    (13, "Mul", "main.py:15"),
    (14, "Const", "main.py:16"),
    (15, "Sum", "main.py:16"),
    (16, "Identity", "main.py:20"),
    (17, "_EagerConst", "lib/helper.py:6"),  # scaled(x): the helper's own line
    (18, "Mul", "lib/helper.py:6"),
]
SEQUENTIAL, COMPILE, FIT, FIT_AGAIN, CALL = "main.py:22", "main.py:23", "main.py:24", "main.py:25", "main.py:26"


def _ops(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{") and '"op_placed"' in line]


@pytest.fixture(scope="module")
def traced():
    r = devtrace("run", MAIN, "--format", "jsonl")
    assert r.returncode == 0, r.stderr
    return _ops(r.stdout)


def test_eager_function_and_helper_ops_name_their_lines(traced):
    ran = [(e["seq"], e["op"], e["src"]) for e in traced if e["seq"]]
    assert ran[:len(EAGER_AND_FUNCTION)] == EAGER_AND_FUNCTION


def test_a_function_body_s_nodes_are_placed_with_their_lines(traced):
    first_call = next(k for k, e in enumerate(traced) if e["op"] == "__inference_step_1")
    body = {e["node"]: e.get("src") for e in traced[:first_call] if not e["seq"]}
    assert body == {"v": "main.py:19", "mul": "main.py:15", "Sum": "main.py:16", "Identity": "main.py:19",
                    "identity_RetVal": None, "mul/y": "main.py:15", "Const": "main.py:16"}


def test_keras_ops_name_the_program_s_line_that_built_compiled_fitted_or_called_the_model(traced):
    keras = [e for e in traced if e["seq"] > len(EAGER_AND_FUNCTION)]
    assert {e["src"] for e in keras} == {SEQUENTIAL, COMPILE, FIT, FIT_AGAIN, CALL}
    lines = [int(e["src"].rpartition(":")[2]) for e in keras]
    assert lines == sorted(lines)  # built, compiled, fitted, fitted, called: never an internal line between
    variables = {e["node"]: e["src"] for e in keras if e["op"] == "VarHandleOp"}
    assert variables == {"kernel": SEQUENTIAL, "bias": SEQUENTIAL, "iteration": COMPILE, "learning_rate": COMPILE}
    first, again = [e for e in keras if e["op"].startswith("__inference_")]
    assert first["op"] == again["op"]  # the train step traced once, by the first fit
    assert (first["src"], again["src"]) == (FIT, FIT_AGAIN)
    called = next(e["seq"] for e in keras if e["src"] == CALL)
    for start, end, line in ((first["seq"], again["seq"], FIT), (again["seq"], called, FIT_AGAIN)):
        step = [e for e in keras if start < e["seq"] < end]  # each call's nodes: the line of the fit that ran them
        assert {e["op"] for e in step} >= {"MatMul", "BiasAdd", "AssignAddVariableOp"}
        assert {e["src"] for e in step} == {line}
    assert [(e["op"], e["src"]) for e in keras if e["seq"] >= called] == [
        ("ReadVariableOp", CALL), ("MatMul", CALL), ("ReadVariableOp", CALL), ("BiasAdd", CALL)]  # model(x)
    assert all(e["src"] for e in traced if e["seq"])  # every executed op has one


def test_the_table_shows_src_last_and_the_pure_python_path_agrees(traced):
    r = devtrace("run", MAIN, "--format", "table", env={"DEVTRACE_PURE_PYTHON": "1"})
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].split() == ["seq", "op", "node", "requested", "device", "reason", "copies", "in", "src"]
    rows = [line.split() for line in lines[1:]]
    ran = [(int(row[0]), row[1], row[-1]) for row in rows if row[0] != "0"]
    assert ran[:len(EAGER_AND_FUNCTION)] == EAGER_AND_FUNCTION
    assert [src for _, _, src in ran] == [e["src"] for e in traced if e["seq"]]  # C's walk and Python's agree


def test_compute_none_records_the_same_lines(traced):
    r = devtrace("run", MAIN, "--format", "jsonl", "--compute", "none")
    assert r.returncode == 0, r.stderr
    assert [(e["seq"], e["op"], e.get("src")) for e in _ops(r.stdout)] == [(e["seq"], e["op"], e.get("src"))
                                                                          for e in traced]


def test_group_by_src_counts_the_ops_of_each_line():
    r = devtrace("run", MAIN, "--format", "table", "--group-by", "src")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].split()[:2] == ["src", "ops"]
    counts = {line.split()[0]: int(line.split()[1]) for line in lines[1:]}
    assert {k: v for k, v in counts.items() if k not in (SEQUENTIAL, COMPILE, FIT, FIT_AGAIN)} == {
        "main.py:9": 1, "main.py:10": 3, "main.py:19": 2, "main.py:15": 4, "main.py:16": 4, "main.py:20": 2,
        "lib/helper.py:6": 2, CALL: 4}


def test_src_is_escaped_like_every_other_field(tmp_path):
    name = "evil\x1b[31m<b>.py"
    (tmp_path / name).write_text("import tensorflow as tf\nx = tf.constant(1.0)\n")
    trace, report = tmp_path / "t.jsonl", tmp_path / "r.html"
    r = devtrace("run", str(tmp_path / name), "--format", "table", "--trace", str(trace))
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stderr and "evil\\x1b[31m<b>.py:2" in r.stderr
    (op,) = _ops(trace.read_text())
    assert op["src"] == "evil\x1b[31m<b>.py:2"
    assert '"src": "evil\\u001b[31m<b>.py:2"' in trace.read_text()
    pytest.importorskip("plotly")
    r = devtrace("report", str(trace), "-o", str(report))
    assert r.returncode == 0, r.stderr
    html = report.read_text()
    assert "evil\\u001b[31m\\u003cb>.py:2" in html and "<b>.py" not in html
    assert '"<br>from " + esc(o.src)' in html  # the hover escapes it as the op's other fields


def test_a_library_run_records_no_src(tmp_path):
    from devtrace.runtime import sources

    assert not sources.ENABLED  # only devtrace run turns it on
    r = devtrace("run", MAIN, "--format", "jsonl")  # (a subprocess: this process stays a library user)
    assert '"src": ' in r.stdout


def test_paths_are_relative_to_the_program_s_directory_else_the_working_directory(tmp_path, monkeypatch):
    from devtrace.runtime import sources

    monkeypatch.chdir(tmp_path)
    (tmp_path / "app").mkdir()
    saved = list(sources._ROOTS)
    try:
        sources._set_roots(str(tmp_path / "app" / "main.py"))
        assert sources.resolve(str(tmp_path / "app" / "lib" / "m.py"), 3) == os.path.join("lib", "m.py") + ":3"
        assert sources.resolve(str(tmp_path / "other.py"), 4) == "other.py:4"
        assert sources.resolve("/elsewhere/x.py", 5) == "/elsewhere/x.py:5"
        assert sources.resolve("<stdin>", 6) == "<stdin>:6"
    finally:
        sources._ROOTS[:] = saved


def test_frames_of_devtrace_the_standard_library_and_the_launcher_are_passed_over():
    import contextlib

    from devtrace.runtime import sources
    from devtrace.runtime.eager import executor

    assert sources.kind_of(executor.__file__) == sources.SKIP
    assert sources.kind_of(contextlib.__file__) == sources.SKIP
    assert sources.kind_of("<frozen runpy>") == sources.LAUNCHER
    assert sources.kind_of(MAIN) == sources.USER
    assert sources.kind_of(os.path.join(os.path.dirname(pytest.__file__), "x.py")) == sources.USER  # site-packages
