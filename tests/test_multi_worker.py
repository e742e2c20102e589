"""``TF_CONFIG``, the cluster resolvers, ``tf.train.ClusterSpec`` and ``MultiWorkerMirroredStrategy``
without Ray: TensorFlow 2.21's answers (``tf221_multi_worker/``), a worker of a two-worker cluster
whose other worker is faked in-process, and ``devtrace run --workers``'s one-line refusals (exit 2)."""

import os
import sys
import textwrap

from conftest import ROOT, devtrace

CAPTURE = os.path.join(ROOT, "tests", "tf221_multi_worker")


def test_resolvers_cluster_spec_and_the_strategys_checks_answer_as_tensorflow(tmp_path):
    r = devtrace("run", os.path.join(CAPTURE, "probe_resolver.py"), env={"TF_CONFIG": None})
    assert r.returncode == 0, r.stderr
    with open(os.path.join(CAPTURE, "resolver.txt")) as f:
        assert r.stdout == f.read()


def test_average_and_regularization_losses_scale_by_the_replicas_in_sync():
    r = devtrace("run", os.path.join(CAPTURE, "probe_average_loss.py"), env={"TF_CONFIG": None})
    assert r.returncode == 0, r.stderr
    with open(os.path.join(CAPTURE, "average_loss.txt")) as f:
        assert r.stdout == f.read()


def _losses(lines: list) -> list:
    return [float(line.split()[-1]) for line in lines if line.startswith("step ")]


def test_the_custom_training_loop_trains_as_tensorflow_on_one_and_on_four_replicas():
    """The custom-training-loop program (``mw_ctl.py``: ``strategy.run`` inside a ``tf.function``, the
    optimizer applied in the replicas, an accuracy metric) on one worker: TensorFlow 2.21's losses
    and accuracy on its one CPU replica, and the same on 4 simulated GPUs (the same global batches),
    to 1e-5."""
    with open(os.path.join(CAPTURE, "ctl_one_worker.txt")) as f:
        want = f.read().splitlines()
    for flags, replicas in (((), 1), (("--simulate", "4"), 4)):
        r = devtrace("run", *flags, os.path.join(CAPTURE, "mw_ctl.py"), env={"TF_CONFIG": None, "DEVTRACE_NVML": "0"},
                     timeout=300)
        assert r.returncode == 0, r.stderr
        got = r.stdout.splitlines()
        assert got[0] == f"replicas {replicas}" and got[-1] == want[-1]  # accuracy 0.078125
        assert len(_losses(got)) == 4 and max(abs(a - b) for a, b in zip(_losses(got), _losses(want))) < 1e-5
        assert "eagerly has significant overhead" not in r.stderr  # strategy.run in a tf.function


FAKE_WORKER = textwrap.dedent("""\
    import json, os
    import numpy as np
    import tensorflow as tf
    from devtrace.runtime import collective

    class OtherWorkerSendsOnes:
        rank, world = {rank}, 2
        def all_reduce(self, key, array):
            return array + np.ones_like(array)
        def broadcast(self, key, array=None):
            return array if self.rank == 0 else np.full((2,), 5.0, np.float32)

    collective.install(OtherWorkerSendsOnes())
    os.environ["TF_CONFIG"] = json.dumps({{"cluster": {{"worker": ["a:1", "b:2"]}},
                                          "task": {{"type": "worker", "index": {rank}}}}})
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    print(strategy.num_replicas_in_sync, strategy.extended.worker_devices)
    print([d.name for d in tf.config.list_logical_devices("GPU")])
    with strategy.scope():
        v = tf.Variable(tf.zeros((2,)))
    print(v.values[-1].numpy().tolist())
    per_replica = strategy.run(lambda: v + 1.0)
    print(strategy.reduce("SUM", per_replica, axis=None).numpy().tolist())
    print(strategy.reduce("MEAN", per_replica, axis=None).numpy().tolist())
    print(strategy.reduce("SUM", per_replica, axis=0).numpy().tolist())
    print(strategy.reduce("MEAN", per_replica, axis=0).numpy().tolist())
""")


def test_a_worker_names_its_devices_by_task_and_reduces_across_the_cluster(tmp_path):
    program = tmp_path / "worker1.py"
    program.write_text(FAKE_WORKER.format(rank=1))
    r = devtrace("run", "--simulate", "2", "--log-placement", str(program), env={"TF_CONFIG": None})
    assert r.returncode == 0, r.stderr
    gpu = "/job:worker/replica:0/task:1/device:GPU:"
    assert r.stdout.splitlines() == [
        f"4 ('{gpu}0', '{gpu}1')",
        "['/job:worker/replica:0/task:0/device:GPU:0', '/job:worker/replica:0/task:0/device:GPU:1', "
        f"'{gpu}0', '{gpu}1']",
        "[5.0, 5.0]",  # the chief's initial value, received and mirrored
        "[13.0, 13.0]",  # (5 + 1) on each local replica, plus the other worker's ones
        "[3.25, 3.25]",  # the same over 4 replicas
        "25.0",  # over axis 0 too: 6 + 6 on each local replica, plus the other worker's one
        "5.0",  # divided by the elements summed: 2 on each local replica, plus the other worker's one
    ]
    placed = [line.split()[2::3] for line in r.stderr.splitlines() if line.startswith("Executing op")]
    assert ["CollectiveBcastRecv", f"{gpu}0"] in placed
    assert [op for op, d in placed if op == "CollectiveReduceV2"] == ["CollectiveReduceV2"] * 8  # 4 reduce()s × 2 GPUs
    assert {d for op, d in placed if op == "CollectiveReduceV2"} == {f"{gpu}0", f"{gpu}1"}
    assert all(d.startswith("/job:worker/replica:0/task:1/") for _, d in placed)


def test_the_chief_sends_the_initial_values(tmp_path):
    program = tmp_path / "worker0.py"
    program.write_text(FAKE_WORKER.format(rank=0))
    r = devtrace("run", "--log-placement", str(program), env={"TF_CONFIG": None})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "2 ('/job:worker/replica:0/task:0/device:CPU:0',)"
    placed = [line.split()[2] for line in r.stderr.splitlines() if line.startswith("Executing op")]
    start = placed.index("CollectiveBcastSend")
    assert placed[start - 1:start + 5] == ["Fill", "CollectiveBcastSend", "Identity", "VarHandleOp",
                                           "AssignVariableOp", "NoOp"]  # TensorFlow 2.21's order (eager_worker0.log)


AS_WORKER = textwrap.dedent("""\
    import json, os, runpy, sys
    import numpy as np
    from devtrace.runtime import collective

    class OtherWorkerDoublesAndSendsOnes:
        rank, world = {rank}, 2
        def all_reduce(self, key, array):
            return array * 2
        def broadcast(self, key, array=None):
            return array if self.rank == 0 else np.ones((3, 2), np.float32)

    collective.install(OtherWorkerDoublesAndSendsOnes())
    sys.stdout = sys.stderr  # the program's lines among the log's, in order (TensorFlow's capture: 2>&1)
    os.environ["TF_CONFIG"] = json.dumps({{"cluster": {{"worker": ["a:1", "b:2"]}},
                                          "task": {{"type": "worker", "index": {rank}}}}})
    runpy.run_path({program!r}, run_name="__main__")
""")


def _as_worker(tmp_path, rank: int, program: str):
    """``program`` run as worker ``rank`` of two, the other worker faked in-process."""
    wrapper = tmp_path / f"as_worker{rank}.py"
    wrapper.write_text(AS_WORKER.format(rank=rank, program=os.path.join(CAPTURE, program)))
    r = devtrace("run", str(wrapper), env={"TF_CONFIG": None})
    assert r.returncode == 0, r.stderr
    return r


def _lines(text: str, starts=("Executing",)) -> list:
    return [line for line in text.splitlines() if line.startswith(starts)]


def test_each_workers_op_log_is_tensorflows_op_for_op(tmp_path):
    """Every ``Executing op`` line of TensorFlow 2.21's two-worker eager step, in order, on each
    worker: the ordering tokens, the chief's broadcast, ``tf.ones`` in the scope (its ``Fill`` only),
    the step's ``MatMul``/``Sum``/``Reshape``/``Tile`` (the gradient's shapes make no ``_EagerConst``
    inside ``run``), the reductions, the update and the mirrored variable's ``numpy()``."""
    for rank in (0, 1):
        r = _as_worker(tmp_path, rank, "mw_eager.py")
        with open(os.path.join(CAPTURE, f"eager_worker{rank}.log")) as f:
            assert _lines(r.stderr) == _lines(f.read()), rank


def test_constants_log_an_eager_const_outside_the_strategys_device_scope_only(tmp_path):
    """TensorFlow makes a constant without an op when the context's device names CPU:0 (in the
    strategy's scope: ``/job:worker/task:0`` merged onto the worker's CPU), else with one
    ``_EagerConst`` (outside it; a Python scalar once, then from the scalar cache)."""
    r = _as_worker(tmp_path, 0, "probe_const.py")
    with open(os.path.join(CAPTURE, "const_worker0.log")) as f:
        want = _lines(f.read(), ("Executing", "---"))
    assert _lines(r.stderr, ("Executing", "---")) == want


def test_a_cluster_without_its_workers_says_how_to_run_it(tmp_path):
    program = tmp_path / "p.py"
    program.write_text("import tensorflow as tf\ntf.distribute.MultiWorkerMirroredStrategy()\n")
    r = devtrace("run", str(program), env={"TF_CONFIG": '{"cluster": {"worker": ["a:1", "b:2"]}, '
                                                        '"task": {"type": "worker", "index": 0}}'})
    assert r.returncode == 1
    assert ("UnavailableError: devtrace runs a cluster of 2 workers only under `devtrace run --workers 2`, which "
            "starts them and connects their collectives (TF_CONFIG alone names a cluster but starts nothing)"
            ) in r.stderr


NODES = """\
[[node]]
[[node.gpu]]
name = "Tesla K80"
memory_total = "{memory}"
compute_capability = "3.7"

[[node]]
[[node.gpu]]
name = "NVIDIA H100 80GB HBM3"
memory_total = "81559MiB"
compute_capability = "9.0"
"""


def test_workers_refuse_a_bad_tf_config_an_unreachable_cluster_and_a_missing_ray_in_one_line(tmp_path):
    program = tmp_path / "p.py"
    program.write_text("pass\n")
    nodes = tmp_path / "nodes.toml"
    nodes.write_text(NODES.format(memory="11441MiB"))
    bad = tmp_path / "bad.toml"
    bad.write_text(NODES.format(memory="lots"))
    cases = [
        ({"TF_CONFIG": "{bad"}, ["--workers", "2"],
         "Error: TF_CONFIG: JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 "
         "(char 1)"),
        ({"TF_CONFIG": '{"cluster": {"worker": ["a:1"]}, "task": {"type": "worker", "index": 3}}'}, ["--workers", "1"],
         "Error: TF_CONFIG: ValueError: The `task_id` 3 exceeds the maximum id of worker."),
        ({"TF_CONFIG": '{"cluster": {"worker": ["a:1", "b:2", "c:3"]}}'}, ["--workers", "2"],
         "Error: TF_CONFIG names a cluster of 3 workers, but --workers is 2"),
        ({"TF_CONFIG": None}, ["--workers", "2", "--cluster", "127.0.0.1:1"],
         "Error: cannot reach the Ray cluster at 127.0.0.1:1: Connection refused"),
        ({"TF_CONFIG": None}, ["--cluster", "127.0.0.1:1"],
         "Error: --cluster needs --workers N (how many workers of the program to run)"),
        ({"TF_CONFIG": None}, ["--workers", "3", "--machine", str(nodes)],
         f"Error: {nodes} describes 2 nodes, but --workers is 3 (one node per worker)"),
        ({"TF_CONFIG": None}, ["--workers", "2", "--machine", str(bad)],
         f"Error: {bad}: node[0]: gpu[0]: field 'memory_total' must be a size like \"16GiB\" or an integer number of "
         "MiB, got 'lots'"),
    ]
    for env, args, line in cases:
        r = devtrace("run", *args, str(program), env=dict(env, RAY_ADDRESS=None))
        assert (r.returncode, r.stderr.strip()) == (2, line), args
    code = ("import sys, runpy; sys.modules['ray'] = None; sys.argv = ['devtrace', 'run', '--workers', '2', "
            f"{str(program)!r}]; runpy.run_module('devtrace', run_name='__main__')")
    import subprocess

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={k: v for k, v in os.environ.items() if k not in ("TF_CONFIG", "RAY_ADDRESS")})
    assert (done.returncode, done.stderr.strip()) == (
        2, "Error: --workers needs Ray, which is not installed: pip install 'devtrace[cluster]'")
