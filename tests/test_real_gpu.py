"""The real-GPU path held to CuPy's and CUDA's behaviour (issue 30).

* The strict fake CuPy (``fake_cupy.py``) keeps CuPy 14's contract: one set of checks runs on it and,
  where a GPU is present, on real CuPy (``-m gpu``), so the fake cannot drift from CuPy.
* ``CUDA_VISIBLE_DEVICES`` set by a program at its top is honoured until the first device use, on
  simulated GPUs and on a (faked) real machine alike, by UUID.
* A CuPy or CUDA error inside a kernel is TensorFlow's error naming the op and the device.
* Every probe program prints on a faked real GPU what it prints on a simulated one
  (``tests/tf221/fake_gpu_cells.py``)."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime import backends

from conftest import ROOT, devtrace
from fake_cupy import IMPLICIT, FakeCupy, FakeGPU

sys.path.insert(0, os.path.join(ROOT, "tests", "tf221"))
import fake_gpu_cells  # noqa: E402


@pytest.fixture(params=["fake", pytest.param("real", marks=pytest.mark.gpu)])
def cp(request):
    if request.param == "fake":
        return FakeCupy(gpus=[FakeGPU(), FakeGPU()])
    reason = backends.cupy_usable()
    if reason is not None:
        pytest.skip(f"no GPU for CuPy: {reason}")
    import cupy

    return cupy


def test_contract_arrays_are_no_numpy_arrays_and_never_convert_implicitly(cp):
    x = cp.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert isinstance(x, cp.ndarray) and not isinstance(x, np.ndarray)
    with pytest.raises(TypeError) as e:
        np.asarray(x)
    assert str(e.value) == IMPLICIT
    assert type(cp.asnumpy(x)) is np.ndarray and cp.asnumpy(x).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert type(x.get()) is np.ndarray and x.get().tolist() == x.tolist()
    assert isinstance(np.sum(x), cp.ndarray) and float(np.sum(x)) == 15.0  # NumPy's functions run CuPy's
    assert x[1:2].base is x and isinstance(x[0, 1], cp.ndarray) and x[0, 1].shape == ()


def test_contract_numpy_data_arguments_are_a_type_error(cp):
    x = cp.asarray(np.ones(3, np.float32))
    host = np.ones(3, np.float32)
    for call in (lambda: cp.add(x, host), lambda: x + host, lambda: host + x, lambda: cp.maximum(host, x),
                 lambda: cp.concatenate([x, host])):
        with pytest.raises(TypeError, match=r"Unsupported type <class 'numpy\.ndarray'>|incorrect type|Only cupy"):
            call()


def test_contract_routines_cupy_lacks_are_attribute_errors(cp):
    for name in ("frompyfunc", "geomspace", "nanquantile"):
        with pytest.raises(AttributeError, match=f"module 'cupy' has no attribute '{name}'"):
            getattr(cp, name)


def test_contract_devices_streams_and_events(cp):
    with cp.cuda.Device(1):
        y = cp.zeros(4, cp.float32)
        assert cp.cuda.Device().id == 1
        stream = cp.cuda.Stream(non_blocking=True)
        with stream:
            assert cp.cuda.get_current_stream() == stream
        assert cp.cuda.get_current_stream() is not None
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        y += 1
        end.record()
        end.synchronize()
        assert end.done and cp.cuda.get_elapsed_time(start, end) >= 0
    assert y.device.id == 1 and y.device == cp.cuda.Device(1)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="cudaErrorInvalidDevice"):
        with cp.cuda.Device(99):
            pass


def test_contract_pool_rounds_to_512_bytes_and_refuses_past_its_limit(cp):
    pool = cp.cuda.MemoryPool()
    with cp.cuda.Device(0), cp.cuda.using_allocator(pool.malloc):
        x = cp.zeros(3, cp.float32)
        assert pool.used_bytes() == 512
        pool.set_limit(size=1024)
        with pytest.raises(cp.cuda.memory.OutOfMemoryError, match=r"Out of memory allocating 1,536 bytes"):
            cp.zeros(1536, cp.uint8)
        del x


def test_contract_memory_hooks_see_each_allocation_and_free_of_their_thread(cp):
    """CuPy's ``MemoryHook``: entered with ``with``, it hears the pool's ``alloc`` (a new block),
    ``malloc`` and ``free`` callbacks, with keyword arguments, until it is exited; a second hook of
    the same name is a ``KeyError``; another thread's allocations are not its own."""
    import threading

    class Recorder(cp.cuda.MemoryHook):
        name = "recorder"

        def __init__(self):
            self.calls = []

        def alloc_postprocess(self, **kw):
            self.calls.append(("alloc", kw["device_id"], kw["mem_size"]))

        def malloc_postprocess(self, **kw):
            self.calls.append(("malloc", kw["size"], kw["mem_size"], kw["mem_ptr"] != 0, kw["pmem_id"] != 0))

        def free_postprocess(self, **kw):
            self.calls.append(("free", kw["mem_size"], kw["mem_ptr"] != 0))

    pool = cp.cuda.MemoryPool()
    recorder = Recorder()
    with cp.cuda.Device(1), cp.cuda.using_allocator(pool.malloc):
        with recorder:
            x = cp.asarray(np.ones(100, np.float32))
            del x
            with pytest.raises(KeyError, match="memory hook recorder already exists"):
                with Recorder():
                    pass
            other = threading.Thread(target=lambda: cp.zeros(8, cp.float32))
            other.start()
            other.join()
        y = cp.zeros(100, cp.float32)  # after the hook's exit: not heard
        del y
    assert recorder.calls == [("alloc", 1, 512), ("malloc", 400, 512, True, True), ("free", 512, True)]


# -- CUDA_VISIBLE_DEVICES set by the program --------------------------------------------------
SETS_VISIBLE = textwrap.dedent("""\
    import os
    os.environ["CUDA_VISIBLE_DEVICES"] = "1,2"
    import tensorflow as tf
    print(len(tf.config.list_physical_devices("GPU")), len(tf.config.list_logical_devices("GPU")))
    with tf.device("/GPU:1"):
        y = tf.constant([1.0, 2.0]) * 2.0
    os.environ["CUDA_VISIBLE_DEVICES"] = "0"  # after the first device use: no effect, as in TensorFlow
    print(len(tf.config.list_physical_devices("GPU")), y.device)
    from devtrace.runtime import backends
    from devtrace.runtime.context import context
    cupy = backends._import_cupy()
    if backends.cupy_usable() is None:  # the faked real machine: the CUDA device each GPU runs on, by UUID
        print(len(cupy.gpus), [cupy.gpus[d.backend.platform_id].uuid == cupy.gpus_all[k].uuid
                               for d, k in zip(context().devices[1:], (1, 2))])
    """)


def test_a_program_setting_cuda_visible_devices_at_its_top_sees_those_gpus_when_simulated(tmp_path):
    program = tmp_path / "visible.py"
    program.write_text(SETS_VISIBLE)
    done = devtrace("run", "--simulate", "4", str(program))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["2 2", "2 /job:localhost/replica:0/task:0/device:GPU:1"]
    imported = subprocess.run([sys.executable, "-c", "import devtrace as tf\n" + SETS_VISIBLE.replace(
        "import tensorflow as tf\n", "")], capture_output=True, text=True, cwd=ROOT,
        env={**os.environ, "DEVTRACE_SIMULATE": "4"}, timeout=120)
    assert imported.stdout.splitlines()[:2] == ["2 2", "2 /job:localhost/replica:0/task:0/device:GPU:1"], imported.stderr


@pytest.mark.parametrize("trace", [False, True], ids=["plain", "traced"])
def test_a_program_setting_cuda_visible_devices_runs_on_those_physical_gpus_by_uuid(tmp_path, trace):
    """``traced``: a run that records a trace (its first record says how GPU ops are timed) starts
    CUDA no earlier than the program's first device use."""
    program = tmp_path / "visible.py"
    program.write_text(SETS_VISIBLE)
    flags = ["--trace", str(tmp_path / "t.jsonl")] if trace else []
    done = subprocess.run([sys.executable, "tests/fake_gpu_cli.py", "--gpus", "A100,A100,A100,A100", "run", *flags,
                           str(program)], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={k: v for k, v in os.environ.items() if not k.startswith("CUDA_")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["2 2", "2 /job:localhost/replica:0/task:0/device:GPU:1", "2 [True, True]"]
    assert "WARNING" not in done.stderr  # every GPU bound by its UUID


def test_flags_that_configure_gpus_are_a_device_use(tmp_path):
    """``--limit`` configures the GPUs before the program (as its own first lines would): the
    program's CUDA_VISIBLE_DEVICES comes too late then, as it would in TensorFlow."""
    program = tmp_path / "visible.py"
    program.write_text(SETS_VISIBLE)
    done = devtrace("run", "--simulate", "4", "--limit", "512", str(program))
    assert done.stdout.splitlines()[0] == "4 4", done.stderr


# -- CuPy's and CUDA's errors as TensorFlow's -------------------------------------------------
@pytest.mark.parametrize("raised, error, text", [
    ("runtime", tf.errors.InternalError, "CUDARuntimeError: cudaErrorLaunchFailure: unspecified launch failure"),
    ("unimplemented", tf.errors.UnimplementedError, "CuPy does not implement it: `cupy_maximum.reduce` is not "
                                                    "supported yet"),
])
@pytest.mark.usefixtures("op_device_real")
def test_a_cupy_error_inside_a_kernel_is_tensorflows_naming_op_and_device(monkeypatch, raised, error, text):
    from devtrace.runtime.registry import REGISTRY
    from fake_cupy import CUDARuntimeError

    def failing(xp, a, b):
        if raised == "runtime":
            raise CUDARuntimeError(719, "cudaErrorLaunchFailure", "unspecified launch failure")
        return xp.maximum.reduce(a)

    monkeypatch.setattr(REGISTRY["AddV2"], "fn", failing)
    with tf.device("/GPU:0"):
        a = tf.constant([1.0, 2.0])
        with pytest.raises(error) as e:
            tf.add(a, a)
    prefix = "{{function_node __wrapped__AddV2_device_/job:localhost/replica:0/task:0/device:GPU:0}} "
    assert str(e.value) == f"{prefix}{text} [Op:AddV2] name: "
    assert e.value.__cause__ is None and e.value.__suppress_context__


@pytest.fixture
def op_device_real(monkeypatch):
    """One faked real GPU (the CuPy backend on the strict fake), initialised; returns the fake."""
    from devtrace.devices.physical import CPUInfo, GPUInfo, Machine
    from devtrace.runtime.context import reset_context

    fake = FakeCupy(gpus=[FakeGPU(bus="0000:10:00.0")])
    g = fake.gpus[0]
    info = GPUInfo(index=0, name=g.name, uuid=g.uuid, pci_bus_id=g.bus, memory_total=g.total, memory_used=0,
                   compute_capability=g.cc, multiprocessor_count=g.sm, backend="nvml", driver_version="550.54.15")
    monkeypatch.setattr(backends, "_import_cupy", lambda: fake)
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), (info,), (info,), "nvml"), env={})
    ctx.ensure_initialized("test")
    assert ctx.devices[1].backend.name == "cupy"
    return fake


# -- every probe program: the same on a faked real GPU as on a simulated one -------------------
QUICK = ("oracle/indexing", "oracle/gather_scatter", "oracle/random_stateless", "tf221/ops_multi_output")


@pytest.mark.parametrize("program", [p for p in QUICK if p in fake_gpu_cells.programs()])
def test_probe_programs_print_the_same_on_a_faked_real_gpu(program):
    simulated, real = fake_gpu_cells.compare(program)
    assert not fake_gpu_cells.differing(simulated, real), fake_gpu_cells.explain(simulated, real)


@pytest.mark.slow
@pytest.mark.parametrize("program", [p for p in fake_gpu_cells.programs() if p not in QUICK])
def test_every_probe_program_prints_the_same_on_a_faked_real_gpu(program):
    """The full pass (about 150 programs, twice each, forked from warm interpreters): the README's
    command and CI's Python 3.10 pass deselect it (``-m "not slow"``); CI's slow pass runs it (``-m slow``)."""
    test_probe_programs_print_the_same_on_a_faked_real_gpu(program)


# -- MIG: one instance per process, as CUDA gives it ------------------------------------------
MIG_REASON = ("MIG instance MIG-bbbbbbbb-1111-2222-3333-444444444444 (NVIDIA A100-SXM4-80GB MIG 1g.10gb) is present but "
              "not usable by this process: CUDA exposes one MIG instance per process, here "
              "MIG-aaaaaaaa-1111-2222-3333-444444444444 (choose another with "
              "CUDA_VISIBLE_DEVICES=MIG-bbbbbbbb-1111-2222-3333-444444444444)")


def test_a_process_gets_one_mig_instance_and_the_others_are_listed_with_the_reason():
    from devtrace.devices import discovery
    from fake_nvml import scenario

    m = discovery.discover(env={}, nvml_module=scenario("mig"))
    assert [(g.name, g.memory_total >> 30) for g in m.gpus] == [
        ("NVIDIA A100-SXM4-80GB", 80), ("NVIDIA A100-SXM4-80GB MIG 3g.40gb", 40)]
    assert m.unavailable == ((0, MIG_REASON),)
    m = discovery.discover(env={"CUDA_VISIBLE_DEVICES": "MIG-bbbbbbbb"}, nvml_module=scenario("mig"))
    assert [g.name for g in m.gpus] == ["NVIDIA A100-SXM4-80GB MIG 1g.10gb"] and m.unavailable == ()
    listed = subprocess.run([sys.executable, "-c", textwrap.dedent("""\
        import sys
        sys.path.insert(0, "tests")
        from fake_nvml import scenario
        from devtrace.devices import nvml
        real = nvml.probe_devices
        nvml.probe_devices = lambda module=None, force=False: real(scenario("mig"), True)
        from devtrace.cli.app import main
        sys.argv = ["devtrace", "list"]
        main()
        """)], capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "DEVTRACE_NVML": "1"})
    notes = [line for line in listed.stdout.splitlines() if line.startswith("Note:")]
    assert notes == [f"Note: {MIG_REASON}"], listed.stdout + listed.stderr


@pytest.mark.skipif(any(os.path.exists(p) for p in ("/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg")),
                    reason="an NVIDIA GPU is here: bench/gpu_smoke.py runs its checks")
def test_the_gpu_smoke_script_skips_in_one_line_without_a_gpu():
    done = subprocess.run([sys.executable, "bench/gpu_smoke.py"], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "gpu_smoke: SKIP: no NVIDIA driver device node (/dev/nvidiactl)\n", "")


def test_a_cuda_error_copying_onto_the_gpu_is_tensorflows_naming_op_and_device(op_device_real, monkeypatch):
    from fake_cupy import CUDARuntimeError

    def failing(*args, **kwargs):
        raise CUDARuntimeError(700, "cudaErrorIllegalAddress", "an illegal memory access was encountered")

    monkeypatch.setattr(op_device_real, "asarray", failing)
    with tf.device("/GPU:0"):
        with pytest.raises(tf.errors.InternalError) as e:
            tf.constant([1.0, 2.0])
    assert str(e.value) == ("CUDARuntimeError: cudaErrorIllegalAddress: an illegal memory access was encountered "
                            "(copying a tensor onto CUDA device 0)")
    assert e.value.__cause__ is None and e.value.__suppress_context__
