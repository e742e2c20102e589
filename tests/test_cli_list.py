"""``devtrace list`` / ``spec`` / shared configuration flags: issue #2's acceptance lines."""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT, devtrace, machine, no_driver

MiB = 1 << 20


@no_driver
def test_no_driver_lists_cpu_and_says_why():
    r = devtrace("list", env={"DEVTRACE_NVML": None})
    assert r.returncode == 0, r.stderr
    assert "/physical_device:CPU:0" in r.stdout and "/device:CPU:0" in r.stdout
    notes = [line for line in r.stdout.splitlines() if line.startswith("Note:")]
    assert notes == ["Note: no NVIDIA driver found (no /dev/nvidiactl): CPU only; simulate GPUs with "
                     "--simulate 2 (or DEVTRACE_SIMULATE=2)"]
    assert "Traceback" not in r.stderr


@no_driver
def test_no_driver_require_gpus_exits_3():
    r = devtrace("list", "--require-gpus", "1", env={"DEVTRACE_NVML": None})
    assert r.returncode == 3
    assert r.stderr.strip().splitlines()[-1] == (
        "Error: --require-gpus 1: 0 logical GPUs available (no NVIDIA driver found (no /dev/nvidiactl): CPU only; "
        "simulate GPUs with --simulate 2 (or DEVTRACE_SIMULATE=2))")


@no_driver
def test_no_driver_json_parses():
    r = devtrace("list", "--json", env={"DEVTRACE_NVML": None})
    assert r.returncode == 0
    doc = json.loads(r.stdout)
    assert doc["schema"] == 1 and doc["backend"] == "cpu"
    assert [d["name"] for d in doc["logical_devices"]] == ["/device:CPU:0"]
    assert doc["note"].startswith("no NVIDIA driver found")


def test_k20m_limits_and_visibility_json():
    r = devtrace("list", "--machine", machine("k20m-x4.toml"), "--limit", "1024,1024", "--visible", "1,3", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    gpus = [d for d in doc["physical_devices"] if d["device_type"] == "GPU"]
    assert [(d["name"], d["pci_bus_id"], d["visible"]) for d in gpus] == [
        ("/physical_device:GPU:0", "0000:02:00.0", False), ("/physical_device:GPU:1", "0000:03:00.0", True),
        ("/physical_device:GPU:2", "0000:83:00.0", False), ("/physical_device:GPU:3", "0000:84:00.0", True)]
    logical = [d for d in doc["logical_devices"] if d["device_type"] == "GPU"]
    assert [(d["name"], d["physical_device"], d["memory_limit"], d["memory_reserved"], d["policy"]) for d in logical] == [
        ("/device:GPU:0", "/physical_device:GPU:1", 1024 * MiB, 1024 * MiB, "limit"),
        ("/device:GPU:1", "/physical_device:GPU:1", 1024 * MiB, 1024 * MiB, "limit"),
        ("/device:GPU:2", "/physical_device:GPU:3", 1024 * MiB, 1024 * MiB, "limit"),
        ("/device:GPU:3", "/physical_device:GPU:3", 1024 * MiB, 1024 * MiB, "limit")]
    assert all(d["simulated"] for d in logical)


def test_cuda_visible_devices_reorders_simulated_gpus():
    r = devtrace("list", "--simulate", "4", "--json", env={"CUDA_VISIBLE_DEVICES": "2,0"})
    doc = json.loads(r.stdout)
    gpus = [d for d in doc["physical_devices"] if d["device_type"] == "GPU"]
    assert [(d["name"], d["index"]) for d in gpus] == [("/physical_device:GPU:0", 2), ("/physical_device:GPU:1", 0)]


def test_simulate_env_reaches_a_plain_python_program(tmp_path):
    prog = tmp_path / "p.py"
    prog.write_text("import devtrace as tf\nprint(len(tf.config.list_physical_devices('GPU')))\n")
    env = dict(os.environ, DEVTRACE_SIMULATE="2xH100", PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env)
    assert done.stdout == "2\n"


def test_table_is_plain_when_piped():
    r = devtrace("list", "--simulate", "2xH100")
    assert "\x1b[" not in r.stdout
    lines = r.stdout.splitlines()
    assert lines[0] == "Physical devices (simulated)"
    assert any(line.startswith("/physical_device:GPU:1  GPU   1      NVIDIA H100 80GB HBM3") for line in lines)
    assert "/device:GPU:1   GPU   /physical_device:GPU:1  79759 MiB  79759 MiB  preallocate" in r.stdout


@pytest.mark.parametrize("args, env, message", [
    (["--limit", "-1", "--simulate", "1"], {}, "Error: --limit -1: -1 MiB is not a positive memory limit"),
    (["--limit", "abc", "--simulate", "1"], {}, "Error: --limit abc: 'abc' is not a number of MiB (expected e.g. --limit 1024)"),
    (["--limit", "0", "--simulate", "1"], {}, "Error: --limit 0: 0 MiB is not a positive memory limit"),
    (["--limit", "99999", "--simulate", "1xK20m"], {},
     "Error: --limit 99999: Virtual devices on /physical_device:GPU:0 ask for 99999 MiB in total but the GPU has "
     "4743 MiB free (Tesla K20m, 4743 MiB total)"),
    (["--limit", "1024"], {}, "Error: --limit 1024: there is no visible GPU to limit; simulate one with --simulate 1"),
    (["--fraction", "0", "--simulate", "1"], {}, "Error: --fraction 0: must be in (0, 1], e.g. --fraction 0.4"),
    (["--fraction", "1.5", "--simulate", "1"], {}, "Error: --fraction 1.5: must be in (0, 1], e.g. --fraction 0.4"),
    (["--visible", "9", "--simulate", "4"], {}, "Error: --visible 9: there is no GPU 9; this process sees 4 GPUs (0-3)"),
    (["--visible", "x", "--simulate", "4"], {}, "Error: --visible x: 'x' is not a GPU index (expected e.g. --visible 0,2)"),
    (["--growth", "--limit", "512", "--simulate", "1"], {},
     "Error: --growth has no effect with --limit: TensorFlow ignores memory growth on GPUs with virtual devices "
     "(tensorflow#38367); choose one"),
    (["--simulate", "2xFoo"], {}, "Error: --simulate: unknown GPU model 'Foo'; known models: K20m, K40c, K80"),
    (["--simulate", "2", "--machine", "x.toml"], {}, "Error: --simulate and --machine both describe the machine; give one"),
    (["--simulate", "2"], {"CUDA_VISIBLE_DEVICES": "abc"},
     "Error: CUDA_VISIBLE_DEVICES='abc': entry 'abc' is neither a device index nor a GPU UUID (GPU-…)"),
    (["--simulate", "2"], {"CUDA_DEVICE_ORDER": "RANDOM"},
     "Error: CUDA_DEVICE_ORDER='RANDOM' is not valid; use FASTEST_FIRST or PCI_BUS_ID"),
])
def test_bad_input_is_one_line_and_exit_2(args, env, message):
    r = devtrace("list", *args, env=env)
    assert r.returncode == 2
    assert r.stderr.startswith(message)
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize("body, message", [
    ('[[gpu]]\nname = "X"\ncompute_capability = "8.0"\n', "gpu[0]: missing field 'memory_total'"),
    ('[[gpu]]\nname = "X"\nmemory_total = true\ncompute_capability = "8.0"\n',
     "gpu[0]: field 'memory_total' must be a size like \"16GiB\" or an integer number of MiB, got True"),
])
def test_bad_machine_file_exit_2(tmp_path, body, message):
    path = tmp_path / "bad.toml"
    path.write_text(body)
    r = devtrace("list", "--machine", str(path))
    assert r.returncode == 2
    assert r.stderr == f"Error: {path}: {message}\n"


def test_spec_command_table_and_json():
    r = devtrace("spec", "/gpu:1", "GPU", "/job:worker/replica:2/device:CPU:0")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[1].split() == ["/gpu:1", "/device:GPU:1", "*", "*", "*", "GPU", "1"]
    assert lines[2].split() == ["GPU", "/device:GPU:*", "*", "*", "*", "GPU", "*"]
    r = devtrace("spec", "/job:localhost/replica:0/task:0/device:GPU:1", "--json")
    (d,) = json.loads(r.stdout)["specs"]
    assert d == {"input": "/job:localhost/replica:0/task:0/device:GPU:1", "job": "localhost", "replica": 0,
                 "task": 0, "device_type": "GPU", "device_index": 1,
                 "canonical": "/job:localhost/replica:0/task:0/device:GPU:1"}


@pytest.mark.parametrize("text, message", [
    ("/foo:bar", "Unknown attribute 'foo' is encountered while parsing the device spec: '/foo:bar'."),
    ("/cpu:0/gpu:1", "Multiple device types are not allowed while parsing the device spec: '/cpu:0/gpu:1'."),
])
def test_spec_command_rejects_malformed_strings(text, message):
    r = devtrace("spec", "GPU:0", text)
    assert r.returncode == 2
    assert r.stderr == f"Error: {message}\n"
    assert r.stdout == ""


def test_help_and_version():
    r = devtrace("--help")
    assert r.returncode == 0 and "list" in r.stdout and "run" in r.stdout
    r = devtrace("--version")
    assert r.stdout == "devtrace 0.1.0\n"
    r = devtrace("frobnicate")
    assert r.returncode == 2


def test_help_and_list_do_not_import_cupy_or_nvml():
    code = ("import sys, runpy; sys.argv = ['devtrace'] + sys.argv[1:]\n"
            "try:\n    runpy.run_module('devtrace', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('cupy', 'pynvml', 'numpy', 'ray') if m in sys.modules), file=sys.stderr)")
    cases = [(["--help"], []), (["list", "--simulate", "2"], []), (["list", "--simulate", "2", "--json"], [])]
    if not os.path.exists("/dev/nvidiactl"):  # CPU-only: nothing to ask NVML, so it is not even imported
        cases.append((["list"], []))
    for args, allowed in cases:
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
        assert done.stderr.strip().splitlines()[-1] == str(allowed), (args, done.stderr)


def test_rich_table_on_a_terminal_and_no_color():
    r = devtrace("list", "--simulate", "1", env={"TTY_COMPATIBLE": "1", "NO_COLOR": "1"})
    assert r.returncode == 0
    assert "┏" in r.stdout and "│ /physical_device:GPU:0 │ GPU  │ 0     │" in r.stdout
    assert not re.search(r"\x1b\[(3[0-9]|38;)", r.stdout)  # NO_COLOR: no foreground colours (bold/italic may stay)


def test_bad_tf_force_gpu_allow_growth_is_reported_not_fatal():
    r = devtrace("list", "--simulate", "1", "--json", env={"TF_FORCE_GPU_ALLOW_GROWTH": "yes"})
    assert r.returncode == 0
    message = ('The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could not be parsed: "yes". '
               'Valid values are "true" or "false". Using original config value of 0.')
    assert r.stderr == f"ERROR:tensorflow:{message}\n"
    doc = json.loads(r.stdout)
    assert doc["messages"] == [message] and doc["logical_devices"][1]["policy"] == "preallocate"


def test_tf_version_is_the_tensorflow_api_level():
    import devtrace as tf

    assert tf.__version__ == "2.21.0" and tf.version.VERSION == "2.21.0"
    assert tf.__devtrace_version__ == "0.1.0" == devtrace("--version").stdout.split()[1]
