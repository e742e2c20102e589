"""``devtrace run --workers N PROG``: N worker processes of the unchanged program on a Ray cluster
(a local one started on demand, loopback only, or ``--cluster ADDRESS`` / ``RAY_ADDRESS``). Each
worker is a Ray actor (spread over the nodes; without ``--simulate``/``--machine`` it takes an equal
share of the cluster's GPU resources, so Ray sets its ``CUDA_VISIBLE_DEVICES``) that runs ``devtrace run`` of the program in a child
process with its ``TF_CONFIG`` (task ``worker:i``) and the transport's address, and hands back its
exit status and trace. Each worker's output is relayed live, line by line as it prints it, through
an ``OutputRelay`` actor the driver drains while it waits: every line on the driver's stdout or
stderr (the stream the worker wrote it to), prefixed ``[worker i] ``. The first worker to fail stops the run: the others are sent SIGTERM
(SIGKILL 5 s later), their partial traces kept, and the merged trace is left without its
``trace_end`` (cut). The merged trace (``merge``) holds every worker's events in worker order.

A local cluster is started and ended by ``connected``: nothing of it is left running or on disk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from ..output import printable
from . import connected
from .machines import per_worker
from .transport import ENV, Rendezvous, relay

STOP_WITHIN_S = 10
BASE_PORT = 20000  # TF_CONFIG's addresses name the tasks; devtrace opens no port
RELAY_EVERY_S = 0.1  # how often a worker sends the lines it printed, and the driver prints them


class OutputRelay:
    """The workers' lines on their way to the driver: ``put`` by the workers' actors, ``drain``
    by the driver, in the order they arrived (each worker's in the order it printed them)."""

    def __init__(self):
        self.lines: list = []

    def put(self, lines: list) -> None:
        self.lines.extend(lines)

    def drain(self) -> list:
        out, self.lines = self.lines, []
        return out


class _Sender:
    """A worker's end of the relay: its child's stdout and stderr read line by line (one thread
    each) and sent in batches every ``RELAY_EVERY_S``."""

    def __init__(self, relay, rank: int):
        self.relay, self.rank = relay, rank
        self.lock = threading.Lock()
        self.batch: list = []
        self.done = threading.Event()

    def read(self, pipe, stream: str) -> None:
        for raw in iter(pipe.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            with self.lock:
                self.batch.append((self.rank, stream, line))
        pipe.close()

    def send(self) -> None:
        with self.lock:
            batch, self.batch = self.batch, []
        if batch:
            import ray

            ray.get(self.relay.put.remote(batch))

    def loop(self) -> None:
        while not self.done.wait(RELAY_EVERY_S):
            self.send()


class WorkerRunner:
    """One worker: ``run`` blocks on the child process; ``stop`` (a second thread) ends it."""

    def __init__(self):
        self.proc = None

    def node(self) -> str:
        import ray

        return ray.get_runtime_context().get_node_id()

    def run(self, argv, env, cwd, rendezvous, output, rank, world, machine=None):
        from multiprocessing.connection import Listener

        with tempfile.TemporaryDirectory(prefix="devtrace-worker-") as tmp:
            trace = os.path.join(tmp, "trace.jsonl")
            files = {"{trace}": trace}
            if machine is not None:
                files["{machine}"] = os.path.join(tmp, "machine.toml")
                with open(files["{machine}"], "w", encoding="utf-8") as f:
                    f.write(machine)
            argv = [files.get(a, a) for a in argv]
            authkey = os.urandom(16)
            listener = Listener(os.path.join(tmp, "collectives"), family="AF_UNIX", authkey=authkey)
            threading.Thread(target=relay, args=(listener, rendezvous, rank), daemon=True).start()
            # the node's environment, but devtrace's own settings are the run's (the driver's, in env)
            child_env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_", "DEVTRACE_"))}
            child_env.update(env)
            child_env[ENV] = json.dumps({"socket": listener.address, "authkey": authkey.hex(), "rank": rank,
                                         "world": world})
            self.proc = subprocess.Popen(argv, env=child_env, cwd=cwd, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True)
            sender = _Sender(output, rank)
            readers = [threading.Thread(target=sender.read, args=(pipe, stream), daemon=True)
                       for pipe, stream in ((self.proc.stdout, "stdout"), (self.proc.stderr, "stderr"))]
            for t in readers:
                t.start()
            flusher = threading.Thread(target=sender.loop, daemon=True)
            flusher.start()
            self.proc.wait()
            for t in readers:
                t.join()
            sender.done.set()
            flusher.join()
            sender.send()  # the last lines are at the relay before the result is
            listener.close()
            data = b""
            if os.path.exists(trace):
                with open(trace, "rb") as f:
                    data = f.read()
            return self.proc.returncode, data

    def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def tf_config(workers: int, index: int) -> str:
    cluster = {"worker": [f"127.0.0.1:{BASE_PORT + i}" for i in range(workers)]}
    return json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})


def exit_status(rc: int) -> int:
    return 128 - rc if rc < 0 else rc


def run_workers(program: str, args: list, workers: int, forward: list, trace_path, address=None) -> int:
    """Run the cluster; returns the exit status (0, or the first failing worker's)."""
    machines = [None] * workers
    if "--machine" in forward:  # each worker's machine file, written by its actor ({machine})
        k = forward.index("--machine") + 1
        machines = per_worker(forward[k], workers)
        forward = forward[:k] + ["{machine}"] + forward[k + 1:]
    namespace = f"devtrace-{uuid.uuid4().hex[:12]}"
    quiet = dict(namespace=namespace, log_to_driver=False, configure_logging=False, include_dashboard=False)
    with connected(address or os.environ.get("RAY_ADDRESS"), "--workers", namespace, workers + 1, **quiet) as ray:
        return _run(ray, os.path.abspath(program), args, workers, forward, trace_path, namespace, machines)


def _run(ray, program, args, workers, forward, trace_path, namespace, machines) -> int:
    simulated = "--simulate" in forward or "--machine" in forward
    actor = f"devtrace-collective-{namespace}"
    rendezvous = ray.remote(num_cpus=0)(Rendezvous).options(name=actor, namespace=namespace).remote(workers)
    output = ray.remote(num_cpus=0)(OutputRelay).remote()
    runner_cls = ray.remote(num_cpus=0, max_concurrency=2)(WorkerRunner)
    gpus = 0 if simulated else int(ray.cluster_resources().get("GPU", 0) // workers)
    runners = [runner_cls.options(scheduling_strategy="SPREAD", num_gpus=gpus).remote() for _ in range(workers)]
    argv = [sys.executable, "-m", "devtrace", "run", *forward, "--trace", "{trace}", program, "--", *args]
    settings = {k: v for k, v in os.environ.items() if k.startswith("DEVTRACE_")}  # DEVTRACE_COMPUTE …: every worker's
    refs = []
    for i, runner in enumerate(runners):
        env = {"TF_CONFIG": tf_config(workers, i), **settings}
        refs.append(runner.run.remote(argv, env, os.getcwd(), rendezvous, output, i, workers, machines[i]))
    index = {ref: i for i, ref in enumerate(refs)}
    results: dict = {}
    failed = None
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1, timeout=RELAY_EVERY_S)
        _print(ray.get(output.drain.remote()))
        if not ready:
            continue
        i = index[ready[0]]
        results[i] = _result(ray, ready[0], i)
        if results[i][0] != 0 and failed is None:
            failed = i
            for j, runner in enumerate(runners):
                if j not in results:
                    runner.stop.remote()
            deadline = time.monotonic() + STOP_WITHIN_S
            while pending and time.monotonic() < deadline:
                done, pending = ray.wait(pending, num_returns=len(pending), timeout=RELAY_EVERY_S)
                _print(ray.get(output.drain.remote()))
                for ref in done:
                    results[index[ref]] = _result(ray, ref, index[ref])
            for ref in pending:
                results[index[ref]] = (-signal.SIGKILL, b"")
            pending = []
    _print(ray.get(output.drain.remote()))
    for runner in runners:
        ray.kill(runner)
    ray.kill(rendezvous)
    ray.kill(output)
    if trace_path is not None:
        with open(trace_path, "w", encoding="utf-8") as f:
            f.write(merge([results[i][1] for i in range(workers)], program, cut=failed is not None))
    if failed is not None:
        status = exit_status(results[failed][0])
        sys.stderr.write(f"devtrace: worker {failed} failed (exit {status}); the other workers were stopped\n")
        return status
    return 0


def _result(ray, ref, rank: int):
    """A worker's (returncode, trace); its actor's death (its node went away) said on its stderr."""
    try:
        return ray.get(ref)
    except Exception as e:
        for line in f"{type(e).__name__}: {e}".splitlines():
            sys.stderr.write(printable(f"[worker {rank}] {line}") + "\n")
        return (-signal.SIGKILL, b"")


def _print(lines: list) -> None:
    """Relayed lines, each on the stream its worker wrote it to, prefixed ``[worker i] ``."""
    for rank, stream, line in lines:
        out = sys.stdout if stream == "stdout" else sys.stderr
        out.write(printable(f"[worker {rank}] {line}") + "\n")
    if lines:
        sys.stdout.flush()
        sys.stderr.flush()


def merge(traces: list, program: str, cut: bool = False) -> str:
    """One trace of every worker's: one ``trace_start``, each worker's events in order (tagged
    ``worker``; ops renumbered so ``seq`` stays unique), each cross-worker ``CollectiveReduceV2``
    preceded by a ``tensor_copied`` from the previous worker's device (the ring's transfer), and a
    ``trace_end`` unless the run was cut."""
    workers = [_records(data) for data in traces]
    backend = next((r.get("backend") for w in workers for r in w if r["event"] == "trace_start"), None)
    lines = [{"schema": 1, "event": "trace_start", "mode": "eager", "source": "devtrace", "program": program,
              "backend": backend, "streamed": True, "workers": len(traces)}]
    collectives = [[r for r in w if r["event"] == "op_placed" and r["op"] == "CollectiveReduceV2"] for w in workers]
    offset = 0
    count = 0
    for i, records in enumerate(workers):
        top = 0
        ring = collectives[(i - 1) % len(workers)] if len(workers) > 1 else []
        k = 0
        for r in records:
            if r["event"] in ("trace_start", "trace_end"):
                continue
            r = dict(r, worker=i)
            if "seq" in r and isinstance(r["seq"], int):
                top = max(top, r["seq"])
                r["seq"] += offset
            if r["event"] == "op_placed" and r["op"] == "CollectiveReduceV2" and k < len(ring):
                src = ring[k]
                k += 1
                lines.append({"schema": 1, "event": "tensor_copied", "seq": r["seq"], "op": r["op"], "input_index": 0,
                              "src": src["device"], "dst": r["device"], "nbytes": _nbytes(r), "worker": i})
            lines.append(r)
        offset += top
    count = len(lines)
    if not cut:
        lines.append({"schema": 1, "event": "trace_end", "status": 0, "events": count})
    return "".join(json.dumps(r) + "\n" for r in lines)


def _records(data: bytes) -> list:
    out = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            break  # a line cut mid-write: the worker's trace ends before it
        if isinstance(record, dict) and "event" in record:
            out.append(record)
    return out


_ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int32": 4, "int64": 8, "int8": 1, "uint8": 1,
             "int16": 2, "bool": 1, "complex64": 8, "complex128": 16}


def _nbytes(record) -> int:
    n = 1
    for d in record.get("shape") or ():
        n *= d if isinstance(d, int) and d > 0 else 1
    return n * _ITEMSIZE.get(record.get("dtype"), 4)
