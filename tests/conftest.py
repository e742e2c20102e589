import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures")
PROGRAMS = os.path.join(FIXTURES, "programs")
MACHINES = os.path.join(FIXTURES, "machines")

# Environment variables that change what devtrace sees; tests start from none of them.
_ENV = ("DEVTRACE_SIMULATE", "DEVTRACE_MACHINE", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
        "TF_FORCE_GPU_ALLOW_GROWTH")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    from devtrace.runtime import context

    context._context = None
    yield
    context._context = None


def devtrace(*args, env=None, cwd=ROOT, stdin=None):
    """Run the CLI in a subprocess, as a user would (exit code, stdout, stderr)."""
    full_env = {k: v for k, v in os.environ.items() if k not in _ENV}
    full_env.update({"COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})
    full_env.pop("FORCE_COLOR", None)
    full_env.pop("TTY_COMPATIBLE", None)
    full_env.update(env or {})
    done = subprocess.run([sys.executable, "-m", "devtrace", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd, input=stdin, timeout=120)
    return done


def golden(name):
    """An expected output checked in under fixtures/golden/."""
    with open(os.path.join(FIXTURES, "golden", name), encoding="utf-8") as f:
        return f.read()


def program(name):
    return os.path.join(PROGRAMS, name)


def machine(name):
    return os.path.join(MACHINES, name)
