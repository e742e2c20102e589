"""``import devtrace`` as a library changes no process-wide state: ``sys.excepthook`` and the
warnings filters stay as they were, after importing the ops and running them too, and the kernels
that warn in NumPy (a division by zero) are quiet, as TensorFlow's are. Only while devtrace plays
TensorFlow (``devtrace run``, ``devtrace.as_tensorflow.install()``) are both installed."""

import subprocess
import sys

from conftest import devtrace

_LIBRARY = """
import sys, warnings
import numpy  # NumPy adds filters of its own on import
hook, filters = sys.excepthook, list(warnings.filters)
import devtrace as tf
import devtrace.ops
x = tf.constant([1.0, 0.0, -1.0])
values = [(x / 0.0).numpy(), tf.math.log(x).numpy(), tf.sqrt(x).numpy(), tf.cast(tf.sqrt(x), tf.int32).numpy()]
print(sys.excepthook is hook, warnings.filters == filters)
"""


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code], capture_output=True,
                          text=True, timeout=120)


def test_importing_devtrace_and_running_ops_leaves_the_process_state_alone():
    """``-W error::RuntimeWarning``: a kernel's NumPy warning would end the program."""
    r = _python(_LIBRARY)
    assert (r.returncode, r.stdout, r.stderr) == (0, "True True\n", "")


_PLAYING = """
import sys, warnings
import devtrace
hook, filters = sys.excepthook, list(warnings.filters)
devtrace.as_tensorflow.install()
print(sys.excepthook is not hook, warnings.filters[0][2] is RuntimeWarning, warnings.filters[1:] == filters)
devtrace.as_tensorflow.uninstall()
print(sys.excepthook is hook, warnings.filters == filters)
"""


def test_playing_tensorflow_installs_the_excepthook_and_filter_and_takes_them_back():
    r = _python(_PLAYING)
    assert (r.returncode, r.stdout, r.stderr) == (0, "True True True\nTrue True\n", "")


def test_devtrace_run_shows_no_numpy_warning_of_a_kernel(tmp_path):
    """``1e30 * 1e30`` overflows float32 in NumPy's multiply, a kernel left without errstate (the
    hot path): under ``devtrace run`` the filter keeps it quiet, as TensorFlow is."""
    program = tmp_path / "prog.py"
    program.write_text("import tensorflow as tf\nprint((tf.constant(1e30) * tf.constant(1e30)).numpy())\n")
    r = devtrace("run", str(program))
    assert r.returncode == 0 and "inf" in r.stdout and "RuntimeWarning" not in r.stderr
