"""Golden tests: each eager example of the seeds, run through ``devtrace run`` on the matching
machine, against the lines and values the guide documents."""

import json

import pytest

from conftest import devtrace, machine, program

FULL = "/job:localhost/replica:0/task:0/device:"
MATMUL_VALUE = "tf.Tensor(\n[[22. 28.]\n [49. 64.]], shape=(2, 2), dtype=float32)\n"


def test_matmul_log_on_one_gpu():
    r = devtrace("run", program("matmul_log.py"), "--log-placement", "--simulate", "1")
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [
        f"Executing op _EagerConst in device {FULL}GPU:0",
        f"Executing op _EagerConst in device {FULL}GPU:0",
        f"Executing op MatMul in device {FULL}GPU:0",
    ]
    assert r.stdout == MATMUL_VALUE


def test_log_lines_interleave_with_program_output_on_one_stream():
    r = devtrace("run", program("matmul_log.py"), "--log-placement", "--simulate", "1", "--log-to", "stdout")
    assert r.stdout == (f"Executing op _EagerConst in device {FULL}GPU:0\n" * 2
                        + f"Executing op MatMul in device {FULL}GPU:0\n" + MATMUL_VALUE)


def test_manual_cpu_placement_table_shows_copies():
    r = devtrace("run", program("manual_cpu.py"), "--format", "table", "--simulate", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout == MATMUL_VALUE
    rows = [line.split() for line in r.stderr.splitlines()]
    assert rows[0][:6] == ["seq", "op", "node", "requested", "device", "reason"]
    # a and b are made on the host CPU under '/CPU:0' with no op (TensorFlow 2.21 executes no
    # _EagerConst there): one row, the MatMul, with its two inputs copied from CPU:0
    (mm,) = [line.split() for line in r.stderr.splitlines()[1:]]
    assert mm[:5] == ["1", "MatMul", "GPU:0", "default", "2"] and r.stderr.rstrip().endswith("2 (48 B)   manual_cpu.py:11")


def test_manual_cpu_placement_log():
    # the guide's log: "Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0" alone
    r = devtrace("run", program("manual_cpu.py"), "--log-placement", "--simulate", "1")
    assert r.stderr.splitlines() == [f"Executing op MatMul in device {FULL}GPU:0"]


def test_manual_cpu_placement_copies_in_the_trace(tmp_path):
    trace = tmp_path / "t.jsonl"
    r = devtrace("run", program("manual_cpu.py"), "--trace", str(trace), "--simulate", "1")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert [e["op"] for e in events if e["event"] == "op_placed"] == ["MatMul"]
    copies = [(e["src"], e["dst"], e["nbytes"]) for e in events if e["event"] == "tensor_copied"]
    assert copies == [(f"{FULL}CPU:0", f"{FULL}GPU:0", 24)] * 2


def test_visible_devices_on_four_gpus():
    r = devtrace("run", program("visible_devices.py"), "--simulate", "4")
    assert r.stdout == "4 Physical GPUs, 1 Logical GPU\n"


def test_visible_devices_after_initialisation_prints_tensorflows_text():
    r = devtrace("run", program("visible_after_init.py"), "--simulate", "4")
    assert r.returncode == 0
    assert r.stdout == "Visible devices cannot be modified after being initialized\n"  # print(e): TensorFlow's text


def test_memory_growth_guide_example():
    r = devtrace("run", program("memory_growth.py"), "--simulate", "4")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["4 Physical GPUs, 4 Logical GPUs",
                                     "{'current': 6291456, 'peak': 6291456}"]


def test_memory_limit_guide_example():
    r = devtrace("run", program("memory_limit.py"), "--machine", machine("k20m-x4.toml"))
    assert r.stdout == "4 Physical GPUs, 4 Logical GPUs\n"


def test_invalid_gpu2_soft_placement_on_one_gpu():
    r = devtrace("run", program("invalid_gpu2.py"), "--log-placement", "--format", "tf2",
                 "--machine", machine("k40c-x1.toml"))
    assert r.returncode == 0
    assert r.stderr.splitlines() == [f"Executing op _EagerConst in device {FULL}GPU:0"] * 2 + [
        f"Executing op MatMul in device {FULL}GPU:0"]


def test_invalid_gpu2_on_four_gpus_runs_there():
    r = devtrace("run", program("invalid_gpu2.py"), "--log-placement", "--simulate", "4")
    assert r.stderr.splitlines() == [f"Executing op _EagerConst in device {FULL}GPU:2"] * 2 + [
        f"Executing op MatMul in device {FULL}GPU:2"]


def test_invalid_gpu2_without_soft_placement_fails():
    r = devtrace("run", program("invalid_gpu2.py"), "--no-soft-placement", "--machine", machine("k40c-x1.toml"))
    assert r.returncode == 1
    assert ("devtrace.errors.InvalidArgumentError: Could not satisfy device specification "
            f"'{FULL}GPU:2'. enable_soft_placement=0. Supported device types [GPU, CPU]. All available devices "
            f"[{FULL}CPU:0, {FULL}GPU:0].\n") in r.stderr  # TensorFlow 2.21: no [Op:] when creating a tensor
    assert r.stderr.splitlines()[-1].startswith("Error: invalid_gpu2.py raised InvalidArgumentError: Could not satisfy")
    assert "devtrace/runtime" not in r.stderr  # devtrace's own frames are hidden


def test_soft_placement_example():
    r = devtrace("run", program("soft_placement.py"), "--log-placement", "--simulate", "1")
    assert r.stderr.splitlines() == [f"Executing op _EagerConst in device {FULL}GPU:0"] * 2 + [
        f"Executing op MatMul in device {FULL}GPU:0"]
    assert r.stdout == MATMUL_VALUE


def test_two_virtual_gpus():
    r = devtrace("run", program("virtual_gpus.py"), "--simulate", "1", "--format", "summary")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["1 Physical GPU, 2 Logical GPUs", f"{FULL}GPU:1"]


def test_multi_tower_on_four_gpus():
    r = devtrace("run", program("multi_tower.py"), "--log-placement", "--simulate", "4")
    assert r.returncode == 0, r.stderr
    expected = []
    for i in range(4):
        expected += [f"Executing op _EagerConst in device {FULL}GPU:{i}"] * 2
        expected.append(f"Executing op MatMul in device {FULL}GPU:{i}")
    expected.append(f"Executing op AddN in device {FULL}CPU:0")
    assert r.stderr.splitlines() == expected
    assert r.stdout == "tf.Tensor(\n[[ 88. 112.]\n [196. 256.]], shape=(2, 2), dtype=float32)\n"


def test_cast_falls_back_to_cpu_under_compat_tf1():
    # the guide's sentence ("tf.cast only has a CPU kernel") is its TensorFlow 1's: --compat tf1
    r = devtrace("run", program("cast_fallback.py"), "--format", "jsonl", "--log-to", "stdout", "--simulate", "1",
                 "--compat", "tf1")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    (cast,) = [e for e in events if e.get("op") == "Cast" and e["event"] == "op_placed"]
    assert cast["device"] == f"{FULL}CPU:0" and cast["reason"] == "fallback:no-GPU-kernel"
    assert cast["requested"] == f"{FULL}GPU:0"
    # jsonl owns stdout: the program's own output went to stderr
    assert "tf.Tensor([1 2 3], shape=(3,), dtype=int32)" in r.stderr and "tf.Tensor" not in r.stdout


def test_cast_runs_on_the_gpu_by_default():
    # TensorFlow 2.21 registers GPU Cast kernels for every numeric pair (tests/tf221/kernels/)
    r = devtrace("run", program("cast_fallback.py"), "--log-placement", "--simulate", "1")
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [f"Executing op _EagerConst in device {FULL}GPU:0",
                                     f"Executing op Cast in device {FULL}GPU:0"]


def test_compat_tf1_from_the_environment_for_a_plain_python_run():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVTRACE_")}
    env.update(DEVTRACE_SIMULATE="1", DEVTRACE_NVML="0")
    ran = {}
    for compat in ("tf1", "tf2", None):
        extra = {} if compat is None else {"DEVTRACE_COMPAT": compat}
        r = subprocess.run([sys.executable, program("cast_fallback.py")], capture_output=True, text=True,
                           env={**env, **extra})
        assert r.returncode == 0, r.stderr
        ran[compat] = [line.rsplit("device:", 1)[1] for line in r.stderr.splitlines() if "op Cast" in line]
    assert ran == {"tf1": ["CPU:0"], "tf2": ["GPU:0"], None: ["GPU:0"]}
    r = subprocess.run([sys.executable, program("cast_fallback.py")], capture_output=True, text=True,
                       env={**env, "DEVTRACE_COMPAT": "tf0"})
    assert r.returncode != 0 and r.stderr.splitlines()[-1].endswith(
        "DEVTRACE_COMPAT=tf0: choose tf2 (TensorFlow 2.21, the default) or tf1 (the 2017 guide's TensorFlow 1: "
        "Cast on the CPU only, TF1 graph order, ref variables)")


@pytest.mark.parametrize("flag", [["--compat", "tf3"], ["--compat="]])
@pytest.mark.parametrize("command", ["run", "mem", "list"])
def test_a_bad_compat_value_is_one_line_and_exit_2(command, flag):
    args = [program("cast_fallback.py")] if command != "list" else []
    r = devtrace(command, *args, *flag, "--simulate", "1")
    value = flag[1] if len(flag) > 1 else ""
    assert r.returncode == 2 and r.stderr.splitlines() == [
        f"Error: --compat {value}: choose tf2 (TensorFlow 2.21, the default) or tf1 (the 2017 guide's "
        f"TensorFlow 1: Cast on the CPU only, TF1 graph order, ref variables)"]


def test_a_bad_compat_variable_under_devtrace_run_is_one_line_and_exit_2():
    r = devtrace("run", program("cast_fallback.py"), "--simulate", "1", env={"DEVTRACE_COMPAT": "tf0"})
    assert r.returncode == 2 and r.stderr.splitlines() == [
        "Error: DEVTRACE_COMPAT=tf0: choose tf2 (TensorFlow 2.21, the default) or tf1 (the 2017 guide's "
        "TensorFlow 1: Cast on the CPU only, TF1 graph order, ref variables)"]
    r = devtrace("run", program("cast_fallback.py"), "--simulate", "1", "--compat", "tf2", env={"DEVTRACE_COMPAT": "tf0"})
    assert r.returncode == 0, r.stderr  # the flag wins over the variable


def test_the_fallback_lesson_holds_by_default_for_an_op_without_a_gpu_kernel():
    # RandomShuffle has no GPU kernel in TensorFlow 2.21 (tests/tf221/kernels/): under '/GPU:0' it runs on CPU:0
    r = devtrace("run", program("shuffle_fallback.py"), "--format", "table", "--simulate", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "[1.5, 2.5, 3.5]\n"
    rows = [line.split() for line in r.stderr.splitlines()[1:]]
    assert rows == [["1", "_EagerConst", "GPU:0", "GPU:0", "explicit", "shuffle_fallback.py:8"],
                    ["2", "RandomShuffle", "GPU:0", "CPU:0", "fallback:no-GPU-kernel", "1", "(12", "B)",
                     "shuffle_fallback.py:9"]]
    r = devtrace("run", program("shuffle_fallback.py"), "--log-placement", "--simulate", "1")
    assert r.stderr.splitlines()[-1] == f"Executing op RandomShuffle in device {FULL}CPU:0"


@pytest.mark.parametrize("name", ["matmul_log.py", "manual_cpu.py", "visible_devices.py", "visible_after_init.py",
                                  "memory_growth.py", "memory_limit.py", "invalid_gpu2.py", "soft_placement.py",
                                  "virtual_gpus.py", "multi_tower.py", "cast_fallback.py", "towers4.py",
                                  "shuffle_fallback.py"])
def test_every_fixture_runs_without_any_gpu(name):
    r = devtrace("run", program(name), "--format", "jsonl", "--log-to", "stdout")
    assert r.returncode == 0, r.stderr
    placed = [json.loads(line) for line in r.stdout.splitlines()
              if line.startswith("{") and '"op_placed"' in line]
    assert all(e["device"] == f"{FULL}CPU:0" for e in placed)
    assert all(e["reason"] in ("default", "explicit", "soft:unknown-device") for e in placed)


def test_towers_without_gpus_are_soft_placed_on_cpu():
    r = devtrace("run", program("towers4.py"), "--format", "table")
    assert r.returncode == 0
    mm = [line for line in r.stderr.splitlines() if "MatMul" in line]
    assert len(mm) == 4 and all("CPU:0" in line and "soft:unknown-device" in line for line in mm)
    assert "[[ 88. 112.]" in r.stdout


def test_expect_matmul_on_gpu():
    r = devtrace("run", program("matmul_log.py"), "--expect", "MatMul=GPU")
    assert r.returncode == 3
    assert "Check failed: --expect MatMul=GPU: 1 of 1 MatMul ops ran elsewhere: #3 on CPU:0 (default)" in r.stderr
    assert r.stderr.splitlines()[-1] == "Error: 1 check failed"
    ok = devtrace("run", program("matmul_log.py"), "--expect", "MatMul=GPU", "--simulate", "1")
    assert ok.returncode == 0, ok.stderr


FIT = """import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x, y = np.random.rand(60, 28, 28).astype("float32"), np.random.randint(0, 10, 60)
model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)), tf.keras.layers.Dense(16, activation="relu"),
                             tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
"""


def test_a_keras_fit_on_two_gpus_has_no_cast_fallback(tmp_path):
    # the quickstart's fit: TensorFlow 2.21 casts on the GPU (the issue: ~15,000 fallbacks before). 60 samples: the
    # last batch is smaller, so the step is traced for any batch size, its loss gradient's shape arithmetic in the graph
    prog = tmp_path / "fit.py"
    prog.write_text(FIT)
    r = devtrace("run", str(prog), "--simulate", "2", "--format", "summary")
    assert r.returncode == 0, r.stderr
    assert "fallbacks: 0\n" in r.stderr
    r = devtrace("run", str(prog), "--simulate", "2", "--format", "jsonl", "--compat", "tf1")
    assert r.returncode == 0, r.stderr  # a tf.function's graph is placed as TensorFlow 2 does, also under tf1
    placed = [json.loads(line) for line in r.stdout.splitlines() if '"op_placed"' in line]
    casts = [e for e in placed if e["op"] == "Cast"]
    assert casts and all(e["device"].endswith("CPU:0") for e in casts)  # a gradient's Cast: colocated with it
    assert {e["reason"] for e in casts} == {"fallback:no-GPU-kernel", "colocated"}
