"""Nothing lost, nothing clobbered: every output path is checked before the program runs, and a
write never lands on the program, an input, a directory, a device or a FIFO; symlinks are
written through; relative paths mean the start directory. Machine formats own stdout."""

import json
import os

import pytest

from conftest import devtrace

PROGRAM = "import devtrace as tf\nprint(tf.add(1.0, 2.0))\n"
CHDIR = "import os, devtrace as tf\nos.chdir(os.environ['ELSEWHERE'])\nprint(tf.add(1.0, 2.0))\n"


@pytest.fixture
def prog(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    return path


def run(prog, *args, cwd=None, env=None):
    return devtrace("run", str(prog), *args, cwd=cwd or prog.parent, env=env)


@pytest.mark.parametrize("flag", ["--trace", "--html", "--output"])
def test_the_program_itself_is_never_overwritten(prog, flag):
    extra = ["--format", "table"] if flag == "--output" else []
    r = run(prog, flag, str(prog), *extra)
    assert r.returncode == 2 and prog.read_text() == PROGRAM
    assert r.stderr.strip().splitlines()[-1] == f"Error: {flag} {prog}: is the program being run; refusing to overwrite it"
    assert "tf.Tensor" not in r.stdout  # refused before the program ran


@pytest.mark.parametrize("target,message", [
    ("{dir}", "is a directory"), ("", "empty path"), ("/dev/full", "not a regular file"),
    ("{fifo}", "not a regular file"), ("/nonexistent/t.jsonl", "directory /nonexistent does not exist")])
def test_bad_trace_paths_are_refused_before_the_run(prog, tmp_path, target, message):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    target = target.format(dir=tmp_path / "dir", fifo=tmp_path / "fifo")
    r = run(prog, "--trace", target)
    assert r.returncode == 2 and r.stdout == "" and message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


def test_a_symlink_is_written_through_and_stays_a_symlink(prog, tmp_path):
    (tmp_path / "link.jsonl").symlink_to("real.jsonl")
    r = run(prog, "--trace", "link.jsonl")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "link.jsonl").is_symlink()
    assert json.loads((tmp_path / "real.jsonl").read_text().splitlines()[0])["event"] == "trace_start"


def test_a_relative_trace_means_the_start_directory_even_if_the_program_chdirs(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    prog = tmp_path / "chdir.py"
    prog.write_text(CHDIR)
    r = run(prog, "--trace", "t.jsonl", env={**os.environ, "ELSEWHERE": str(elsewhere)})
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "t.jsonl").exists() and not (elsewhere / "t.jsonl").exists()


def test_dev_null_is_a_fine_place_to_discard_a_trace(prog):
    assert run(prog, "--trace", "/dev/null").returncode == 0
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_import_never_overwrites_the_log_it_reads(tmp_path):
    log = tmp_path / "x.log"
    text = "Executing op MatMul in device /job:localhost/replica:0/task:0/device:CPU:0\n"
    log.write_text(text)
    r = devtrace("import", str(log), "--format", "jsonl", "-o", str(log))
    assert r.returncode == 2 and log.read_text() == text
    assert "is the log being imported; refusing to overwrite it" in r.stderr


@pytest.mark.parametrize("fmt,first", [("jsonl", '{"schema": 1'), ("dot", "digraph devtrace {")])
def test_machine_formats_own_stdout_and_the_program_output_goes_to_stderr(prog, fmt, first):
    r = run(prog, "--format", fmt)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(first) and "tf.Tensor" not in r.stdout
    assert "tf.Tensor(3.0, shape=(), dtype=float32)" in r.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_gate_that_could_never_fire_is_refused(prog, value):
    r = run(prog, f"--max-peak={value}")
    assert r.returncode == 2 and "Traceback" not in r.stderr


@pytest.mark.parametrize("var,value,line", [
    ("DEVTRACE_SIMULATE", "garbage", "devtrace.errors.UsageError: DEVTRACE_SIMULATE=garbage: unknown GPU model "
                                     "'garbage'"),
    ("DEVTRACE_MACHINE", "/nonexistent", "devtrace.errors.UsageError: DEVTRACE_MACHINE=/nonexistent: machine file "
                                         "not found: /nonexistent")])
def test_a_bad_environment_variable_under_plain_python_is_one_line(prog, var, value, line):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVTRACE_")}
    r = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env={**env, var: value})
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1].startswith(line)
    assert "devtrace/" not in r.stderr.replace(line, "")  # no frame of devtrace's own


def test_the_machine_variable_wins_when_both_are_set(prog):
    import subprocess
    import sys

    machine = os.path.join(os.path.dirname(__file__), "..", "fixtures", "machines", "k40c-x1.toml")
    text = "import devtrace as tf\nprint(len(tf.config.list_physical_devices('GPU')))\n"
    prog.write_text(text)
    r = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True,
                       env={**os.environ, "DEVTRACE_MACHINE": machine, "DEVTRACE_SIMULATE": "4"})
    assert (r.returncode, r.stdout) == (0, "1\n")


def test_numpy_warnings_do_not_leak_from_kernels(tmp_path):
    prog = tmp_path / "dz.py"
    prog.write_text("import devtrace as tf\nprint(tf.constant(1.0) / 0.0, tf.math.log(0.0))\n")
    r = devtrace("run", str(prog))
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout == "tf.Tensor(inf, shape=(), dtype=float32) tf.Tensor(-inf, shape=(), dtype=float32)\n"


LONG = "import devtrace as tf\nx = tf.constant(0.0)\nfor _ in range(10000):\n    x = tf.add(x, 1.0)\nprint(x)\n"


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_long_trace_streams_every_op_and_ends_with_trace_end(tmp_path):
    prog = tmp_path / "long.py"
    prog.write_text(LONG)
    r = run(prog, "--trace", "t.jsonl", "--format", "summary")
    events = _lines(tmp_path / "t.jsonl")
    seqs = [e["seq"] for e in events if e["event"] == "op_placed"]
    assert r.returncode == 0 and seqs == list(range(1, 10003))  # in order, none lost
    assert events[0]["streamed"] is True
    assert events[-1] == {"schema": 1, "event": "trace_end", "status": 0, "events": len(events) - 1}
    assert "ops: 10002\n" in r.stderr  # the summary read the same events back


def test_os_exit_still_closes_the_trace_with_its_status(tmp_path):
    prog = tmp_path / "quit.py"
    prog.write_text("import os, devtrace as tf\ntf.add(1.0, 2.0)\nos._exit(3)\n")
    (tmp_path / "t.jsonl").write_text("the previous run's trace\n")
    r = run(prog, "--trace", "t.jsonl")
    events = _lines(tmp_path / "t.jsonl")
    assert r.returncode == 3 and events[0]["program"] == str(prog)
    assert [e["op"] for e in events if e["event"] == "op_placed"] == ["_EagerConst", "_EagerConst", "AddV2"]
    assert events[-2]["event"] == "memory_stats" and events[-1]["event"] == "trace_end" and events[-1]["status"] == 3


def test_a_cut_off_trace_says_so_when_read(prog, tmp_path):
    run(prog, "--trace", "t.jsonl")
    path = tmp_path / "t.jsonl"
    path.write_text("".join(path.read_text().splitlines(True)[:-1]))  # as after a kill: no trace_end
    r = devtrace("diff", str(path), str(path))
    assert r.returncode == 0
    assert r.stderr.splitlines()[0] == (f"Warning: {path}: the trace was cut off before its run ended (no trace_end "
                                        "record: os._exit or a kill); it holds the run up to its last line")


def test_a_forking_program_is_reported_once_and_traced_by_its_parent(tmp_path):
    prog = tmp_path / "fork.py"
    prog.write_text("import os, devtrace as tf\ntf.add(1.0, 2.0)\npid = os.fork()\n"
                    "if pid == 0:\n    tf.add(1.0, 2.0)\nelse:\n    os.waitpid(pid, 0)\n")
    r = run(prog, "--format", "summary", "--trace", "t.jsonl")
    assert r.returncode == 0 and r.stderr.count("ops: ") == 1 and "ops: 3\n" in r.stderr
    assert sum(e["event"] == "op_placed" for e in _lines(tmp_path / "t.jsonl")) == 3
