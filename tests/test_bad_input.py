"""Bad input of every kind is refused where it enters, in one line naming its source (flag,
environment variable, file and field), with exit 2 — never accepted silently (issue 16)."""

import pytest

from conftest import devtrace

GPU = '[[gpu]]\nname = "A"\nmemory_total = "1GiB"\ncompute_capability = "8.0"\n'


@pytest.mark.parametrize("args,line", [
    (["--simulate", "1", "--limit", "0.0001"], "Error: --limit 0.0001: 0.0001 MiB is below 1 MiB, the smallest GPU "
                                               "memory limit"),
    (["--simulate", "1", "--fraction", "1e-300"], "Error: --fraction 1e-300: leaves GPU 0 (devtrace Simulated GPU) "
                                                  "less than 1 MiB of memory"),
    (["--simulate", "2xH100:1e30"], "Error: --simulate 2xH100:1e30: GPU memory must be between 1 MiB and 4 TiB"),
    (["--simulate", "2xH100:0.5"], "Error: --simulate 2xH100:0.5: GPU memory must be between 1 MiB and 4 TiB"),
    (["--simulate", "65"], "Error: --simulate: GPU count must be between 1 and 64, got 65"),
    (["--simulate", "1", "--limit", "0.5"], "Error: --limit 0.5: 0.5 MiB is below 1 MiB, the smallest GPU memory "
                                            "limit"),
    (["--simulate", "1", "--limit", "64.5"], "Error: --limit 64.5: 64.5 is not a whole number of MiB (memory limits "
                                             "are whole MiB, as TensorFlow's memory_limit; expected e.g. --limit 64)"),
    (["--simulate", "1", "--limit", "512,0.25"], "Error: --limit 512,0.25: 0.25 MiB is below 1 MiB"),
])
def test_absurd_sizes_are_refused(args, line):
    r = devtrace("list", *args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(line) and len(r.stderr.splitlines()) == 1


def test_a_bare_size_means_mib_everywhere(tmp_path):
    import json

    (tmp_path / "m.toml").write_text(GPU.replace('"1GiB"', '"100"'))
    for args in (["--simulate", "1xH100:100"], ["--machine", str(tmp_path / "m.toml")]):
        r = devtrace("list", *args, "--json")
        assert r.returncode == 0, r.stderr
        assert '"memory_total": 104857600,' in r.stdout  # 100 MiB, not 100 bytes
        json.loads(r.stdout)


@pytest.mark.parametrize("text,line", [
    ("", "no GPUs: a machine file lists each GPU as a [[gpu]] table"),
    (GPU + 'uuid = "GPU-1"\n' + GPU + 'uuid = "GPU-1"\n', "gpu[1]: uuid 'GPU-1' repeats gpu[0]'s"),
    (GPU + 'pci_bus_id = "0000:05:00.0"\n' + GPU + 'pci_bus_id = "0000:05:00.0"\n',
     "gpu[1]: pci_bus_id '0000:05:00.0' repeats gpu[0]'s"),
    (GPU.replace('"A"', '"A\\u001b[31mRED"'), "gpu[0]: field 'name' must be a non-empty printable string"),
    (GPU.replace('"1GiB"', "0"), "gpu[0]: GPU memory must be between 1 MiB and 4 TiB"),
    (GPU * 65, "at most 64 GPUs, got 65"),
])
def test_bad_machine_files_name_the_file_and_the_field(tmp_path, text, line):
    path = tmp_path / "m.toml"
    path.write_text(text)
    r = devtrace("list", "--machine", str(path))
    assert r.returncode == 2 and r.stderr.startswith(f"Error: {path}: {line}"), r.stderr
    assert "\x1b" not in r.stderr  # control characters never reach the terminal raw


def test_a_full_width_digit_in_cuda_visible_devices_is_refused():
    r = devtrace("list", "--simulate", "2", env={"CUDA_VISIBLE_DEVICES": "\uff11"})
    assert r.returncode == 2
    assert r.stderr == "Error: CUDA_VISIBLE_DEVICES='\uff11': entry '\uff11' is neither a device index nor a GPU UUID (GPU-…)\n"


def test_a_tensor_a_simulated_gpu_cannot_hold_is_tensorflows_oom_before_host_memory_is_touched(tmp_path):
    prog = tmp_path / "big.py"
    prog.write_text("import devtrace as tf\nwith tf.device('/GPU:0'):\n    x = tf.zeros([2**40])\n")
    r = devtrace("run", str(prog), "--simulate", "1")
    assert r.returncode == 1
    assert ("Error: big.py raised ResourceExhaustedError: {{function_node __wrapped__Fill_device_/job:localhost/"
            "replica:0/task:0/device:GPU:0}} OOM when allocating tensor with shape[1099511627776] and type float on "
            "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:Fill] name:") in r.stderr


def test_a_trace_whose_fields_have_the_wrong_types_is_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"schema": 1, "event": "trace_start"}\n{"schema": 1, "event": "op_placed", "seq": "x", "op": "A", '
                   '"node": null, "requested": "", "device": "d", "reason": "default"}\n')
    r = devtrace("diff", str(bad), str(bad))
    assert (r.returncode, r.stderr) == (2, f"Error: {bad}:2: invalid op_placed event (field 'seq' must be an integer, "
                                           f"got \"x\")\n")


@pytest.mark.parametrize("body,code,last", [
    ("class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\nraise E()\n", 1,
     "Error: p.py raised E: <exception str() failed>"),
    ("import sys, devtrace as tf\ntf.add(1.0, 2.0)\nsys.stdout.close()\n", 0, None),
])
def test_a_program_that_breaks_its_own_output_gets_no_devtrace_traceback(tmp_path, body, code, last):
    prog = tmp_path / "p.py"
    prog.write_text(body)
    r = devtrace("run", str(prog), "--format", "summary")
    assert r.returncode == code
    assert "devtrace/" not in "".join(line for line in r.stderr.splitlines(True) if line.strip().startswith("File"))
    if last:
        assert last in r.stderr.splitlines()


@pytest.mark.parametrize("args", [["run", "{prog}", "--trace", "/proc/t.jsonl"], ["import", "{log}", "-o", "/proc/x.jsonl"]])
def test_an_unwritable_output_is_refused_before_any_work(tmp_path, args):
    prog, log = tmp_path / "p.py", tmp_path / "tf.log"
    prog.write_text("print('ran')\n")
    log.write_text("Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0\n")
    r = devtrace(*[a.replace("{prog}", str(prog)).replace("{log}", str(log)) for a in args])
    assert r.returncode == 2 and "ran" not in r.stdout
    assert r.stderr.startswith("Error: --") and ": cannot write (" in r.stderr and len(r.stderr.splitlines()) == 1
