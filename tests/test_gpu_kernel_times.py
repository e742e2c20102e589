"""Ops' times on a real GPU (issue 30): CuPy launches kernels asynchronously, so the host's time
around a kernel call is its launch, not the GPU's work. While devtrace records a trace for a
timeline it times each op's kernels with CUDA events on the device's stream and waits for the
second; the trace says which (``trace_start``'s ``gpu_times``) and so do the timeline and report.
Checked through the strict fake CuPy, whose events complete only when the host waits for them
and whose clock counts one microsecond per kernel queued on the stream."""

import json
import subprocess
import sys

import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, GPUInfo, Machine
from devtrace.runtime import backends
from devtrace.runtime.context import reset_context

from conftest import ROOT
from fake_cupy import CUDARuntimeError, FakeCupy, FakeGPU


def real_gpu(monkeypatch):
    gpus = tuple(GPUInfo(**{**g.__dict__, "backend": "nvml"}) for g in simulated.parse_simulate("1"))
    fake = FakeCupy(gpus=[FakeGPU(g.name, g.memory_total, g.multiprocessor_count, g.compute_capability,
                                  g.pci_bus_id, g.uuid) for g in gpus])
    monkeypatch.setattr(backends, "_import_cupy", lambda: fake)
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "nvml"), env={})
    return ctx, fake


def test_fake_events_complete_only_when_the_host_waits_for_them():
    fake = FakeCupy(gpus=[FakeGPU()])
    with fake.cuda.Device(0):
        start, end = fake.cuda.Event(), fake.cuda.Event()
        start.record()
        x = fake.ones(4, "float32")
        x = x * 2.0
        end.record()
        assert not end.done
        with pytest.raises(CUDARuntimeError, match="cudaErrorNotReady"):
            fake.cuda.get_elapsed_time(start, end)
        end.synchronize()  # the stream's earlier events complete with it
        assert start.done and end.done and fake.cuda.get_elapsed_time(start, end) == pytest.approx(2e-3)


def test_ops_on_a_real_gpu_take_the_gpus_time_between_cuda_events_when_timed(monkeypatch):
    ctx, fake = real_gpu(monkeypatch)
    ctx.time_gpu_kernels()
    with tf.device("/GPU:0"):
        x = tf.ones([8, 8])
        y = tf.matmul(x, x)
    matmul = [e for e in ctx.trace.events if getattr(e, "op", None) == "MatMul"][-1]
    assert matmul.duration_ns == 1000  # one kernel on the stream between the events: 1 µs
    assert float(y[0, 0]) == 8.0
    waits = [k for k in fake.kernels if k[0] == "event-synchronize"]
    assert len(waits) == sum(1 for e in ctx.trace.events if getattr(e, "device", "").endswith("GPU:0")
                             and getattr(e, "kind", None) == "op_placed" and e.op != "_EagerConst")


def test_ops_on_a_real_gpu_are_not_waited_for_without_a_trace(monkeypatch):
    ctx, fake = real_gpu(monkeypatch)
    with tf.device("/GPU:0"):
        y = tf.matmul(tf.ones([8, 8]), tf.ones([8, 8]))
    assert not [k for k in fake.kernels if k[0] == "event-synchronize"]
    assert ctx.devices[1].backend.kernel_ns is None and float(y[0, 0]) == 8.0


def test_a_trace_says_how_real_gpus_were_timed_and_the_timeline_too(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("import tensorflow as tf\nwith tf.device('/GPU:0'):\n    y = tf.matmul(tf.ones([8, 8]), "
                    "tf.ones([8, 8]))\nprint(float(y[0, 0]))\n")
    trace = tmp_path / "t.jsonl"
    done = subprocess.run([sys.executable, "tests/fake_gpu_cli.py", "run", "--trace", str(trace), str(prog)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": "200"})
    assert done.returncode == 0 and done.stdout == "8.0\n", done.stderr
    records = [json.loads(line) for line in trace.read_text().splitlines()]
    assert records[0]["gpu_times"] == "cuda-events"
    assert [r["duration_ns"] for r in records if r.get("op") == "MatMul"] == [1000]
    timeline = subprocess.run([sys.executable, "-m", "devtrace", "timeline", str(trace)], capture_output=True,
                              text=True, cwd=ROOT, timeout=120)
    assert timeline.returncode == 0, timeline.stderr
    meta = json.loads(timeline.stdout)["otherData"]
    gpu_memory = meta["devices"][1]["memory"]
    assert (gpu_memory["in_use"], gpu_memory["cupy_own"], gpu_memory["cupy_own_peak"]) == (512, 0, 0)  # no temporaries
    assert "cupy_own" not in meta["devices"][0]["memory"]
    assert meta["time"].endswith(
        "; on real GPUs (CuPy) an op's time is the GPU's own, between CUDA events recorded around its kernels "
        "(devtrace waited for each op's kernels while it recorded the trace)")


def test_the_timeline_says_when_real_gpu_times_are_launch_times():
    import io

    from devtrace.trace import events as ev
    from devtrace.trace.render_timeline import write

    times = {}
    for gpu_times in ("launch", None):
        tl = write([ev.TraceStart("eager", "devtrace", "prog.py", "nvml", False, gpu_times)], io.StringIO())
        times[gpu_times] = tl.meta()["time"]
    assert times["launch"] == times[None] + (
        "; on real GPUs (CuPy) an op's time is the host's launch of its kernels, which CuPy runs asynchronously: "
        "not the GPU's time")
