"""devtrace on real NVIDIA GPUs, one line per check (issue 30): the day a machine with a GPU is lent,

    python bench/gpu_smoke.py            # from the repository root; installs '.[cuda]' when CuPy is missing

runs the README's main job, the guide's examples, a Keras fit under MirroredStrategy, memory growth,
limits, virtual GPUs and an OOM on this machine's GPUs; compares devtrace's memory figures with
CuPy's pool and NVML's, and its tensor figures with a simulated GPU's (CuPy's own allocations
apart); checks the GPU's gather kernels (zeros for indices out of range) and that a trace times
ops with CUDA events; and runs probe programs on the real GPU against a simulated one, cell by
cell. Each check prints ``PASS`` or ``FAIL`` with its time; the whole run stays under 5 minutes
on one GPU. Without an NVIDIA GPU it prints one ``SKIP`` line and exits 0. It reaches nothing
beyond the package index (pip).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(ROOT, "fixtures", "programs")
BUDGET_S = 290  # the whole run: under 5 minutes
PROBES = ("oracle/indexing", "oracle/gather_scatter", "oracle/random_stateless", "oracle/grad_linalg",
          "tf221/ops_multi_output")
GUIDE = ("matmul_log.py", "soft_placement.py", "manual_cpu.py", "cast_fallback.py", "multi_tower.py",
         "train_step_gpu1.py")


def gpu_present() -> str | None:
    """``None`` when an NVIDIA GPU answers here, else why not (one line)."""
    if not any(os.path.exists(p) for p in ("/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg")):
        return "no NVIDIA driver device node (/dev/nvidiactl)"
    try:
        done = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"nvidia-smi did not answer ({e})"
    if done.returncode != 0 or "GPU " not in done.stdout:
        return f"nvidia-smi lists no GPU ({(done.stderr or done.stdout).strip()[:120]})"
    return None


def ensure_installed() -> None:
    """devtrace with its CUDA extra (cupy-cuda12x) in this interpreter, installed when missing."""
    try:
        import cupy  # noqa: F401
        import devtrace  # noqa: F401
        return
    except ImportError:
        pass
    print("gpu_smoke: installing devtrace[cuda] (pip install -e '.[cuda]') ...", flush=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "-e", ".[cuda]"], cwd=ROOT, check=True)


# the command that runs devtrace on this machine's GPUs (tests/test_gpu_smoke.py: the strict fake CuPy's)
DEVTRACE = [sys.executable, "-m", "devtrace"]


def devtrace(*args, timeout=120, env=None, simulated=False):
    """``devtrace ARGS`` on the real GPUs (``simulated``: on the simulated GPUs ``--simulate`` gives)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DEVTRACE_", "CUDA_VISIBLE"))}
    full.update({"COLUMNS": "200", "NO_COLOR": "1", "DEVTRACE_NVML": "1"}, **(env or {}))
    command = [sys.executable, "-m", "devtrace"] if simulated else DEVTRACE
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=ROOT, env=full, timeout=timeout)


def program_file(text: str) -> str:
    """``text`` as a program in a temporary file (left for the OS to clean up)."""
    fd, path = tempfile.mkstemp(suffix=".py", prefix="gpu_smoke_")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def no_cupy_frames(stderr: str) -> None:
    frames = [line for line in stderr.splitlines() if line.strip().startswith("File ") and "cupy" in line]
    assert not frames, f"a CuPy frame reached the user: {frames[0].strip()}"


def check_discovery():
    import pynvml

    pynvml.nvmlInit()
    count = pynvml.nvmlDeviceGetCount()
    done = devtrace("list", "--json")
    assert done.returncode == 0, done.stderr[-300:]
    report = json.loads(done.stdout)
    gpus = [d for d in report["physical_devices"] if d["device_type"] == "GPU"]
    assert report["backend"] == "nvml", f"backend {report['backend']!r}: {report.get('note')}"
    assert len(gpus) + len(report.get("unavailable", ())) >= min(count, 1), f"{len(gpus)} GPUs listed, NVML {count}"
    return f"{len(gpus)} GPU(s), NVML counts {count}"


def check_program(name, *flags, expect=0):
    def run():
        done = devtrace("run", os.path.join(PROGRAMS, name), *flags)
        no_cupy_frames(done.stderr)
        assert done.returncode == expect, f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
        return f"exit {done.returncode}"
    return run


def check_oom():
    done = devtrace("run", os.path.join(PROGRAMS, "oom.py"), "--limit", "64")
    no_cupy_frames(done.stderr)
    assert done.returncode == 1 and "OOM when allocating tensor with shape[2048,2048]" in done.stderr, \
        done.stderr.strip()[-300:]
    return "TensorFlow's OOM"


def check_memory_figures():
    """devtrace's bytes in use equal CuPy's pool (tensor bytes, 512-byte rounded); NVML sees the reservation."""
    code = (
        "import devtrace as tf, pynvml\n"
        "from devtrace.runtime.context import context\n"
        "gpu = tf.config.list_physical_devices('GPU')[0]\n"
        "tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=256)])\n"
        "with tf.device('/GPU:0'):\n"
        "    x = tf.ones([1000, 1000])\n"
        "    y = tf.matmul(x, x)\n"
        "d = context().devices[1]\n"
        "info = tf.config.experimental.get_memory_info('GPU:0')\n"
        "pool = d.backend.used_bytes()\n"
        "assert info['current'] == pool == 2 * 4000256, (info, pool)\n"
        "pynvml.nvmlInit()\n"
        "h = pynvml.nvmlDeviceGetHandleByIndex(d.backend.platform_id)\n"
        "used = pynvml.nvmlDeviceGetMemoryInfo(h).used\n"
        "assert used >= d.backend.total_bytes(), (used, d.backend.total_bytes())\n"
        "print(info['current'], pool, used)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "DEVTRACE_NVML": "1"})
    assert done.returncode == 0, done.stderr.strip()[-400:]
    current, pool, used = done.stdout.split()
    return f"in use {current} B = CuPy pool {pool} B; NVML used {int(used) >> 20} MiB"


OWN_MEMORY = """\
import tensorflow as tf
with tf.device("/GPU:0"):
    x = tf.ones([128, 128])
    column_sums = tf.reduce_sum(x, axis=0)
    spectrum = tf.signal.fft(tf.complex(x, x))
    del x
print(float(column_sums[0]), spectrum.shape)
"""


def check_own_memory():
    """The tensors' figures equal a simulated GPU's for the same program (sizes that both
    allocators round alike); CuPy's own pool bytes (FFT plans, temporaries) are reported apart."""
    prog = program_file(OWN_MEMORY)
    real, sim = devtrace("mem", "--json", prog), devtrace("mem", "--json", "--simulate", "1", prog, simulated=True)
    no_cupy_frames(real.stderr)
    assert real.returncode == 0 and sim.returncode == 0, (real.stderr + sim.stderr).strip()[-300:]
    gpu, sim_gpu = json.loads(real.stdout)["devices"][1], json.loads(sim.stdout)["devices"][1]
    keys = ("in_use", "peak", "num_allocs")
    assert [gpu[k] for k in keys] == [sim_gpu[k] for k in keys], ([gpu[k] for k in keys], [sim_gpu[k] for k in keys])
    assert "cupy_own" in gpu and gpu["cupy_own_peak"] > 0 and gpu["cupy_own_peak"] >= gpu["cupy_own"], gpu
    return (f"tensors {gpu['in_use']} B in use, {gpu['peak']} B peak (= simulated); CuPy's own "
            f"{gpu['cupy_own']} B now, {gpu['cupy_own_peak']} B peak")


GATHER = """\
import tensorflow as tf
try:
    with tf.device("/CPU:0"):
        tf.gather([1.0, 2.0, 3.0], [0, 5])
except tf.errors.InvalidArgumentError as e:
    print(str(e).split("}} ", 1)[1].split(" [Op:")[0])
with tf.device("/GPU:0"):
    print(tf.gather([1.0, 2.0, 3.0], [0, 5]).numpy().tolist(),
          tf.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[5], [1]]).numpy().tolist())
"""


def check_gather_out_of_range():
    """TensorFlow's GPU gather kernels give zeros for indices out of range; its CPU kernel raises."""
    done = devtrace("run", program_file(GATHER))
    no_cupy_frames(done.stderr)
    assert done.returncode == 0, done.stderr.strip()[-300:]
    assert done.stdout == ("indices[1] = 5 is not in [0, 3)\n"
                           "[1.0, 0.0] [[0.0, 0.0], [3.0, 4.0]]\n"), done.stdout
    return "zeros on the GPU, InvalidArgumentError on the CPU"


KERNEL_TIMES = """\
import tensorflow as tf
with tf.device("/GPU:0"):
    x = tf.random.uniform([2048, 2048])
    y = tf.matmul(x, x)
print(y.shape)
"""


def check_kernel_times():
    """A trace times ops on the GPU with CUDA events (the GPU's time, not the launch's)."""
    trace = os.path.join(tempfile.mkdtemp(prefix="gpu_smoke_"), "trace.jsonl")
    done = devtrace("run", "--trace", trace, program_file(KERNEL_TIMES))
    no_cupy_frames(done.stderr)
    assert done.returncode == 0, done.stderr.strip()[-300:]
    with open(trace, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    assert records[0].get("gpu_times") == "cuda-events", records[0]
    matmul = [r["duration_ns"] for r in records if r.get("op") == "MatMul"]
    assert len(matmul) == 1 and matmul[0] > 0, matmul
    return f"MatMul 2048x2048 took {matmul[0] / 1e6:.3f} ms on the GPU (CUDA events)"


def check_probes():
    sys.path.insert(0, os.path.join(ROOT, "tests", "tf221"))
    import fake_gpu_cells

    wrong = []
    for program in PROBES:
        simulated = fake_gpu_cells.cells_of(program, *fake_gpu_cells.run(program, False))
        real = fake_gpu_cells.cells_of(program, *fake_gpu_cells.run(program, None))
        wrong += [f"{program}: {label}" for label in fake_gpu_cells.differing(simulated, real)]
    assert not wrong, f"{len(wrong)} cells differ from the simulated GPU: {wrong[:3]}"
    return f"{len(PROBES)} probe programs: every cell as on a simulated GPU"


def checks():
    yield "discovery (devtrace list vs NVML)", check_discovery
    yield "README main job (multi_tower --log-placement)", check_program("multi_tower.py", "--log-placement")
    for name in GUIDE:
        yield f"guide example {name}", check_program(name)
    yield "Keras fit under MirroredStrategy", check_program("keras_mirrored_fit.py")
    yield "memory growth", check_program("memory_growth.py")
    yield "memory limit", check_program("memory_limit.py")
    yield "virtual GPUs", check_program("virtual_gpus.py")
    yield "OOM is TensorFlow's", check_oom
    yield "memory figures = CuPy pool, NVML", check_memory_figures
    yield "tensor figures = simulated GPU's, CuPy's own apart", check_own_memory
    yield "gather out of range: zeros on the GPU", check_gather_out_of_range
    yield "op times from CUDA events in a trace", check_kernel_times
    yield "probe programs: real GPU = simulated GPU", check_probes


def main() -> int:
    reason = gpu_present()
    if reason is not None:
        print(f"gpu_smoke: SKIP: {reason}")
        return 0
    ensure_installed()
    start, failed = time.monotonic(), 0
    for name, check in checks():
        if time.monotonic() - start > BUDGET_S:
            print(f"FAIL {name}: not run, the 5-minute budget is spent")
            failed += 1
            continue
        t = time.monotonic()
        try:
            detail = check()
            print(f"PASS {name} ({time.monotonic() - t:.1f}s): {detail}", flush=True)
        except Exception as e:  # noqa: BLE001 (every check reports, whatever it raised)
            failed += 1
            print(f"FAIL {name} ({time.monotonic() - t:.1f}s): {type(e).__name__}: {e}", flush=True)
    print(f"gpu_smoke: {failed} failed in {time.monotonic() - start:.0f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
