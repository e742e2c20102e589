"""``devtrace run``: exit codes, failing programs, trace files, checks (issue #3 item 7)."""

import json
import os

import pytest

from conftest import devtrace, program

FULL = "/job:localhost/replica:0/task:0/device:"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_missing_program_exits_2():
    r = devtrace("run", "nope.py")
    assert (r.returncode, r.stderr) == (2, "Error: cannot run nope.py: no such file\n")


def test_directory_program_exits_2(tmp_path):
    r = devtrace("run", str(tmp_path))
    assert r.returncode == 2 and "it is a directory" in r.stderr


def test_unreadable_program_exits_2(tmp_path):
    path = write(tmp_path, "secret.py", "print(1)\n")
    os.chmod(path, 0)
    if os.access(path, os.R_OK):  # root reads anything
        pytest.skip("running as root: every file is readable")
    r = devtrace("run", path)
    assert r.returncode == 2 and "permission denied" in r.stderr


def test_program_that_raises_exits_1_with_its_own_traceback(tmp_path):
    path = write(tmp_path, "boom.py", "import devtrace as tf\n\ndef f():\n    tf.matmul(tf.constant([[1.0]]), tf.constant([[1.0, 2.0], [3.0, 4.0]]))\n\nf()\n")
    r = devtrace("run", path)
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert f'File "{path}", line 6, in <module>' in r.stderr and "line 4, in f" in r.stderr
    assert "devtrace/runtime" not in r.stderr and "runpy" not in r.stderr
    text = ("{{function_node __wrapped__MatMul_device_/job:localhost/replica:0/task:0/device:CPU:0}} Matrix "
            "size-incompatible: In[0]: [1,1], In[1]: [2,2] [Op:MatMul] name:")  # TensorFlow 2.21's words
    assert lines[-2] == f"devtrace.errors.InvalidArgumentError: {text} "
    assert lines[-1] == f"Error: boom.py raised InvalidArgumentError: {text}"


@pytest.mark.parametrize("code, status", [("raise SystemExit(7)", 7), ("import sys; sys.exit(0)", 0),
                                          ("raise SystemExit('bye')", 1), ("raise KeyboardInterrupt", 130)])
def test_exit_status_is_kept(tmp_path, code, status):
    r = devtrace("run", write(tmp_path, "p.py", code + "\n"))
    assert r.returncode == status


def test_syntax_error_is_one_line(tmp_path):
    r = devtrace("run", write(tmp_path, "bad.py", "def (:\n"))
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == "Error: bad.py is not valid Python: invalid syntax (line 1)"


def test_program_args_and_argv(tmp_path):
    path = write(tmp_path, "args.py", "import sys\nprint(sys.argv[1:])\n")
    r = devtrace("run", path, "--simulate", "1", "--", "--x", "1")
    assert r.stdout == "['--x', '1']\n"


def test_trace_is_written_also_when_the_program_fails(tmp_path):
    path = write(tmp_path, "fail.py", "import devtrace as tf\ntf.constant(1.0)\nraise ValueError('late')\n")
    trace = tmp_path / "t.jsonl"
    r = devtrace("run", path, "--trace", str(trace), "--simulate", "1")
    assert r.returncode == 1
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert events[0]["event"] == "trace_start" and all(e["schema"] == 1 for e in events)
    placed = [e for e in events if e["event"] == "op_placed"]
    assert [(e["op"], e["device"]) for e in placed] == [("_EagerConst", f"{FULL}GPU:0")]
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_trace_into_a_missing_directory_exits_2():
    r = devtrace("run", program("matmul_log.py"), "--trace", "/no/such/dir/t.jsonl")
    assert r.returncode == 2 and r.stderr == "Error: --trace /no/such/dir/t.jsonl: directory /no/such/dir does not exist\n"


@pytest.mark.parametrize("args, message", [
    (["--format", "xml"], "Error: --format xml: choose one of tf2, tf1, tf1-legacy, table, jsonl, dot, summary"),
    (["--log-to", "file"], "Error: --log-to file: choose stderr or stdout"),
    (["--expect", "MatMul"], "Error: --expect MatMul: expected OP=SPEC, e.g. --expect MatMul=GPU"),
    (["--expect", "MatMul=/foo:1"], "Error: --expect MatMul=/foo:1: Unknown attribute 'foo' is encountered"),
])
def test_bad_run_flags_exit_2(args, message):
    r = devtrace("run", program("matmul_log.py"), *args)
    assert r.returncode == 2 and r.stderr.startswith(message)


def test_no_fallback_and_max_copies():
    r = devtrace("run", program("shuffle_fallback.py"), "--simulate", "1", "--no-fallback")
    assert r.returncode == 3
    assert "Check failed: --no-fallback: 1 op(s) fell back to the CPU: #2 RandomShuffle" in r.stderr
    r = devtrace("run", program("cast_fallback.py"), "--simulate", "1", "--no-fallback", "--compat", "tf1")
    assert r.returncode == 3
    assert "Check failed: --no-fallback: 1 op(s) fell back to the CPU: #2 Cast" in r.stderr
    r = devtrace("run", program("cast_fallback.py"), "--simulate", "1", "--no-fallback")  # TensorFlow 2.21's GPU Cast
    assert r.returncode == 0, r.stderr
    r = devtrace("run", program("manual_cpu.py"), "--simulate", "1", "--max-copies", "1")
    assert r.returncode == 3 and "Check failed: --max-copies 1: 2 copies (48 bytes)" in r.stderr
    r = devtrace("run", program("manual_cpu.py"), "--simulate", "1", "--max-copies", "2")
    assert r.returncode == 0


def test_summary_counts_ops_copies_and_memory():
    r = devtrace("run", program("multi_tower.py"), "--format", "summary", "--simulate", "4")
    assert r.returncode == 0
    assert "AddN" not in r.stdout  # the summary goes to stderr with the log
    assert "copies" in r.stderr.lower()


def test_log_placement_toggle_takes_effect_when_called(tmp_path):
    path = write(tmp_path, "toggle.py", "import devtrace as tf\nx = tf.constant(1.0)\n"
                 "tf.debugging.set_log_device_placement(True)\ny = x + x\n"
                 "tf.debugging.set_log_device_placement(False)\nz = y + y\n")
    r = devtrace("run", path)
    assert [line for line in r.stderr.splitlines() if line.startswith("Executing op")] == [
        f"Executing op AddV2 in device {FULL}CPU:0"]


def test_unreadable_program_check(monkeypatch, tmp_path):
    """The permission branch, in-process (the subprocess test above skips as root, which reads anything)."""
    from devtrace.cli import _program
    from devtrace.errors import UsageError

    path = write(tmp_path, "secret.py", "print(1)\n")
    monkeypatch.setattr(_program.os, "access", lambda p, mode: False)
    with pytest.raises(UsageError, match=f"^cannot run {path}: permission denied$"):
        _program._check_program(path)


def test_a_tensorflow_program_runs_unchanged(tmp_path):
    text = ("import tensorflow as tf\nimport tensorflow.compat.v1 as tf1\nfrom tensorflow import nn\n"
            "with tf.device('/GPU:1'):\n    x = nn.relu(tf.constant([-1.0, 2.0]))\n"
            "print(tf.__version__, tf1.Session.__name__, x.device)\n")
    r = devtrace("run", write(tmp_path, "tf_prog.py", text), "--simulate", "2")
    assert (r.returncode, r.stdout) == (0, f"2.21.0 Session {FULL}GPU:1\n")


def test_a_tensorflow_program_sees_tensorflows_class_paths(tmp_path):
    """TensorFlow 2.21 prints these; the classes still pickle (their module paths import)."""
    text = ("import pickle\nimport tensorflow as tf\nprint(type(tf.float32))\n"
            "e = tf.errors.InvalidArgumentError(None, None, 'm')\nprint(type(e).__module__)\n"
            "print(type(pickle.loads(pickle.dumps(e))).__name__, pickle.loads(pickle.dumps(tf.int8)))\n")
    r = devtrace("run", write(tmp_path, "paths.py", text))
    assert (r.returncode, r.stdout) == (0, "<class 'tensorflow.python.framework.dtypes.DType'>\n"
                                           "tensorflow.python.framework.errors_impl\nInvalidArgumentError <dtype: 'int8'>\n")
    import devtrace as tf

    assert type(tf.float32).__module__ == "devtrace.runtime.dtypes"  # `import devtrace`: devtrace's own


def test_a_tensorflow_module_devtrace_lacks_is_one_clear_line(tmp_path):
    r = devtrace("run", write(tmp_path, "p.py", "from tensorflow.python.framework import ops\n"))
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == ("Error: p.py raised ModuleNotFoundError: devtrace does not implement "
                                         "tensorflow.python.framework.ops yet")
    assert "as_tensorflow" not in r.stderr and "importlib" not in r.stderr


MATMUL_PROBE = """import tensorflow as tf
tf.debugging.set_log_device_placement(True)
a = tf.constant([[1.0, 2.0]])
print(tf.matmul(a, a, transpose_b=True))
"""


def test_placement_log_prints_tensorflows_one_op_functions_on_stdout(tmp_path):
    """TensorFlow 2.21's printf lines (real TF 2.21, CPU only) on stdout; on stderr their glog copies
    (placer.cc), each function's before the ``Executing op`` line of its op (execute.cc)."""
    r = devtrace("run", write(tmp_path, "p.py", MATMUL_PROBE))
    assert r.returncode == 0, r.stderr
    const, matmul = ("".join(f"{name}: ({kind}): {FULL}CPU:0\n" for name, kind in nodes) for nodes in (
        (("input", "_Arg"), ("_EagerConst", "_EagerConst"), ("output_RetVal", "_Retval")),
        (("a", "_Arg"), ("b", "_Arg"), ("MatMul", "MatMul"), ("product_RetVal", "_Retval"))))
    assert r.stdout == const + matmul + "tf.Tensor([[5.]], shape=(1, 1), dtype=float32)\n"
    assert r.stderr == (f"{const}Executing op _EagerConst in device {FULL}CPU:0\n"
                        f"{matmul}Executing op MatMul in device {FULL}CPU:0\n")


def test_tf_cpp_min_log_level_hides_the_info_lines_but_not_the_printf_lines(tmp_path):
    """TF_CPP_MIN_LOG_LEVEL=1 (real TF 2.21: tests/tf221_oracle's place_log_level1): stderr has no
    INFO line, stdout keeps the placer's printf lines."""
    r = devtrace("run", write(tmp_path, "p.py", MATMUL_PROBE), env={"TF_CPP_MIN_LOG_LEVEL": "1"})
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.splitlines()[:3] == [f"input: (_Arg): {FULL}CPU:0", f"_EagerConst: (_EagerConst): {FULL}CPU:0",
                                         f"output_RetVal: (_Retval): {FULL}CPU:0"]


def test_log_placement_flag_prints_one_line_per_op_only(tmp_path):
    """``--log-placement`` is devtrace's log (the guide's lines): the one-op functions stay unprinted."""
    r = devtrace("run", write(tmp_path, "p.py", MATMUL_PROBE), "--log-placement", "--log-to", "stdout")
    assert r.stdout == (f"Executing op _EagerConst in device {FULL}CPU:0\nExecuting op MatMul in device {FULL}CPU:0\n"
                        "tf.Tensor([[5.]], shape=(1, 1), dtype=float32)\n")


def test_a_variables_name_is_part_of_var_handle_ops_one_op_function(tmp_path):
    """Real TF 2.21: VarHandleOp's function is built again for another name (its debug_name), with
    the name scope; not for the same name again."""
    text = ("import tensorflow as tf\ntf.debugging.set_log_device_placement(True)\n"
            "for name in ('a', 'b', 'a'):\n    print('===', name, flush=True)\n    tf.Variable(1.0, name=name)\n"
            "print('=== scope', flush=True)\nwith tf.name_scope('s'):\n    tf.Variable(1.0, name='a')\n")
    r = devtrace("run", write(tmp_path, "names.py", text))
    handle = [f"resource_RetVal: (_Retval): {FULL}CPU:0", f"VarHandleOp: (VarHandleOp): {FULL}CPU:0"]
    out = r.stdout.splitlines()
    assert out[out.index("=== b"):] == ["=== b"] + handle + ["=== a", "=== scope"] + handle
