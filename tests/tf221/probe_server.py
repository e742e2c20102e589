"""A long-lived interpreter that runs probe programs as ``run_devtrace.py`` does, each in a child
forked from it (``probes.py`` starts and talks to it; ``tests/test_tf221.py``, ``tests/tf221_oracle/cells.py``).

Starting Python and importing devtrace's ops, Keras and AutoGraph is most of a probe's cost; here it
is paid once, before any program runs, and every program gets a fresh copy of that interpreter (a
fork): nothing one program does (the context it initialises, its config, its caches, its seeds) is
seen by the next. The server is started with the programs' environment; a request may change only
variables nothing reads at import (``probes.PER_RUN``). What differs from a fresh ``python
run_devtrace.py``: nothing a program can see (``sys.argv``, ``sys.orig_argv``, ``sys.path[0]``, the
working directory, the environment, stdin on ``/dev/null``, stdout and stderr on files, exit code,
an uncaught exception printed by ``sys.excepthook``, ``atexit`` handlers run at the end).

One request per line on stdin, JSON: ``{"program", "args", "env", "cwd", "stdout", "stderr",
"record", "fake_gpus"}`` (``record``: a file for the gradient look-ups of each cell, ``grad_recorder.py``, or
null; ``fake_gpus``: that many faked real GPUs, as ``run_fake_gpu.py`` runs a program, or absent); one reply per line on stdout: ``{"pid"}`` when the child starts, ``{"returncode"}`` when it ends.
"""

import json
import os
import runpy
import sys
import threading

from devtrace import as_tensorflow

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run_devtrace.py")
RECORDER = os.path.join(os.path.dirname(HERE), "tf221_oracle", "grad_recorder.py")


def warm() -> None:
    """Import what programs import lazily (every ``tf.X``, Keras's and ``tf.compat.v1``'s names),
    without running an op: the context stays uninitialised, as in a fresh process."""
    import tensorflow as tf

    for namespace in (tf, tf.keras, tf.compat.v1):
        for name in dir(namespace):
            try:
                getattr(namespace, name)
            except Exception:  # noqa: BLE001 (a name devtrace does not implement raises; it is only a warm-up)
                pass


def exit_code(stop: SystemExit) -> int:
    """The exit status Python gives ``sys.exit(code)``."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1


def run(request: dict) -> int:
    """The program's exit status, run as ``python run_devtrace.py PROGRAM ARGS`` runs it."""
    program = request["program"]
    sys.argv = [program, *request["args"]]
    sys.orig_argv = [sys.executable, RUNNER, program, *request["args"]]  # a program that starts itself again
    sys.path[0] = os.path.dirname(os.path.abspath(program))
    if request["record"]:
        recorder = _load_recorder()
        recorder.start()
    if request.get("fake_gpus"):  # a faked real GPU, as run_fake_gpu.py: fake NVML and the strict fake CuPy
        sys.path.insert(1, os.path.dirname(HERE))
        import fake_gpu_cli

        fake_gpu_cli.install(fake_gpu_cli.like_simulated(request["fake_gpus"]))
    try:
        runpy.run_path(program, run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = exit_code(stop)
    except BaseException:  # noqa: BLE001 (an uncaught exception ends the program as Python's main does)
        sys.excepthook(*sys.exc_info())
        code = 1
    finally:
        if request["record"]:
            recorder.write(request["record"])
    threading._shutdown()  # non-daemon threads are waited for, as at interpreter exit
    import atexit

    atexit._run_exitfuncs()
    return code


def _load_recorder():
    import importlib.util

    spec = importlib.util.spec_from_file_location("grad_recorder", RECORDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def child(request: dict) -> None:
    """In the forked child: the program's streams, environment and directory, then run it; never returns."""
    code = 70
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        code = run(request)
    except BaseException:  # noqa: BLE001 (the harness's own failure: shown on the program's stderr)
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 (as Python's exit: a stream that cannot flush is exit status 120)
                code = code or 120
        os._exit(code)


def main() -> None:
    as_tensorflow.install()
    warm()
    replies = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        replies.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            child(request)
        replies.write(json.dumps({"pid": pid}) + "\n")
        replies.flush()
        _, status = os.waitpid(pid, 0)
        replies.write(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
