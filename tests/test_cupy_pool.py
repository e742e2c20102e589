"""A real GPU's memory, driven through the faithful fake CuPy: one allocator layer per logical GPU.

devtrace's accounting (:class:`PoolAllocator`) and the CuPy pool must agree after every op —
same 512-byte rounding, same limit from the one memory policy — and CuPy's ``OutOfMemoryError``
must never escape: it is TensorFlow's OOM text, eagerly and in graphs alike.
"""

import gc
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import devtrace as tf
from devtrace.devices.physical import CPUInfo, GPUInfo, Machine
from devtrace.errors import ResourceExhaustedError
from devtrace.output import MiB
from devtrace.runtime import backends
from devtrace.runtime.context import reset_context
from devtrace.runtime.memory import PoolAllocator, round_pool_bytes

from conftest import _ENV, ROOT, devtrace, program
from fake_cupy import FakeCupy, FakeGPU, OutOfMemoryError

H100_TOTAL = 81559 * MiB  # what NVML reports for an H100 80GB HBM3
GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"
OOM_EAGER = re.compile(r"^\{\{function_node __wrapped__\w+_device_" + re.escape(GPU0) + r"\}\} "
                       r"OOM when allocating tensor with shape\[[0-9,]*\] and type \w+ on " + re.escape(GPU0) +
                       r" by allocator GPU_0_bfc \[Op:\w+\]( name: \S*)?$")
OOM_ANY = re.compile(r"OOM when allocating tensor with shape\[[0-9,]*\] and type \w+ on " + re.escape(GPU0) +
                     r" by allocator GPU_0_bfc( \[Op:[\w/]+\]( name: \S*)?|\n\t \[\[\{\{node [^}]+\}\}\]\])$")


def nvml_gpu(fake_gpu, index=0):
    """What NVML reports for one of the fake CUDA runtime's devices."""
    return GPUInfo(index=index, name=fake_gpu.name, uuid=fake_gpu.uuid, pci_bus_id=fake_gpu.bus or "0000:10:00.0",
                   memory_total=fake_gpu.total, memory_used=0, compute_capability=fake_gpu.cc,
                   multiprocessor_count=fake_gpu.sm, backend="nvml", driver_version="550.54.15")


def cupy_runtime(monkeypatch, fake, gpus=None, env=None):
    """A context over the fake CUDA runtime's GPUs, CuPy being ``fake``."""
    monkeypatch.setattr(backends, "_import_cupy", lambda: fake)
    infos = tuple(gpus or (nvml_gpu(g, i) for i, g in enumerate(fake.gpus)))
    return reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), infos, infos, "nvml"), env=env or {})


def gpu_with_limit(monkeypatch, limit_mib, fake=None):
    fake = fake or FakeCupy(gpus=[FakeGPU()])
    ctx = cupy_runtime(monkeypatch, fake)
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=limit_mib)])
    ctx.ensure_initialized("test")
    return ctx, ctx.devices[1], fake


def test_the_device_gets_a_pool_and_its_accounting_at_initialisation(monkeypatch):
    ctx, device, fake = gpu_with_limit(monkeypatch, 3)
    assert isinstance(device.allocator, PoolAllocator) and device.backend.name == "cupy"
    assert device.allocator.limit == 3 * MiB and device.allocator.bytes_reserved == 3 * MiB
    with fake.cuda.Device(0):
        assert device.backend.pool.get_limit() == 3 * MiB and device.backend.pool.total_bytes() == 3 * MiB
    x = tf.constant(np.ones(3, np.float32))  # 12 bytes: one 512-byte unit, as CuPy rounds it
    assert device.allocator.bytes_in_use == 512 == device.backend.used_bytes()
    del x
    assert device.allocator.bytes_in_use == 0 == device.backend.used_bytes()


def test_preallocation_stays_under_a_limit_that_is_no_multiple_of_512(monkeypatch):
    fake = FakeCupy(gpus=[FakeGPU("NVIDIA H100 80GB HBM3", H100_TOTAL, 132, (9, 0))])
    ctx = cupy_runtime(monkeypatch, fake)
    ctx.set_memory_fraction(0.3)  # growth off: the limit is preallocated at initialisation
    ctx.ensure_initialized("test")
    device = ctx.devices[1]
    limit = int(H100_TOTAL * 0.3)
    assert limit % 512 and device.allocator.limit == limit
    assert device.allocator.bytes_reserved == limit - limit % 512  # the pool's one preallocated block
    y = tf.fill([4, 4], 2.0) @ tf.ones([4, 4])
    assert y.numpy()[0, 0] == 8.0 and y.device == GPU0


def test_cupy_oom_is_tensorflows_with_the_live_allocations(monkeypatch):
    ctx, device, fake = gpu_with_limit(monkeypatch, 1)
    keep = [tf.zeros([64 * 1024], tf.float32)]  # 256 KiB
    with pytest.raises(ResourceExhaustedError) as e:
        while True:
            keep.append(keep[-1] + 1.0)
    assert OOM_EAGER.match(str(e.value)), str(e.value)
    assert "OOM when allocating tensor with shape[65536] and type float on " + GPU0 in str(e.value)
    oom = [ev for ev in ctx.trace.events if type(ev).__name__ == "OOM"][-1]
    assert oom.live and sum(a["nbytes"] for a in oom.live) == device.allocator.bytes_in_use
    assert device.allocator.bytes_in_use == device.backend.used_bytes()


def test_graph_mode_oom_names_the_node(monkeypatch):
    ctx, device, fake = gpu_with_limit(monkeypatch, 1)
    big = tf.zeros([100 * 1024], tf.float32)  # 400 KiB

    @tf.function
    def f(x):
        return x + 1.0, x * 2.0, x - 3.0

    with pytest.raises(ResourceExhaustedError) as e:
        f(big)
    assert OOM_ANY.search(str(e.value)), str(e.value)
    del e
    assert device.allocator.bytes_in_use == device.backend.used_bytes()


# -- the property -----------------------------------------------------------------------------

SHAPES = st.sampled_from([(1,), (3,), (128,), (64, 64), (100, 300), (7, 11, 13), (256, 256), (256, 256),
                          (512, 300), (512, 300), (0,)])
STEPS = st.lists(st.tuples(st.sampled_from(["zeros", "zeros", "const", "free", "add", "matmul", "reshape", "identity",
                                            "concat", "sum", "split", "fn", "copy_cpu", "variable"]),
                           SHAPES, st.integers(0, 1 << 30)), min_size=6, max_size=30)


@pytest.mark.slow  # 80 random programs
@settings(max_examples=80, deadline=None,  # a loaded machine generates slowly: not a failure
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(limit_mib=st.integers(1, 2), steps=STEPS)
@example(limit_mib=1, steps=[("zeros", (256, 256), 0)] * 3 + [("add", (1,), 0), ("sum", (1,), 0)])  # OOM in a reduction
def test_accounting_equals_the_pool_and_cupy_errors_never_escape(monkeypatch, limit_mib, steps):
    ctx, device, fake = gpu_with_limit(monkeypatch, limit_mib)
    pool = device.backend
    live, ooms = [], 0
    double = tf.function(lambda x: x * 2.0 + 1.0)
    for kind, shape, pick in steps:
        try:
            with tf.device("/GPU:0"):
                ooms += _step(kind, shape, pick, live, double)
        except ResourceExhaustedError as e:
            assert OOM_ANY.search(str(e)), str(e)
            ooms += 1
        except OutOfMemoryError:  # pragma: no cover (the failure this test exists for)
            raise AssertionError("CuPy's OutOfMemoryError escaped")
        assert device.allocator.bytes_in_use == pool.used_bytes()
        assert device.allocator.bytes_in_use <= device.allocator.limit
        assert all(n % 512 == 0 for n, _ in device.allocator.live_allocations())
    event(f"OOMs: {min(ooms, 3)}")
    live.clear()
    gc.collect()  # variables sit in reference cycles
    assert device.allocator.bytes_in_use == pool.used_bytes() == 0


def _step(kind, shape, pick, live, double):
    some = live[pick % len(live)] if live else None
    if kind == "zeros":
        live.append(tf.zeros(shape))
    elif kind == "const":
        live.append(tf.constant(np.full(shape, 1.5, np.float32)))
    elif kind == "free" and live:
        live.pop(pick % len(live))
    elif kind == "variable":
        live.append(tf.Variable(tf.ones(shape)))
    elif some is None or isinstance(some, tf.Variable) or some.ndim == 0:
        return 0
    elif kind == "add":
        live.append(some + some)
    elif kind == "matmul" and len(some.shape) == 2 and some.shape[0] == some.shape[1]:
        live.append(tf.matmul(some, some))
    elif kind == "reshape":
        live.append(tf.reshape(some, [-1]))
    elif kind == "identity":
        live.append(tf.identity(some))
    elif kind == "concat":
        live.append(tf.concat([some, some], axis=0))
    elif kind == "sum":
        live.append(tf.reduce_sum(some, axis=0))
    elif kind == "split" and some.shape[0] and some.shape[0] % 2 == 0:
        live.extend(tf.split(some, 2))
    elif kind == "fn":
        live.append(double(some))
    elif kind == "copy_cpu":
        with tf.device("/CPU:0"):
            on_cpu = tf.identity(some)
        live.append(tf.identity(on_cpu))  # back onto the GPU: a host-to-device copy
    return 0


def test_round_pool_bytes_is_cupys():
    assert [round_pool_bytes(n) for n in (0, 1, 511, 512, 513, 1000)] == [0, 512, 512, 512, 1024, 1024]


# -- the CLI on a fake real GPU (a subprocess: NVML and CuPy faked in it) ------------------------

def fake_gpu_cli(*args, gpus="A100"):
    import subprocess
    import sys

    env = {k: v for k, v in __import__("os").environ.items() if k not in _ENV}
    env.update({"COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})
    return subprocess.run([sys.executable, "tests/fake_gpu_cli.py", "--gpus", gpus, *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


def test_oom_program_on_the_cupy_path_ends_exactly_as_on_the_simulated_path():
    real = fake_gpu_cli("run", program("oom.py"), "--limit", "64")
    simulated = devtrace("run", program("oom.py"), "--limit", "64", "--simulate", "1")
    assert real.returncode == simulated.returncode == 1
    tail = lambda r: r.stderr[r.stderr.index("devtrace.errors.ResourceExhaustedError"):]  # noqa: E731
    assert tail(real) == tail(simulated)
    assert "Live allocations on GPU:0 (GPU_0_bfc) when Square asked for 16.0 MiB: 4 using 64.0 MiB" in real.stderr


def test_fraction_on_an_80gb_h100_preallocates_and_runs():
    r = fake_gpu_cli("mem", program("matmul_log.py"), "--fraction", "0.3", "--json", gpus="H100")
    assert r.returncode == 0, r.stderr
    import json

    (gpu,) = [d for d in json.loads(r.stdout)["devices"] if d["name"].startswith("/device:GPU")]
    limit = int(81559 * MiB * 0.3)
    assert (gpu["limit"], gpu["reserved"], gpu["policy"]) == (limit, limit - limit % 512, "fraction")


# -- binding: NVML's GPUs joined to the CUDA runtime's ordinals by UUID ---------------------------

def four_gpus():
    models = [("Tesla V100-SXM2-16GB", 16 << 30, 80, (7, 0)), ("NVIDIA A100-SXM4-80GB", 80 << 30, 108, (8, 0)),
              ("NVIDIA H100 80GB HBM3", H100_TOTAL, 132, (9, 0)), ("NVIDIA A100-SXM4-80GB", 80 << 30, 108, (8, 0))]
    return [FakeGPU(*m, bus=f"0000:{0x10 + i:02x}:00.0") for i, m in enumerate(models)]


def kernel_uuids(fake):
    return {fake.gpus[device].uuid for what, device, _ in fake.calls if device is not None}


def test_visible_uuid_binds_gpu0_to_the_cuda_device_with_that_uuid(monkeypatch):
    from devtrace.devices import discovery

    gpus = four_gpus()
    nvml = [nvml_gpu(g, i) for i, g in enumerate(gpus)]
    env = {"CUDA_VISIBLE_DEVICES": gpus[2].uuid}
    monkeypatch.setattr("devtrace.devices.nvml.probe_devices", lambda module=None, force=False: (list(nvml), [], None))
    machine = discovery.discover(env=env)
    assert [g.uuid for g in machine.gpus] == [gpus[2].uuid]
    fake = FakeCupy(gpus=gpus, visible=[2])  # the CUDA runtime applied CUDA_VISIBLE_DEVICES: one device, ordinal 0
    monkeypatch.setattr(backends, "_import_cupy", lambda: fake)
    ctx = reset_context(machine, env=env)
    with tf.device("/GPU:0"):
        y = tf.ones([2, 2]) @ tf.ones([2, 2])
    assert y.device == GPU0 and kernel_uuids(fake) == {gpus[2].uuid}


def test_binding_follows_uuids_when_cuda_numbers_the_gpus_differently(monkeypatch):
    gpus = four_gpus()
    fake = FakeCupy(gpus=gpus, visible=[2, 1, 3, 0])  # CUDA's FASTEST_FIRST: the H100, the A100s, the V100
    nvml = tuple(nvml_gpu(g, i) for i, g in enumerate(gpus))  # devtrace's list in PCI order, say
    monkeypatch.setattr(backends, "_import_cupy", lambda: fake)
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), nvml, nvml, "nvml"), env={})
    ctx.ensure_initialized("test")
    for i, g in enumerate(gpus):
        fake.calls.clear()
        with tf.device(f"/GPU:{i}"):
            tf.ones([2]) + 1.0
        assert kernel_uuids(fake) == {g.uuid}, i
        assert ctx.devices[1 + i].platform_id == fake.gpus.index(g)
