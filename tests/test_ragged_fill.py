"""tf.ragged_fill_empty_rows and tf.ragged_fill_empty_rows_grad (issue 28): TensorFlow 2.21's ops, their
outputs and the gradient through the fill, as tensorflow-cpu 2.21 printed them (tests/tf221_nn/)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent / "tf221_nn"
ROOT = HERE.parents[1]


def test_outputs_and_gradients_are_tensorflows():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "tf221" / "run_devtrace.py"),
                           str(HERE / "ragged_fill_program.py")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == (HERE / "ragged_fill_tf.txt").read_text().splitlines()
