"""MirroredStrategy, virtual GPUs end to end, and the CLI acceptance of issue #6 (diff, import,
bad input). Acceptance lines run through ``python -m devtrace``; the rest in-process."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

from conftest import FIXTURES, devtrace, logged, program

# The one-op function lines TensorFlow 2.21 prints on stdout with the placement log on (issue 13);
# the seed's guide log predates them: these tests check the program's own output.
PLACER = re.compile(r"^[\w/.-]+: \(\w+\): /job:\S+\n", re.M)


def printed(r) -> str:
    return PLACER.sub("", r.stdout)
from devtrace.devices.discovery import discover
from devtrace.runtime import context as context_mod
from devtrace.trace import events as ev
from devtrace.trace import jsonl, render_tf2

FULL = "/job:localhost/replica:0/task:0/device:"
CPU0 = FULL + "CPU:0"
REDUCE_LINE = f"INFO:tensorflow:Reduce to {CPU0} then broadcast to ('{CPU0}',)."


def gpu(i: int) -> str:
    return f"{FULL}GPU:{i}"


def executing(op: str, device: str) -> str:
    return f"Executing op {op} in device {device}"


def mirrored_creation(n: int) -> list[str]:
    """The log of one variable mirrored on GPU:0..n-1 (MirroredExtended._create_variable)."""
    lines = [executing(op, gpu(0)) for op in ("_EagerConst", "VarHandleOp", "AssignVariableOp")]
    for k in range(1, n):
        lines += [executing("ReadVariableOp", gpu(0)), executing("Identity", gpu(k)),
                  executing("VarHandleOp", gpu(k)), executing("AssignVariableOp", gpu(k))]
    return lines


def using_line(devices) -> str:
    return f"INFO:tensorflow:Using MirroredStrategy with devices {tuple(devices)!r}"


EAGER_RUN_WARNING = ("WARNING:tensorflow:Using MirroredStrategy eagerly has significant overhead currently. We will be "
                     "working on improving this in the future, but for now please wrap `call_for_each_replica` or "
                     "`experimental_run` or `run` inside a tf.function to get the best performance.")


# -- acceptance: the guide's example on the 4 GPUs of a simulated machine ----------------------


def test_mirrored_dense_on_four_gpus(tmp_path):
    trace = tmp_path / "mirrored.jsonl"
    r = devtrace("run", program("mirrored_dense.py"), "--simulate", "4", "--trace", str(trace))
    assert r.returncode == 0, r.stderr
    step = [line for k in range(4) for line in (
        executing("ReadVariableOp", gpu(k)), executing("MatMul", gpu(k)),
        executing("ReadVariableOp", gpu(k)), executing("AddV2", gpu(k)))]
    assert logged(r.stderr) == (
        [using_line(gpu(k) for k in range(4))]
        + mirrored_creation(4) * 2  # kernel, then bias
        + [executing("_EagerConst", gpu(k)) for k in range(4)]  # each replica's batch
        + [EAGER_RUN_WARNING]  # strategy.run called eagerly
        + step
        + [REDUCE_LINE, executing("AddN", CPU0), executing("Identity", CPU0)])

    batches = [np.array([[2 * k + 1], [2 * k + 2]], np.float32) for k in range(4)]
    expected = sum(x @ np.array([[2.0]], np.float32) + np.array([0.5], np.float32) for x in batches)
    assert printed(r) == f"tf.Tensor(\n{expected}, shape=(2, 1), dtype=float32)\n"

    events = jsonl.read(trace)
    copies = [(e.op, e.src, e.dst, e.nbytes) for e in events if isinstance(e, ev.TensorCopied)]
    mirror = [("Identity", gpu(0), gpu(k), 4) for k in range(1, 4)]
    assert copies == mirror * 2 + [("AddN", gpu(k), CPU0, 8) for k in range(4)]


def test_mirrored_dense_on_virtual_gpus_uses_collectives_without_an_nccl_warning():
    """TF 2.21's MirroredStrategy picks CollectiveAllReduce (RING) for virtual GPUs and warns about nothing."""
    r = devtrace("run", program("mirrored_dense.py"), "--simulate", "1", "--limit", "1024,1024")
    assert r.returncode == 0, r.stderr
    lines = logged(r.stderr)
    assert lines[0] == using_line((gpu(0), gpu(1))) and not any("NCCL" in line or "nccl" in line for line in lines)
    assert lines[-3:] == [REDUCE_LINE, executing("AddN", CPU0), executing("Identity", CPU0)]
    assert printed(r) == "tf.Tensor(\n[[ 9.]\n [13.]], shape=(2, 1), dtype=float32)\n"


def test_mirrored_dense_without_gpus_is_one_cpu_replica():
    r = devtrace("run", program("mirrored_dense.py"), env={"CUDA_VISIBLE_DEVICES": "-1"})
    assert r.returncode == 0, r.stderr
    lines = logged(r.stderr)
    assert lines[0] == using_line((CPU0,)) and EAGER_RUN_WARNING in lines and not any("nccl" in ln for ln in lines)
    # one replica: run() returns the tensor itself, and reducing it is a broadcast (no AddN, no log)
    assert lines[-1] == executing("Identity", CPU0) and not any("AddN" in ln or "Reduce" in ln for ln in lines)
    assert printed(r) == "tf.Tensor(\n[[2.5]\n [4.5]], shape=(2, 1), dtype=float32)\n"


# -- acceptance: virtual GPUs -------------------------------------------------------------------


def test_virtual_gpus_guide_program(tmp_path):
    trace = tmp_path / "virtual.jsonl"
    r = devtrace("run", program("virtual_gpus.py"), "--limit", "1024,1024", "--simulate", "1", "--trace", str(trace))
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"1 Physical GPU, 2 Logical GPUs\n{gpu(1)}\n"
    events = jsonl.read(trace)
    gpus = [(e.name, e.physical_index, e.memory_limit) for e in events
            if isinstance(e, ev.DeviceCreated) and e.device_type == "GPU"]
    assert gpus == [(gpu(0), 0, 1 << 30), (gpu(1), 0, 1 << 30)]
    stats = [(e.device, e.allocator, e.limit, e.reserved) for e in events
             if isinstance(e, ev.MemoryStats) and e.device != CPU0]
    assert stats == [(gpu(0), "GPU_0_bfc", 1 << 30, 1 << 30), (gpu(1), "GPU_1_bfc", 1 << 30, 1 << 30)]
    copies = [e for e in events if isinstance(e, ev.TensorCopied)]
    assert copies == [ev.TensorCopied(2, "Identity", 0, gpu(0), gpu(1), 16)]


def test_mem_shows_virtual_gpus_carved_from_one_physical_gpu():
    r = devtrace("mem", "--limit", "1024,1024", "--simulate", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    rows = [line.split() for line in lines if line.startswith("/device:GPU")]
    assert rows == [["/device:GPU:0", "/physical_device:GPU:0", "16384", "MiB", "1024", "MiB", "1024", "MiB",
                     "14336", "MiB", "limit"],
                    ["/device:GPU:1", "/physical_device:GPU:0", "16384", "MiB", "1024", "MiB", "1024", "MiB",
                     "14336", "MiB", "limit"]]
    assert lines[-1] == ("/physical_device:GPU:0 (devtrace Simulated GPU, 16384 MiB) is carved into 2 logical GPUs: "
                         "/device:GPU:0 (GPU_0_bfc, 1024 MiB), /device:GPU:1 (GPU_1_bfc, 1024 MiB); "
                         "2048 MiB reserved, 14336 MiB left for others")
    r = devtrace("mem", "--limit", "1024,1024", "--simulate", "1", "--json")
    (physical,) = json.loads(r.stdout)["physical_devices"]
    assert physical["logical_devices"] == [{"name": "/device:GPU:0", "allocator": "GPU_0_bfc", "limit": 1 << 30},
                                           {"name": "/device:GPU:1", "allocator": "GPU_1_bfc", "limit": 1 << 30}]
    assert (physical["reserved"], physical["left_for_others"]) == (2 << 30, 14 << 30)


# -- acceptance: diff of the multi-tower program with and without GPUs ------------------------


def test_diff_towers_on_four_gpus_vs_none(tmp_path):
    gpus, cpu = tmp_path / "gpus.jsonl", tmp_path / "cpu.jsonl"
    assert devtrace("run", program("towers4.py"), "--simulate", "4", "--trace", str(gpus)).returncode == 0
    assert devtrace("run", program("towers4.py"), "--trace", str(cpu),
                    env={"CUDA_VISIBLE_DEVICES": "-1"}).returncode == 0
    r = devtrace("diff", str(gpus), str(cpu))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:2] == ["ops: A 13 · B 13 · matched 13", "moved: 12"]
    assert [ln for ln in lines if "MatMul" in ln] == [f"  MatMul #{k}: GPU:{k} → CPU:0" for k in range(4)]
    assert "copies: A 4 (64 B) · B 0 (0 B) · −4 (−64 B)" in lines

    r = devtrace("diff", str(gpus), str(cpu), "--fail-on", "moved")
    assert r.returncode == 3
    assert r.stderr == "Error: --fail-on moved: 12 op(s) changed device (_EagerConst #0: GPU:0 → CPU:0 and 11 more)\n"
    assert devtrace("diff", str(gpus), str(gpus), "--fail-on", "moved").returncode == 0


# -- acceptance: import of the seed's MirroredStrategy log ------------------------------------


def test_import_mirrored_000_reproduces_the_seed_placements():
    path = os.path.join(FIXTURES, "tflogs", "mirrored_000.log")
    r = devtrace("import", path, "--format", "jsonl")
    assert r.returncode == 0, r.stderr
    events = jsonl.loads(r.stdout)
    placed = [e for e in events if isinstance(e, ev.OpPlaced)]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # every eager line of the seed, in order (two of them cut into graph lines mid-line)
    eager = re.findall(r"Executing op (\S+) in device (\S+)", text)
    assert [(e.op, e.device) for e in placed if e.node is None] == eager
    # mirrored variable creation: _EagerConst, VarHandleOp, AssignVariableOp on GPU:0, then GPU:1 …
    assert [(e.op, e.device) for e in placed[:12]] == [
        (op, gpu(k)) for k in range(4) for op in ("_EagerConst", "VarHandleOp", "AssignVariableOp")]
    assert ev.Message("INFO", using_line(gpu(k) for k in range(4))[len("INFO:tensorflow:"):]) in events
    # the function-graph lines (_Arg/_Retval groups) belong to eager ops: not ops of their own
    assert all(e.node is None for e in placed) and len(placed) == len(eager) == 28
    assert r.stderr == ("imported 28 ops from 89 lines: 89 recognised, 0 unrecognised; "
                        "2 interleaved lines split, 1 rejoined, 1 fragment lost, "
                        "60 function-graph lines attributed to eager ops\n")


# -- acceptance: bad input is one line and exit 2 ---------------------------------------------


def test_bad_input_exits_2_with_one_line(tmp_path):
    trace = tmp_path / "t.jsonl"
    assert devtrace("run", program("matmul_log.py"), "--simulate", "1", "--trace", str(trace)).returncode == 0
    v2 = tmp_path / "v2.jsonl"
    v2.write_text(trace.read_text().replace('"schema": 1', '"schema": 2'))
    empty, binary = tmp_path / "empty.log", tmp_path / "binary.log"
    empty.write_text("")
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    log = os.path.join(FIXTURES, "tflogs", "mirrored_000.log")
    cases = [
        (("diff", log, str(trace)), f"Error: {log}:1: not a devtrace trace (line is not JSON)"),
        (("diff", str(trace), str(v2)), f"Error: {v2}: trace schema 2 is not supported (this devtrace reads schema 1)"),
        (("import", str(empty)), f"Error: {empty}: empty, no TensorFlow log to import"),
        (("import", str(binary)), f"Error: {binary}: binary data, not a TensorFlow log"),
    ]
    for args, line in cases:
        r = devtrace(*args)
        assert (r.returncode, r.stdout, r.stderr) == (2, "", line + "\n"), args


# -- MirroredStrategy in-process ----------------------------------------------------------------


@pytest.fixture
def tf():
    import devtrace

    return devtrace


def machine(gpus: int, limits=None):
    ctx = context_mod.reset_context(discover(simulate=str(gpus), env={}), env={})
    if limits:
        from devtrace import config

        (phys,) = config.list_physical_devices("GPU")
        config.set_logical_device_configuration(phys, [config.LogicalDeviceConfiguration(m) for m in limits])
    return ctx


def log(ctx) -> list[str]:
    return render_tf2.render(ctx.trace.events).splitlines()


def test_devices_default_logical_devices_and_strings(tf):
    machine(4)
    s = tf.distribute.MirroredStrategy()
    assert s.num_replicas_in_sync == 4
    assert s.extended.worker_devices == tuple(gpu(k) for k in range(4))
    s = tf.distribute.MirroredStrategy(tf.config.list_logical_devices("GPU")[1:3])
    assert s.extended.worker_devices == (gpu(1), gpu(2))
    s = tf.distribute.MirroredStrategy(["/gpu:3", "GPU:0", "/device:CPU:0"])
    assert s.extended.worker_devices == (gpu(3), gpu(0), CPU0)


def test_duplicate_devices_and_remote_jobs_raise_tensorflows_errors(tf):
    machine(2)
    with pytest.raises(AssertionError) as info:
        tf.distribute.MirroredStrategy(["/gpu:0", "GPU:0"])
    assert str(info.value) == f"No duplicates allowed in `devices` argument: ('{gpu(0)}', '{gpu(0)}')"
    with pytest.raises(ValueError) as info:
        tf.distribute.MirroredStrategy(["/job:foo/CPU:0"])
    assert str(info.value) == ("Remote device string must have task specified.E.g. 'task:0' in "
                               "/job:worker/replica:0/task:0/device:CPU:0")
    with pytest.raises(ValueError) as info:
        tf.distribute.MirroredStrategy(["/CPU:0", "/job:worker/task:0/CPU:0"])
    assert str(info.value).startswith("Local device should have only 'localhost' in the job field in device string. ")


def test_devices_that_are_not_visible_are_accepted_and_their_ops_soft_place(tf):
    """TensorFlow 2.21 accepts them (tf221_oracle mirrored_cpu: MirroredStrategy(["/GPU:0"]) on a CPU)."""
    machine(2)
    s = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:7"])
    assert s.extended.worker_devices == (gpu(0), gpu(7))
    assert repr(s).startswith("<tensorflow.python.distribute.mirrored_strategy.MirroredStrategy object at 0x")
    values = s.experimental_local_results(s.run(lambda: tf.constant(1.0) + 1.0))
    assert [float(v) for v in values] == [2.0, 2.0]


def test_messages_on_construction(tf):
    ctx = machine(4)
    tf.distribute.MirroredStrategy()
    assert log(ctx) == [using_line(gpu(k) for k in range(4))]
    ctx = machine(1, limits=[512, 512])
    s = tf.distribute.MirroredStrategy()
    # TF 2.21: CollectiveAllReduce, no NCCL warning; its ordering token, a variable on each device
    assert log(ctx) == [using_line((gpu(0), gpu(1)))] + [
        executing(op, gpu(k)) for k in range(2) for op in ("_EagerConst", "VarHandleOp", "AssignVariableOp")]
    assert type(s.extended._cross_device_ops).__name__ == "CollectiveAllReduce"
    ctx = machine(2)
    tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.ReductionToOneDevice())
    assert log(ctx) == [using_line((gpu(0), gpu(1)))]


def test_mirrored_variable(tf):
    ctx = machine(2)
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        v = tf.Variable([1.0, 2.0])
        assert tf.distribute.in_cross_replica_context() and tf.distribute.get_replica_context() is None
    plain = tf.Variable(3.0)
    assert type(plain).__name__ == "ResourceVariable"  # TensorFlow's eager variable, not a MirroredVariable
    assert isinstance(v, tf.distribute.MirroredVariable) and isinstance(v, tf.Variable)
    assert [c.device for c in v.values] == [gpu(0), gpu(1)]
    assert [c.name for c in v.values] == ["Variable:0", "Variable/replica_1:0"]
    assert v.name == "Variable:0" and v.device == gpu(0) and v.shape == (2,)
    with tf.device("/GPU:1"):
        assert v.device == gpu(1)
    v.assign([5.0, 6.0])  # cross-replica: every copy, on its own device
    assert [c.numpy().tolist() for c in v.values] == [[5.0, 6.0]] * 2
    assert log(ctx)[-4:] == [executing("_EagerConst", gpu(0)), executing("AssignVariableOp", gpu(0)),
                             executing("_EagerConst", gpu(1)), executing("AssignVariableOp", gpu(1))]
    seen = s.run(lambda: (tf.distribute.get_replica_context().replica_id_in_sync_group, v.device, v * 2.0))
    ids, devices, doubled = seen
    assert ids.values == (0, 1) and devices.values == (gpu(0), gpu(1))
    assert [t.device for t in doubled.values] == [gpu(0), gpu(1)]
    # TF 2.21 (VariableAggregation.NONE): an update in a replica changes that replica's copy only
    s.run(lambda: v.assign(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
                           * tf.constant([1.0, 1.0])))
    assert [c.numpy().tolist() for c in v.values] == [[0.0, 0.0], [1.0, 1.0]]
    v.assign([5.0, 6.0])
    assert repr(v).startswith("MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=(2,) dtype=float32")


def test_run_per_replica_inputs_and_regroup(tf):
    machine(2)
    s = tf.distribute.MirroredStrategy()
    x = tf.distribute.PerReplica([tf.constant(1.0), tf.constant(2.0)])
    out = s.run(lambda a, b, scale=1.0: {"sum": (a + b) * scale, "same": b}, args=(x, 10.0), kwargs={"scale": 3.0})
    assert set(out) == {"sum", "same"} and out["same"] == 10.0
    assert isinstance(out["sum"], tf.distribute.PerReplica)
    assert [t.numpy() for t in out["sum"].values] == [33.0, 36.0]
    assert s.experimental_local_results(out["sum"]) == out["sum"].values
    assert str(out["sum"]) == ("PerReplica:{\n  0: tf.Tensor(33.0, shape=(), dtype=float32),\n"
                               "  1: tf.Tensor(36.0, shape=(), dtype=float32)\n}")


def test_reduce_sum_mean_axis_and_destination(tf):
    ctx = machine(2)
    s = tf.distribute.MirroredStrategy()
    parts = [np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), np.array([[5.0, 6.0], [7.0, 9.0]], np.float32)]
    value = s.run(lambda i: tf.constant(parts[tf.distribute.get_replica_context().replica_id_in_sync_group]),
                  args=(0,))
    start = len(ctx.trace.events)
    mean = s.reduce(tf.distribute.ReduceOp.MEAN, value)
    assert mean.device == CPU0 and mean.numpy().tolist() == ((parts[0] + parts[1]) / 2).tolist()
    assert render_tf2.render(ctx.trace.events[start:]).splitlines() == [
        # the count is made on the host CPU the reduction's scope names: no _EagerConst (TF 2.21's
        # mirrored_two_cpus capture: AddN, RealDiv, Identity)
        REDUCE_LINE, executing("AddN", CPU0), executing("RealDiv", CPU0), executing("Identity", CPU0)]
    assert [(e.src, e.dst) for e in ctx.trace.events[start:] if isinstance(e, ev.TensorCopied)] == [
        (gpu(0), CPU0), (gpu(1), CPU0)]
    both = np.concatenate(parts)
    assert s.reduce("sum", value, axis=0).numpy().tolist() == both.sum(axis=0).tolist()
    assert s.reduce("MEAN", value, axis=0).numpy().tolist() == both.mean(axis=0).tolist()
    assert s.reduce(tf.distribute.ReduceOp.MEAN, value, axis=[0, 1]).numpy() == pytest.approx(both.mean())
    with tf.device("/GPU:1"):
        start = len(ctx.trace.events)
        on_gpu = s.reduce(tf.distribute.ReduceOp.SUM, value)
    assert on_gpu.device == gpu(1)
    assert ev.Message("INFO", f"Reduce to {gpu(1)} then broadcast to ('{gpu(1)}',).") in ctx.trace.events[start:]
    with pytest.raises(ValueError) as info:
        s.reduce("MAX", value)
    assert str(info.value) == "'MAX' is not a valid ReduceOp"
    with pytest.raises(ValueError) as info:
        s.reduce(5, value)
    assert str(info.value) == "`reduce_op` must be Reduce.SUM or Reduce.MEAN."
    with pytest.raises(ValueError, match="^A non-DistributedValues value .* cannot be reduced"):
        s.reduce(tf.distribute.ReduceOp.SUM, tf.constant(1.0))
    with pytest.raises(RuntimeError, match="^Method requires being in cross-replica context"):
        s.run(lambda: s.reduce("SUM", value))


def test_reduce_to_device_and_log_first_10(tf):
    ctx = machine(2)
    s = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.ReductionToOneDevice(reduce_to_device=gpu(1)))
    value = s.run(lambda: tf.constant(1.0))
    for _ in range(12):
        assert s.reduce("SUM", value).numpy() == 2.0
    lines = log(ctx)
    assert lines.count(f"INFO:tensorflow:Reduce to {gpu(1)} then broadcast to ('{CPU0}',).") == 10
    assert lines[-2:] == [executing("AddN", gpu(1)), executing("Identity", CPU0)]


def test_reducing_a_mirrored_variable_logs_as_the_seed_does(tf):
    """Seed 000, after each Keras step: the reduce line, a read on every GPU, AddN and Identity on CPU:0."""
    ctx = machine(4)
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        v = tf.Variable(1.5)
    assert s.reduce(tf.distribute.ReduceOp.MEAN, v) is v.values[0]  # the first local result, as TF 2.21
    start = len(ctx.trace.events)
    assert s.reduce(tf.distribute.ReduceOp.SUM, v).numpy() == 6.0
    assert render_tf2.render(ctx.trace.events[start:]).splitlines() == (
        [REDUCE_LINE] + [executing("ReadVariableOp", gpu(k)) for k in range(4)]
        + [executing("AddN", CPU0), executing("Identity", CPU0)])


# -- TF 2.21's MirroredStrategy (oracle: tests/tf221_oracle/mirrored_*) ---------------------------


def test_cross_device_ops_are_collective_unless_cpus_and_gpus_mix(tf):
    ctx = machine(2)
    s = tf.distribute.MirroredStrategy()
    assert type(s.extended._cross_device_ops).__name__ == "CollectiveAllReduce"
    mixed = tf.distribute.MirroredStrategy(["/CPU:0", "/GPU:0"])
    assert type(mixed.extended._cross_device_ops).__name__ == "ReductionToOneDevice"
    assert not any(line.startswith("WARNING") for line in log(ctx))


def test_run_warns_about_eager_overhead_the_first_five_times(tf):
    ctx = machine(1)
    s = tf.distribute.MirroredStrategy()
    for _ in range(7):
        s.run(lambda: tf.constant(1.0))
    assert log(ctx).count(EAGER_RUN_WARNING) == 5


def test_replica_id_in_sync_group_is_an_int32_tensor_in_a_replica(tf):
    machine(2)
    assert tf.distribute.get_replica_context().replica_id_in_sync_group == 0  # the default context: an int
    s = tf.distribute.MirroredStrategy()
    ids = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert [str(t) for t in ids.values] == ["tf.Tensor(0, shape=(), dtype=int32)", "tf.Tensor(1, shape=(), dtype=int32)"]
    assert [t.device for t in ids.values] == [gpu(0), gpu(1)]


def test_mean_over_an_axis_reduces_sums_and_counts_then_casts_and_divides(tf):
    ctx = machine(2)
    s = tf.distribute.MirroredStrategy()
    value = s.run(lambda: tf.constant([1.0, 3.0]))
    start = len(ctx.trace.events)
    assert s.reduce("MEAN", value, axis=0).numpy() == 2.0
    lines = render_tf2.render(ctx.trace.events[start:]).splitlines()
    assert EAGER_RUN_WARNING not in lines  # TensorFlow runs the per-replica step as a tf.function
    calls = [line for line in lines if "__inference" in line]  # one tf.function runs every replica's step
    assert len(calls) == 1 and re.fullmatch(r"Executing op __inference_mean_reduce_helper_\d+ in device " + CPU0,
                                            calls[0])
    assert lines[-8:] == [REDUCE_LINE, executing("AddN", CPU0), executing("Identity", CPU0),
                          REDUCE_LINE, executing("AddN", CPU0), executing("Identity", CPU0),
                          executing("Cast", CPU0), executing("RealDiv", CPU0)]


def test_names_and_errors_as_tensorflow_2_21(tf):
    machine(2)
    assert type(tf.distribute.get_replica_context()).__name__ == "_DefaultReplicaContext"
    s = tf.distribute.MirroredStrategy()
    assert type(s.extended).__name__ == "MirroredExtended"
    assert s.extended._cross_device_ops._devices == (gpu(0), gpu(1))
    with pytest.raises(RuntimeError) as info:
        s.run(lambda: s.run(lambda: 1))
    assert str(info.value) == "Method requires being in cross-replica context, use get_replica_context().merge_call()"
    with pytest.raises(ValueError) as info:
        s.reduce("SUM", tf.constant(1.0))
    assert str(info.value) == ("A non-DistributedValues value tf.Tensor(1.0, shape=(), dtype=float32) cannot be "
                               "reduced with the given reduce op ReduceOp.SUM.")


def test_the_tensorflow_logger_decides_which_messages_print(tf, capsys):
    logger = tf.get_logger()
    saved = logger.level
    try:
        machine(1)
        s = tf.distribute.MirroredStrategy()
        assert capsys.readouterr().err == ""  # INFO is below the logger's default level (WARNING)
        logger.setLevel("INFO")
        tf.distribute.MirroredStrategy()
        assert capsys.readouterr().err == using_line((gpu(0),)) + "\n"
        logger.setLevel("ERROR")
        s.run(lambda: 1)
        assert capsys.readouterr().err == ""  # the eager-run warning is filtered too
    finally:
        logger.setLevel(saved)


def test_any_cross_device_ops_is_accepted_and_reduce_goes_to_one_device(tf):
    ctx = machine(2)
    for ops in (tf.distribute.NcclAllReduce(), tf.distribute.HierarchicalCopyAllReduce(num_packs=2)):
        s = tf.distribute.MirroredStrategy(cross_device_ops=ops)
        assert s.extended._cross_device_ops is ops
        start = len(ctx.trace.events)
        assert s.reduce("SUM", s.run(lambda: tf.constant(1.0)), axis=None).numpy() == 2.0
        assert executing("AddN", CPU0) in render_tf2.render(ctx.trace.events[start:]).splitlines()
    with pytest.raises(ValueError, match="^cross_device_ops must be a tf.distribute.CrossDeviceOps"):
        tf.distribute.MirroredStrategy(cross_device_ops="nccl")
    with pytest.raises(ValueError, match="^Please provide a TPU Name to connect to.$"):  # TF 2.21's, without a TPU
        tf.distribute.TPUStrategy()


def test_ordering_tokens_on_cpus_but_not_on_physical_gpus(tf):
    """TF 2.21 creates CollectiveAllReduce's ordering-token variable on each device; on physical
    GPUs devtrace keeps the guide's log, which has none."""
    ctx = machine(2)
    tf.distribute.MirroredStrategy()
    assert log(ctx) == [using_line((gpu(0), gpu(1)))]
    tf.distribute.MirroredStrategy(["/CPU:0"])
    # the token's initial value is made on the host CPU its scope names: no _EagerConst (mirrored_cpu.log)
    assert log(ctx)[-3:] == [using_line((CPU0,))] + [executing(op, CPU0) for op in ("VarHandleOp", "AssignVariableOp")]


def test_mirrored_variables_on_cpus_log_as_tensorflow_2_21(tf):
    """Each component's _initializer_op NoOp after creation; printing reads each copy on its device."""
    cpus = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:1"]
    ctx = context_mod.reset_context(discover(simulate=None, env={"DEVTRACE_NVML": "0"}), env={})
    (cpu,) = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    s = tf.distribute.MirroredStrategy(cpus)
    with s.scope():
        v = tf.Variable(1.0)
    assert log(ctx)[-2:] == [executing("NoOp", cpus[0])] * 2
    start = len(ctx.trace.events)
    assert repr(v).startswith("MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>")
    assert render_tf2.render(ctx.trace.events[start:]).splitlines() == [
        executing(op, d) for d in cpus for op in ("ReadVariableOp", "Identity")]


def _two_cpus(tf):
    ctx = context_mod.reset_context(discover(simulate=None, env={"DEVTRACE_NVML": "0"}), env={})
    (cpu,) = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return ctx, tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def test_distributed_datasets_split_batches_as_tensorflow(tf):
    """Captured from TF 2.21 on two virtual CPUs: global batches split with the remainder first,
    per-replica batches taken in turn, an empty batch for a replica left without one."""
    ctx, s = _two_cpus(tf)
    steps = [[v.numpy().tolist() for v in x.values] for x in s.experimental_distribute_dataset(
        tf.data.Dataset.range(10).batch(4))]
    assert steps == [[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8], [9]]]
    assert [[v.numpy().tolist() for v in x.values] for x in s.experimental_distribute_dataset(
        tf.data.Dataset.range(3).batch(3))] == [[[0, 1], [2]]]
    (x, y), = list(s.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(([1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1])).batch(4)))
    assert [v.device[-5:] for v in x.values] == ["CPU:0", "CPU:1"] and y.values[1].numpy().tolist() == [0, 1]
    seen = []
    batches = s.distribute_datasets_from_function(
        lambda ic: seen.append((ic.num_input_pipelines, ic.input_pipeline_id, ic.num_replicas_in_sync,
                                ic.get_per_replica_batch_size(8))) or tf.data.Dataset.range(6).batch(2))
    assert [[str(v) for v in x.values] for x in batches][-1] == [
        "tf.Tensor([4 5], shape=(2,), dtype=int64)", "tf.Tensor([], shape=(0,), dtype=int64)"]
    assert seen == [(1, 0, 2, 4)]


def test_values_from_function_and_gather(tf):
    ctx, s = _two_cpus(tf)
    ids = s.experimental_distribute_values_from_function(lambda c: tf.constant(c.replica_id_in_sync_group))
    assert [str(v) for v in ids.values] == ["tf.Tensor(0, shape=(), dtype=int32)", "tf.Tensor(1, shape=(), dtype=int32)"]
    gathered = s.gather(s.run(lambda: tf.constant([1.0, 2.0])), axis=0)
    assert gathered.numpy().tolist() == [1.0, 2.0, 1.0, 2.0] and gathered.device == CPU0
    with pytest.raises(NotImplementedError, match="^devtrace does not implement ReplicaContext.all_reduce yet"):
        s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", 1.0))


def test_mirrored_assign_sub_updates_every_copy(tf):
    machine(2)
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        v = tf.Variable(1.0)
    assert v.assign_sub(0.5) is v and v.assign_add(0.25, read_value=False) is None
    assert [c.numpy() for c in v.values] == [0.75, 0.75]


def test_a_training_step_in_a_replica_updates_its_copy(tf):
    """TF 2.21's custom-loop example on the one CPU: the tape's gradient for a mirrored variable is
    the replica's copy's, and the Keras optimizer updates it (TF: losses 2.5, 3.125; w 2.75)."""
    context_mod.reset_context(discover(simulate=None, env={"DEVTRACE_NVML": "0"}), env={})
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        w = tf.Variable(1.0)
        opt = tf.keras.optimizers.SGD(0.1)
    data = tf.data.Dataset.from_tensor_slices(([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0])).batch(2)

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((w * x - y) ** 2)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    losses = [float(strategy.reduce("SUM", strategy.run(step, args=batch), axis=None))
              for batch in strategy.experimental_distribute_dataset(data)]
    assert losses == [2.5, 3.125] and w.numpy() == pytest.approx(2.75)
