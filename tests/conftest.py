import gc
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures")
PROGRAMS = os.path.join(FIXTURES, "programs")
MACHINES = os.path.join(FIXTURES, "machines")

# Environment variables that change what devtrace sees; tests start from none of them.
_ENV = ("DEVTRACE_SIMULATE", "DEVTRACE_MACHINE", "DEVTRACE_COMPAT", "DEVTRACE_COMPUTE", "DEVTRACE_DEBUG",
        "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "TF_FORCE_GPU_ALLOW_GROWTH")


# A test about a machine with GPUs makes them itself (simulated, or fakes of NVML and CuPy): NVML is
# off for every test and the programs it starts, so the suite passes on a GPU runner as on a CPU-only
# one (`PYTHONPATH=tests/gpu_runner` rehearses a GPU runner). A test about the CPU-only machine's own
# discovery turns it back on with `env={"DEVTRACE_NVML": None}`, and skips where a driver answers.
DRIVER_PRESENT = any(os.path.exists(p) for p in ("/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg")) \
    or "gpu_runner" in os.environ.get("PYTHONPATH", "")
no_driver = pytest.mark.skipif(DRIVER_PRESENT, reason="an NVIDIA driver answers here: the CPU-only note cannot appear")


# The modules whose tests take longest (a Ray cluster, signal storms, a 400k-op report, long Hypothesis
# runs, every probe program on a faked GPU) run first, each module's tests together: the short tests
# that end the run keep both workers busy to the end, instead of one worker finishing a long test alone.
LONGEST_FIRST = ("test_ray_cluster.py", "test_signals.py", "test_hostile_round2.py", "test_cupy_pool.py",
                 "test_compute_none.py", "test_report.py", "test_fastpath_parity.py", "test_multi_worker.py",
                 "test_group_by.py", "test_real_gpu.py")


def pytest_collection_modifyitems(items):
    first = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: first.get(item.path.name, len(first)))  # stable: the rest keep their order


# Modules whose tests run on one worker, one after another (the Ray tests share one cluster).
ONE_WORKER = ("test_ray_cluster.py",)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's default distribution (``-n``) with tests handed out one at a time, in the order
    above (``load`` hands each worker a quarter of its share at the start, so one could end the run
    alone), and each module of ``ONE_WORKER`` as one unit."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneAtATime(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            module = nodeid.split("::", 1)[0]
            return module if module.endswith(ONE_WORKER) else nodeid

    return OneAtATime(config, log)


def pytest_collection_finish(session):
    """Every module the tests import is imported now: that heap is frozen (``gc.freeze``), so a
    collection — Python's automatic full ones, a test's ``gc.collect()`` — looks only at the objects
    made since, which it collects as before. A full collection of a worker's whole heap took ~0.1 s,
    hundreds of times a run (``test_fastpath_refcounts`` alone: four per case)."""
    gc.freeze()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEVTRACE_NVML", "0")
    random_ops = sys.modules.get("devtrace.ops.random.random_ops")
    if random_ops is not None:  # process-wide, as TensorFlow's: what an earlier test seeded is not this one's
        random_ops.reset()
    from devtrace.runtime import context

    context._context = None
    yield
    context._context = None


@pytest.fixture(scope="session")
def session_shared(tmp_path_factory):
    """A directory every pytest-xdist worker of this test session shares (for work done once per
    session, such as running the oracle's ``grad_*`` probes: ``tests/tf221_oracle/cells.py``'s ``run_once``)."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    shared.mkdir(exist_ok=True)
    return shared


_PLACER_LINE = re.compile(r"^[\w/.-]+: \(\w+\): /job:\S+\n", re.M)


def logged(stderr: str) -> list:
    """A run's stderr lines without the placer lines' glog copies (TensorFlow 2.21 logs each eager
    op's one-op function and each function body there; the guide's logs predate them)."""
    return _PLACER_LINE.sub("", stderr).splitlines()


def devtrace(*args, env=None, cwd=ROOT, stdin=None, timeout=120):
    """Run the CLI in a subprocess, as a user would (exit code, stdout, stderr)."""
    full_env = {k: v for k, v in os.environ.items() if k not in _ENV}
    full_env.update({"COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})
    full_env.pop("FORCE_COLOR", None)
    full_env.pop("TTY_COMPATIBLE", None)
    for name, value in (env or {}).items():  # None: the variable is unset
        if value is None:
            full_env.pop(name, None)
        else:
            full_env[name] = value
    done = subprocess.run([sys.executable, "-m", "devtrace", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd, input=stdin, timeout=timeout)
    return done


def golden(name):
    """An expected output checked in under fixtures/golden/."""
    with open(os.path.join(FIXTURES, "golden", name), encoding="utf-8") as f:
        return f.read()


def program(name):
    return os.path.join(PROGRAMS, name)


def machine(name):
    return os.path.join(MACHINES, name)


def _device_list(value, fake):
    """A ``variant`` output (a TensorList: host memory, as TensorFlow keeps variants) whose items
    live on the device."""
    from devtrace.runtime.dtypes import ListValue

    return isinstance(value, ListValue) and all(i is None or isinstance(i, fake.ndarray) for i in value[()])


@pytest.fixture(params=["CPU", "GPU-simulated", "GPU-cupy-fake"])
def op_device(request):
    """Run an op test on every backend: the CPU (NumPy), a simulated GPU (NumPy kernels, memory
    accounted as on a GPU), and a GPU driven through the CuPy backend's code with the NumPy-backed
    fake CuPy. Returns the device string for ``tf.device(...)``; on ``GPU-cupy-fake`` a kernel whose
    output is not a (fake) CuPy array — it computed with NumPy instead of ``xp`` — fails the test."""
    from devtrace.devices import simulated
    from devtrace.devices.physical import CPUInfo, GPUInfo, Machine
    from devtrace.runtime import backends
    from devtrace.runtime.context import reset_context
    from fake_cupy import FakeCupy, FakeGPU

    gpus = tuple(simulated.parse_simulate("1")) if request.param != "CPU" else ()
    fake = None
    if request.param == "GPU-cupy-fake":  # an NVML GPU whose CuPy is the fake: pool and accounting made at init
        gpus = tuple(GPUInfo(**{**g.__dict__, "backend": "nvml"}) for g in gpus)
        fake = FakeCupy(gpus=[FakeGPU(g.name, g.memory_total, g.multiprocessor_count, g.compute_capability,
                                      g.pci_bus_id, g.uuid) for g in gpus])
        request.getfixturevalue("monkeypatch").setattr(backends, "_import_cupy", lambda: fake)
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated" if gpus else "cpu"), env={})
    ctx.ensure_initialized("op_device fixture")
    if request.param == "GPU-cupy-fake":
        device = ctx.devices[1]
        backend = device.backend
        assert backend.name == "cupy"
        run = backend.run

        def checked_run(kernel, arrays, attrs, opdef=None, dtype=None):
            out = run(kernel, arrays, attrs, opdef, dtype)
            outputs = out if type(out) is tuple else () if out is None else (out,)  # several: Unpack, TopKV2
            if not all(isinstance(o, fake.ndarray) or _device_list(o, fake) for o in outputs):
                raise AssertionError(f"{kernel} returned {type(out).__name__}, not a CuPy array: compute with xp")
            return out

        backend.run = checked_run
    yield "/CPU:0" if request.param == "CPU" else "/GPU:0"
