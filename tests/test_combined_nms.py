"""tf.image.combined_non_max_suppression (issue 28): TensorFlow 2.21's CombinedNonMaxSuppression, its
output for random boxes and scores equal to tensorflow-cpu 2.21's (tests/tf221_nn/combined_nms_*)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent / "tf221_nn"
ROOT = HERE.parents[1]


def test_output_is_tensorflows():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "tf221" / "run_devtrace.py"),
                           str(HERE / "combined_nms_program.py")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == (HERE / "combined_nms_tf.txt").read_text().splitlines()
