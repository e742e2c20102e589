"""Run a probe program under devtrace, as ``python run_devtrace.py PROGRAM`` would, in a child forked
from a long-lived interpreter (``probe_server.py``) that has devtrace imported already: a fresh
process for each program without paying Python's start-up and devtrace's imports each time
(``tests/test_tf221.py``, ``tests/tf221_oracle/cells.py``, ``tests/test_gradient_coverage.py``).

One server per thread and start-up environment; it ends when its client's process does. A program
whose environment differs from its server's in more than ``PER_RUN`` gets a server of its own, as
a fresh process would (``# capture-env:`` lines of the oracle's programs). ``fresh=True`` runs
``run_devtrace.py`` in a new process instead, for the comparison of the two (``--fresh`` of cells.py).
"""

from __future__ import annotations

import atexit
import json
import os
import pathlib
import select
import signal
import subprocess
import sys
import tempfile
import threading

HERE = pathlib.Path(__file__).resolve().parent
SERVER = HERE / "probe_server.py"
RUNNER = HERE / "run_devtrace.py"
# Variables devtrace and Python read only after start-up (the oracle's HOME is each run's directory),
# or that change per test: a server started with other values serves the program as well.
PER_RUN = ("HOME", "PYTEST_CURRENT_TEST")

_servers: dict = {}


class _Server:
    def __init__(self, env: dict):
        self.log = tempfile.TemporaryFile()
        # unbuffered (bufsize=0): readline takes one reply and leaves the next in the pipe, where select
        # sees it (a buffered reader would swallow both replies of a fast program and wait out the timeout)
        self.process = subprocess.Popen([sys.executable, str(SERVER)], bufsize=0, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.log, env=env, cwd=HERE, start_new_session=True)

    def run(self, request: dict, timeout: float) -> int:
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        self.process.stdin.flush()
        self._reply(timeout)  # {"pid"}: the child started
        return self._reply(timeout)["returncode"]

    def _reply(self, timeout: float) -> dict:
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else b""
        if not line:
            self.stop()
            self.log.seek(0)
            raise RuntimeError(f"the probe server ended or hung (timeout {timeout} s): "
                               f"{self.log.read().decode(errors='replace')[-2000:]}")
        return json.loads(line)

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # the server and the child it runs
        except ProcessLookupError:
            pass
        self.process.wait()


@atexit.register
def _stop_all() -> None:
    """Each server ends when its stdin closes; wait for it (no process outlives the tests)."""
    for server in _servers.values():
        server.process.stdin.close()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.stop()


def _server(env: dict) -> _Server:
    key = (threading.get_ident(), tuple(sorted((k, v) for k, v in env.items() if k not in PER_RUN)))
    server = _servers.get(key)
    if server is None or server.process.poll() is not None:
        server = _servers[key] = _Server(env)
    return server


def run(program: os.PathLike, *args: str, env: dict, cwd: os.PathLike, timeout: float = 300,
        record: os.PathLike | None = None, fresh: bool = False, fake_gpus: int = 0) -> subprocess.CompletedProcess:
    """``program`` run under devtrace (``import tensorflow`` answered by it) with ``args``, in the
    environment ``env`` and directory ``cwd``: its exit status, stdout and stderr (text, as
    ``subprocess.run(text=True)`` gives them). ``record``: a file for the gradient functions each
    cell ran (``tests/tf221_oracle/grad_recorder.py``). ``fake_gpus``: on that many faked real GPUs
    (``run_fake_gpu.py``: fake NVML, the strict fake CuPy)."""
    if fresh:
        command = [sys.executable, str(HERE.parent / "tf221_oracle" / "grad_recorder.py"), str(program), str(record)] \
            if record else [sys.executable, str(HERE / "run_fake_gpu.py"), "--gpus", str(fake_gpus), str(program), *args] \
            if fake_gpus else [sys.executable, str(RUNNER), str(program), *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    with tempfile.TemporaryDirectory() as streams:
        out, err = os.path.join(streams, "stdout"), os.path.join(streams, "stderr")
        request = {"program": str(program), "args": list(args), "env": env, "cwd": str(cwd), "stdout": out,
                   "stderr": err, "record": str(record) if record else None, "fake_gpus": fake_gpus}
        code = _server(env).run(request, timeout)
        with open(out) as o, open(err) as e:  # the locale's encoding, newlines translated: as text=True reads a pipe
            return subprocess.CompletedProcess([str(program), *args], code, o.read(), e.read())
