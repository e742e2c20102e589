"""CuPy's own allocations on a real GPU, counted apart from the tensors' (issue 30).

CuPy allocates from the device's pool for itself: a reduction's workspace for the call, an FFT
plan's work area that its plan cache keeps, a kernel's temporaries. devtrace's figures (bytes in
use, peak, allocations) are the tensors' — equal to a simulated GPU's for the same program — and
the pool bytes CuPy holds for itself are reported apart (``cupy_own``, ``cupy_own_peak``), seen
through CuPy's memory hooks (the strict fake calls them as CuPy 14 does)."""

import json

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, GPUInfo, Machine
from devtrace.runtime import backends
from devtrace.runtime.context import reset_context

from conftest import ROOT, devtrace
from fake_cupy import REDUCTION_WORKSPACE, FakeCupy, FakeGPU

# sizes that are multiples of 512 bytes: the BFC allocator's rounding (256) and CuPy's (512) agree
PROGRAM = """\
import tensorflow as tf
with tf.device("/GPU:0"):
    x = tf.ones([128, 128])                       # 64 KiB
    column_sums = tf.reduce_sum(x, axis=0)        # 512 B; CuPy takes a workspace for the call
    spectrum = tf.signal.fft(tf.complex(x, x))    # 128 KiB; CuPy caches the plan and its work area
    del x
print(column_sums.numpy()[:2], spectrum.shape)
"""


def gpu_context(kind, monkeypatch):
    """A one-GPU machine: ``simulated``, or ``real`` (NVML's GPU, CuPy the strict fake)."""
    gpus = tuple(simulated.parse_simulate("1"))
    fake = None
    if kind == "real":
        gpus = tuple(GPUInfo(**{**g.__dict__, "backend": "nvml"}) for g in gpus)
        fake = FakeCupy(gpus=[FakeGPU(g.name, g.memory_total, g.multiprocessor_count, g.compute_capability,
                                      g.pci_bus_id, g.uuid) for g in gpus])
        monkeypatch.setattr(backends, "_import_cupy", lambda: fake)
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated"), env={})
    ctx.ensure_initialized("test")
    return ctx, ctx.devices[1], fake


def run_program(kind, monkeypatch):
    ctx, device, fake = gpu_context(kind, monkeypatch)
    kept = {}
    names = {"tf": tf, "print": lambda *a: kept.setdefault("out", a)}  # the program's tensors live on in it
    exec(PROGRAM.replace("import tensorflow as tf\n", ""), names)
    a = device.allocator
    figures = {"in_use": a.bytes_in_use, "peak": a.peak_bytes_in_use, "num_allocs": a.num_allocs,
               "live": [n for n, _ in a.live_allocations()]}
    return figures, device, fake, kept["out"], names


def test_tensor_figures_equal_the_simulated_gpus_and_cupys_own_bytes_are_apart(monkeypatch):
    simulated_figures, _, _, simulated_out, _ = run_program("simulated", monkeypatch)
    real_figures, device, fake, real_out, program_names = run_program("real", monkeypatch)
    assert real_figures == simulated_figures
    assert simulated_figures["live"] == [128 * 1024, 512]  # the spectrum and the column sums
    assert np.array_equal(real_out[0], simulated_out[0]) and real_out[1] == simulated_out[1]
    backend = device.backend
    with fake.cuda.Device(0):
        plans = fake.fft.config.get_plan_cache()
        assert plans.get_curr_size() == 1 and plans.get_curr_memsize() == 128 * 1024
        assert backend.pool.used_bytes() == real_figures["in_use"] + 128 * 1024  # the pool: tensors + the plan
    assert backend.own_bytes() == 128 * 1024
    # at most at once: the FFT kernel's own temporary (NumPy's result before the cast) beside the plan
    assert backend.own_peak == 2 * 128 * 1024
    with fake.cuda.Device(0):
        plans.clear()
    assert backend.own_bytes() == 0 and device.allocator.bytes_in_use == real_figures["in_use"]


def test_a_reductions_workspace_is_cupys_own_for_the_call_only(monkeypatch):
    ctx, device, fake = gpu_context("real", monkeypatch)[:3]
    with tf.device("/GPU:0"):
        x = tf.ones([128])  # 512 B
        total = tf.reduce_sum(x)  # a 0-d result: one 512-byte unit
    assert device.allocator.bytes_in_use == 1024 == device.backend.used_bytes()
    assert device.backend.own_bytes() == 0 and device.backend.own_peak == REDUCTION_WORKSPACE
    assert float(total) == 128.0


def test_an_output_at_a_freed_temporarys_address_is_the_outputs(monkeypatch):
    """CuPy hands a freed block out again: the output's buffer is the last allocation at its
    address, the temporary that was there before is CuPy's own."""
    ctx, device, fake = gpu_context("real", monkeypatch)[:3]
    hook = device.backend._watch
    with fake.cuda.Device(0):
        with hook:
            temporary = fake.zeros(128, np.float32)
            address = temporary.data.ptr
            del temporary
            out = fake.ones(128, np.float32)
        assert out.data.ptr == address
        assert hook.own_peak(out, fake.ndarray) == 512
        with hook:
            out2 = fake.ones(128, np.float32)
        assert hook.own_peak(out2, fake.ndarray) == 0


def test_devtrace_mem_reports_cupys_own_bytes_apart(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    import subprocess
    import sys

    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("DEVTRACE_")}
    env.update({"COLUMNS": "200", "NO_COLOR": "1"})
    real = subprocess.run([sys.executable, "tests/fake_gpu_cli.py", "mem", "--json", str(prog)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)
    assert real.returncode == 0, real.stderr
    sim = devtrace("mem", "--json", "--simulate", "1", str(prog))
    assert sim.returncode == 0, sim.stderr
    real_gpu = json.loads(real.stdout)["devices"][1]
    sim_gpu = json.loads(sim.stdout)["devices"][1]
    assert {k: real_gpu[k] for k in ("in_use", "peak", "num_allocs")} == \
        {k: sim_gpu[k] for k in ("in_use", "peak", "num_allocs")} == {"in_use": 131584, "peak": 328192, "num_allocs": 4}
    assert (real_gpu["cupy_own"], real_gpu["cupy_own_peak"]) == (131072, 262144)
    assert "cupy_own" not in sim_gpu
    table = subprocess.run([sys.executable, "tests/fake_gpu_cli.py", "mem", str(prog)], capture_output=True,
                           text=True, cwd=ROOT, env=env, timeout=120)
    assert ("CuPy's own allocations in the pool (FFT plans, workspaces, temporaries; in no tensor, not in IN USE): "
            "/device:GPU:0 128.0 KiB now, 256.0 KiB at peak.") in table.stdout.splitlines(), table.stdout
