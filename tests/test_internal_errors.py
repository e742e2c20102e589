"""When devtrace itself fails inside a user's call (a bug: an AttributeError, a NumPy error escaping
its code), the report says so and never passes it off as the user's mistake; errors TensorFlow
would raise keep the program's frames only. ``DEVTRACE_DEBUG=1`` shows every frame."""

import os
import subprocess
import sys

import pytest

from conftest import devtrace

import devtrace as tf
from devtrace.errors import InvalidArgumentError, is_internal

HINT = "(this is a bug in devtrace; DEVTRACE_DEBUG=1 shows the full traceback)"
LAST = f"devtrace internal error: AttributeError: 'NoneType' object has no attribute 'get' {HINT}"
# a bug's state: devtrace's own code then fails (executor.execute reads the placement cache)
BUG = """import {module} as tf
from devtrace.runtime.context import context

a = tf.constant([[1.0]])
context().placement_cache = None
tf.matmul(a, a)
"""
USER_ERROR = """import tensorflow as tf

tf.reshape(tf.constant([1, 2, 3]), [2, 2])
"""


def _plain(path, **env):
    base = {k: v for k, v in os.environ.items() if not k.startswith("DEVTRACE_")}
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env={**base, "DEVTRACE_NVML": "0", **env})


def test_an_internal_error_under_devtrace_run_says_it_is_devtraces(tmp_path):
    prog = tmp_path / "bug.py"
    prog.write_text(BUG.format(module="tensorflow"))
    r = devtrace("run", str(prog))
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        "Traceback (most recent call last):",
        f'  File "{prog}", line 6, in <module>',
        "    tf.matmul(a, a)",
        "AttributeError: 'NoneType' object has no attribute 'get'",
        LAST]


def test_devtrace_debug_shows_the_full_traceback_under_devtrace_run(tmp_path):
    prog = tmp_path / "bug.py"
    prog.write_text(BUG.format(module="tensorflow"))
    r = devtrace("run", str(prog), env={"DEVTRACE_DEBUG": "1"})
    assert r.returncode == 1
    assert f"devtrace{os.sep}runtime{os.sep}eager{os.sep}executor.py" in r.stderr
    assert r.stderr.splitlines()[-1] == ("devtrace internal error: AttributeError: 'NoneType' object has no "
                                         "attribute 'get' (this is a bug in devtrace)")


def test_an_internal_error_in_a_plain_python_run(tmp_path):
    """As a library (``import devtrace``) devtrace leaves ``sys.excepthook`` alone (no process-wide
    state unless asked): Python prints the whole traceback, devtrace's frames included, so a bug in
    devtrace never passes for the program's mistake."""
    prog = tmp_path / "bug.py"
    prog.write_text(BUG.format(module="devtrace"))
    r = _plain(prog)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == "AttributeError: 'NoneType' object has no attribute 'get'"
    assert f"devtrace{os.sep}runtime{os.sep}eager{os.sep}executor.py" in r.stderr
    assert "internal error" not in r.stderr


def test_an_error_tensorflow_would_raise_is_the_programs(tmp_path):
    prog = tmp_path / "user.py"
    prog.write_text(USER_ERROR)
    r = devtrace("run", str(prog))
    assert r.returncode == 1
    assert "internal error" not in r.stderr and "devtrace" + os.sep not in r.stderr
    assert r.stderr.splitlines()[-1].startswith("Error: user.py raised InvalidArgumentError: ")


def _raised(fn):
    with pytest.raises(Exception) as e:
        fn()
    return e.value


def test_which_errors_are_internal():
    # TensorFlow's errors, and the TypeError/ValueError texts it raises (devtrace raises them on purpose)
    assert isinstance(_raised(lambda: tf.reshape(tf.constant([1, 2, 3]), [2, 2])), InvalidArgumentError)
    for fn in (lambda: tf.reshape(tf.constant([1, 2, 3]), [2, 2]),
               lambda: tf.TensorShape([1, 2]).merge_with([3]),
               lambda: tf.constant("abc", tf.float32),
               lambda: list(tf.constant(1.0)),
               lambda: tf.function(lambda x: bool(x))(tf.constant(1.0))):
        assert not is_internal(_raised(fn))
    # the user's own error, raised in a function devtrace traces and calls
    assert not is_internal(_raised(lambda: tf.function(lambda x: 1 / 0)(tf.constant(1.0))))
    # a NumPy error escaping devtrace's code (a kernel called as no op would call it: NumPy's broadcast fails)
    import numpy as np

    from devtrace.ops import random_grad

    error = _raised(lambda: random_grad._random_gamma_grad(np, np.zeros(2), np.zeros(3)))
    assert type(error) is ValueError and is_internal(error)
    # an AttributeError in devtrace's own code
    assert is_internal(_raised(lambda: random_grad._random_gamma_grad(np, None, np.zeros(3))))
