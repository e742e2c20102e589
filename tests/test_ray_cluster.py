"""``devtrace run --workers`` on a real local Ray cluster (``ray.cluster_utils.Cluster``: a head and
a second node with fake GPU resources, 127.0.0.1 only), started once (one worker runs these tests) and torn
down; one run starts its own local cluster on demand instead. TensorFlow 2.21's capture of the same
program on two CPU workers is in ``tf221_multi_worker/``."""

import json
import os
import re
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import ROOT, devtrace

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

from devtrace.trace import jsonl  # noqa: E402

CAPTURE = os.path.join(ROOT, "tests", "tf221_multi_worker")
RUN_TIMEOUT_S = 400  # a Ray cluster's run on a loaded 2-core machine: workers start as processes of processes
EXECUTING = re.compile(r"^\[worker (\d)\] Executing op (\S+) in device (\S+)$")


@pytest.fixture(scope="module")  # one worker runs this module (conftest's ONE_WORKER), then shuts it down
def cluster():
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "node_ip_address": "127.0.0.1",
                                                      "include_dashboard": False})
    c.add_node(num_cpus=2, num_gpus=2, node_ip_address="127.0.0.1")
    c.wait_for_nodes()
    yield c.address
    c.shutdown()


def _run(cluster, *args, env=None):
    """``--cluster`` the session's cluster (``None``: a local one started on demand)."""
    where = ("--cluster", cluster) if cluster else ()
    return devtrace("run", *where, *args, env=dict(env or {}, RAY_ADDRESS=None, TF_CONFIG=None), timeout=RUN_TIMEOUT_S)


def _tf_ops(worker: int) -> list:
    with open(os.path.join(CAPTURE, f"eager_worker{worker}.log")) as f:
        return [tuple(line.split()[2::3]) for line in f if line.startswith("Executing op")]


def test_two_workers_log_tensorflows_collectives_on_their_tasks_and_merge_one_trace(cluster, tmp_path):
    trace = tmp_path / "merged.jsonl"
    # TensorFlow's capture ran on CPUs only: so do the workers here (the run's DEVTRACE_* settings are
    # every worker's), on a machine with GPUs too
    r = _run(cluster, "--workers", "2", "--log-placement", "--trace", str(trace),
             os.path.join(CAPTURE, "mw_eager.py"), env={"DEVTRACE_NVML": "0"})
    assert r.returncode == 0, r.stderr
    for worker in (0, 1):
        with open(os.path.join(CAPTURE, f"eager_worker{worker}.log")) as f:
            tf_lines = f.read().splitlines()
        printed = [line for line in tf_lines if not line.startswith(("Executing", "WARNING"))]
        assert [f"[worker {worker}] {line}" for line in printed] == \
            [line for line in r.stdout.splitlines() if line.startswith(f"[worker {worker}]")]
        ours = [m.groups()[1:] for m in map(EXECUTING.match, r.stderr.splitlines()) if m and m[1] == str(worker)]
        assert ours == _tf_ops(worker)  # op for op, device for device
        assert {d for _, d in ours} == {f"/job:worker/replica:0/task:{worker}/device:CPU:0"}
    events = jsonl.read(str(trace))
    ops = [e for e in events if e.kind == "op_placed"]
    assert {e.device for e in ops} == {"/job:worker/replica:0/task:0/device:CPU:0",
                                       "/job:worker/replica:0/task:1/device:CPU:0"}
    assert len({e.seq for e in ops}) == len(ops)
    copies = [e for e in events if e.kind == "tensor_copied" and e.op == "CollectiveReduceV2"]
    assert [(c.src, c.dst) for c in copies] == [
        ("/job:worker/replica:0/task:1/device:CPU:0", "/job:worker/replica:0/task:0/device:CPU:0")] * 2 + [
        ("/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:0")] * 2
    assert events[-1].kind == "trace_end"


TRAIN = textwrap.dedent("""\
    import numpy as np
    import tensorflow as tf

    strategy = tf.distribute.{strategy}()
    rng = np.random.RandomState(0)
    x_all = rng.rand(64, 5).astype(np.float32)
    y_all = rng.rand(64, 1).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((x_all, y_all)).batch(16)
    with strategy.scope():
        w = tf.Variable(np.linspace(-1, 1, 5, dtype=np.float32).reshape(5, 1), name="w")

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((tf.matmul(x, w) - y) ** 2) / 16.0
        return loss, tape.gradient(loss, w)

    for x, y in strategy.experimental_distribute_dataset(dataset):
        loss, grad = strategy.run(step, args=(x, y))
        total = strategy.reduce("SUM", grad, axis=None)
        w.assign_sub(0.1 * total)
        print("loss", repr(float(strategy.reduce("SUM", loss, axis=None))))
    print("replicas", strategy.num_replicas_in_sync)
""")


def test_two_workers_of_two_gpus_train_as_four_replicas_of_one(cluster, tmp_path):
    multi = tmp_path / "multi.py"
    multi.write_text(TRAIN.format(strategy="MultiWorkerMirroredStrategy"))
    single = tmp_path / "single.py"
    single.write_text(TRAIN.format(strategy="MirroredStrategy"))
    r = _run(cluster, "--workers", "2", "--simulate", "2", "--log-placement", "--format", "summary",
             "--expect", "CollectiveReduceV2=GPU", "--max-peak", "1", str(multi))
    assert r.returncode == 0, r.stderr
    summary = [line.split() for line in r.stdout.splitlines() if line.startswith("/job:")]  # of the merged trace
    assert [row[0] for row in summary] == [f"/job:worker/replica:0/task:{t}/device:{d}" for t in (0, 1)
                                           for d in ("CPU:0", "GPU:0", "GPU:1")]
    one = devtrace("run", "--simulate", "4", str(single), timeout=RUN_TIMEOUT_S)
    assert one.returncode == 0, one.stderr
    want = [float(line.split()[1]) for line in one.stdout.splitlines() if line.startswith("loss")]
    for worker in (0, 1):
        lines = [line.split("] ", 1)[1] for line in r.stdout.splitlines() if line.startswith(f"[worker {worker}]")]
        assert lines[-1] == "replicas 4"
        got = [float(line.split()[1]) for line in lines if line.startswith("loss")]
        assert len(got) == len(want) == 4 and max(abs(a - b) for a, b in zip(got, want)) < 1e-5
        placed = [m.groups()[1:] for m in map(EXECUTING.match, r.stderr.splitlines()) if m and m[1] == str(worker)]
        reduces = {d for op, d in placed if op == "CollectiveReduceV2"}
        assert reduces == {f"/job:worker/replica:0/task:{worker}/device:GPU:{g}" for g in (0, 1)}
        assert {d for op, d in placed if op == "MatMul"} == reduces  # each replica's step on its own GPU


PACKED_GRADIENTS = 3 * 3 * 4 + 4 + 26 * 26 * 4 * 16 + 16 + 16 * 10 + 10  # mw_ctl.py's model: every gradient, flat


def test_the_custom_training_loop_on_two_workers_of_two_gpus_trains_as_four_replicas_of_one(cluster, tmp_path):
    """TensorFlow's custom-training-loop tutorial in small (``mw_ctl.py``: ``strategy.run`` in a
    ``tf.function``) on 2 workers x 2 simulated GPUs: 4 replicas in sync, each worker's forward and
    backward passes on its own GPUs, one cross-worker all-reduce of every gradient per step (one
    packed ``CollectiveReduceV2`` per GPU), the losses of 4 replicas on one worker and TensorFlow's
    2-worker losses (to 1e-5) and its accuracy, one merged trace with both tasks."""
    program = os.path.join(CAPTURE, "mw_ctl.py")
    trace = tmp_path / "ctl.jsonl"
    r = _run(cluster, "--workers", "2", "--simulate", "2", "--trace", str(trace), program)
    assert r.returncode == 0, r.stderr
    one = devtrace("run", "--simulate", "4", program, env={"TF_CONFIG": None, "RAY_ADDRESS": None},
                   timeout=RUN_TIMEOUT_S)
    assert one.returncode == 0, one.stderr
    with open(os.path.join(CAPTURE, "ctl_worker0.txt")) as f:
        tf_lines = f.read().splitlines()

    def losses(lines):
        return [float(line.split()[-1]) for line in lines if line.startswith("step ")]
    for worker in (0, 1):
        lines = [line.split("] ", 1)[1] for line in r.stdout.splitlines() if line.startswith(f"[worker {worker}]")]
        assert lines[0] == "replicas 4" and lines[-1] == tf_lines[-1]  # accuracy over the cluster, as TensorFlow's
        for want in (losses(one.stdout.splitlines()), losses(tf_lines)):
            assert len(losses(lines)) == len(want) == 4
            assert max(abs(a - b) for a, b in zip(losses(lines), want)) < 1e-5
    events = jsonl.read(str(trace))
    ops = [e for e in events if e.kind == "op_placed"]
    for worker in (0, 1):
        gpus = {f"/job:worker/replica:0/task:{worker}/device:GPU:{g}" for g in (0, 1)}
        assert {e.device for e in ops if e.op == "Conv2D" and e.device.startswith(f"/job:worker/replica:0/task:{worker}/")} == gpus
        for gpu in gpus:
            packed = [e for e in ops if e.op == "CollectiveReduceV2" and e.device == gpu
                      and list(e.shape or ()) == [PACKED_GRADIENTS]]
            assert len(packed) == 4  # one per step
    assert any(e.kind == "tensor_copied" and e.op == "CollectiveReduceV2" for e in events)
    assert events[-1].kind == "trace_end"


FAILING = textwrap.dedent("""\
    import json, os, signal, time
    import tensorflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        v = tf.Variable(1.0)
    if json.loads(os.environ["TF_CONFIG"])["task"]["index"] == 1:
        for _ in range(100):
            v.assign_add(1.0)
        strategy.reduce("SUM", strategy.run(lambda: v * 2.0), axis=None)  # (its trace so far is written)
        with open(os.environ["KILLED_AT"], "w") as f:
            f.write(repr(time.time()))
        os.kill(os.getpid(), signal.SIGKILL)  # killed mid-run
    strategy.reduce("SUM", strategy.run(lambda: v * 2.0), axis=None)
    strategy.reduce("SUM", strategy.run(lambda: v * 2.0), axis=None)  # waits for worker 1 forever
""")


def _marked(name: str, value: str) -> list:
    """The processes whose environment has ``name=value`` (what a run started inherits it)."""
    mark = f"{name}={value}".encode()
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if mark in f.read().split(b"\0"):
                    with open(f"/proc/{entry}/cmdline", "rb") as c:
                        found.append((int(entry), c.read().replace(b"\0", b" ").decode(errors="replace")[:120]))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the processes' environments in /proc")
def test_a_failing_worker_stops_the_run_with_its_status_and_a_cut_trace_and_leaves_nothing(tmp_path):
    """Worker 1 is killed (SIGKILL) mid-run: devtrace exits with its status within 10 s of the kill
    (worker 0, waiting on a collective, is stopped), the merged trace is cut, and nothing the run
    started is left running (every process of it inherits the test's mark: none is alive after),
    nor left in the local cluster's temporary directory; Ray's token-authentication line is not
    printed."""
    import tempfile
    import uuid

    program = tmp_path / "fail.py"
    program.write_text(FAILING)
    trace = tmp_path / "cut.jsonl"
    killed_at = tmp_path / "killed_at"
    mark = uuid.uuid4().hex
    ray_tmp = tempfile.mkdtemp(prefix="dt", dir="/tmp")  # short: Ray's socket paths live under it
    try:
        r = _run(None, "--workers", "2", "--trace", str(trace), str(program),  # a local cluster, on demand
                 env={"KILLED_AT": str(killed_at), "STRAY_MARK": mark, "RAY_TMPDIR": ray_tmp})
        ended = time.time()
        assert os.listdir(ray_tmp) == []
    finally:
        os.rmdir(ray_tmp)
    assert r.returncode == 137, r.stderr  # 128 + SIGKILL, as a shell reports it
    assert r.stderr.splitlines()[-1] == "devtrace: worker 1 failed (exit 137); the other workers were stopped"
    assert "[worker 0] Error: fail.py was terminated (SIGTERM)" in r.stderr.splitlines()
    assert ended - float(killed_at.read_text()) < 10
    assert not any("Token authentication" in line for line in r.stderr.splitlines())
    assert _marked("STRAY_MARK", mark) == []
    events = jsonl.read(str(trace))
    assert events[-1].kind != "trace_end"  # cut: no trace_end
    ops = [(e.device, e.op) for e in events if e.kind == "op_placed"]
    # worker 1's trace up to its last collective (all but the last 64 events, which a kill loses)
    assert ops.count(("/job:worker/replica:0/task:1/device:CPU:0", "AssignAddVariableOp")) >= 30


LIVE = textwrap.dedent("""\
    import os, sys, time
    print("ready", flush=True)
    print("to stderr", file=sys.stderr, flush=True)
    go = {go!r}
    for _ in range(1200):  # the test creates it once it has read both workers' "ready"
        if os.path.exists(go):
            break
        time.sleep(0.1)
    else:
        sys.exit(3)
    print("done", flush=True)
""")


def test_worker_output_is_relayed_live_line_by_line(cluster, tmp_path):
    """Each worker's lines reach the terminal while it runs (it waits for the test to have read
    them), prefixed ``[worker i] ``, each on the stream the worker wrote it to."""
    go = tmp_path / "go"
    program = tmp_path / "live.py"
    program.write_text(LIVE.format(go=str(go)))
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "TF_CONFIG")}
    env.update({"PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"})
    proc = subprocess.Popen([sys.executable, "-m", "devtrace", "run", "--cluster", cluster, "--workers", "2",
                             str(program)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=ROOT)
    try:
        ready = set()
        lines = []
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while len(ready) < 2 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.endswith("] ready\n"):
                ready.add(line.split("]")[0])
        assert ready == {"[worker 0", "[worker 1"}, (lines, proc.poll() is not None and proc.stderr.read())
        go.write_text("")
        out, err = proc.communicate(timeout=RUN_TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    lines += out.splitlines()
    for worker in (0, 1):
        assert [line for line in lines if line.startswith(f"[worker {worker}]")] == [
            f"[worker {worker}] ready", f"[worker {worker}] done"]
        assert f"[worker {worker}] to stderr" in err.splitlines()


def _error(lines: list) -> list:
    start = next(i for i, line in enumerate(lines) if line.startswith("ValueError: Attempt to convert"))
    end = next(i for i in range(start, len(lines)) if lines[i].endswith(") to a Tensor."))
    return lines[start:end + 1]


def test_the_keras_tutorial_fails_in_fit_as_tensorflow_2_21_does(cluster):
    """TensorFlow's multi-worker Keras tutorial (small, offline) cannot fit in TF 2.21 + Keras 3.15:
    Keras reduces its first (x, y) batch with ``strategy.reduce``, which fails on a tuple."""
    r = _run(cluster, "--workers", "2", os.path.join(CAPTURE, "mw_keras.py"))
    assert r.returncode == 1
    failed = 0
    for worker in (0, 1):
        ours = [line.split("] ", 1)[1] if "] " in line else "" for line in r.stderr.splitlines()
                if line.startswith(f"[worker {worker}]")]
        if not any(line.startswith("ValueError: Attempt") for line in ours):
            continue  # stopped before it failed too
        with open(os.path.join(CAPTURE, f"keras_fit_worker{worker}.txt")) as f:
            assert _error(ours) == _error(f.read().splitlines())
        failed += 1
    assert failed >= 1


def test_list_cluster_probes_every_node(cluster):
    r = devtrace("list", "--cluster", cluster, "--simulate", "2", "--json", env={"RAY_ADDRESS": None},
                 timeout=RUN_TIMEOUT_S)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["schema"] == 1 and len(report["nodes"]) == 2
    assert len({n["node_id"] for n in report["nodes"]}) == 2
    for node in report["nodes"]:
        assert node["address"] == "127.0.0.1" and node["backend"] == "simulated"
        assert [(d["index"], d["model"], d["mig"], d["health"]) for d in node["devices"]] == [
            (0, "devtrace Simulated GPU", None, "ok"), (1, "devtrace Simulated GPU", None, "ok")]
    table = devtrace("list", "--cluster", cluster, "--simulate", "1", env={"RAY_ADDRESS": None}, timeout=RUN_TIMEOUT_S)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0] == "Cluster: 2 nodes" and lines[1].split() == ["NODE", "GPU", "MODEL", "MEMORY", "UUID", "MIG",
                                                                    "HEALTH"]
    assert len(lines) == 4 and all("(127.0.0.1)" in line and line.endswith(" ok") for line in lines[2:])


def test_without_simulate_each_worker_gets_its_share_of_the_clusters_gpus(cluster, tmp_path):
    program = tmp_path / "gpus.py"
    program.write_text("import os\nprint(os.environ.get('CUDA_VISIBLE_DEVICES'))\n")
    r = _run(cluster, "--workers", "2", str(program))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()  # relayed live: the workers' lines in the order they came
    assert sorted(line.split()[:2] for line in lines) == [["[worker", "0]"], ["[worker", "1]"]]
    assert sorted(line.split()[-1] for line in lines) == ["0", "1"]  # the second node's two GPUs, one each


def test_a_machine_file_of_nodes_gives_each_worker_its_nodes_gpus(cluster, tmp_path):
    """``--machine`` with ``[[node]]`` tables: worker i simulates node i's GPUs."""
    machine = tmp_path / "nodes.toml"
    machine.write_text(textwrap.dedent("""\
        [[node]]
        [[node.gpu]]
        name = "Tesla K80"
        memory_total = "11441MiB"
        compute_capability = "3.7"

        [[node]]
        [[node.gpu]]
        name = "NVIDIA H100 80GB HBM3"
        memory_total = "81559MiB"
        compute_capability = "9.0"
        [[node.gpu]]
        name = "NVIDIA H100 80GB HBM3"
        memory_total = "81559MiB"
        compute_capability = "9.0"
    """))
    program = tmp_path / "gpus.py"
    program.write_text("import tensorflow as tf\n"
                       "print([tf.config.experimental.get_device_details(d)['device_name'] "
                       "for d in tf.config.list_physical_devices('GPU')])\n")
    r = _run(cluster, "--workers", "2", "--machine", str(machine), str(program))
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.splitlines()) == ["[worker 0] ['Tesla K80']",
                                             "[worker 1] ['NVIDIA H100 80GB HBM3', 'NVIDIA H100 80GB HBM3']"]
