"""bench/train_step.py names an unknown ``--cases`` entry in one line and exits 2 (it used to skip it
silently, timing nothing for a misspelt case)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_unknown_case_is_one_line_and_exit_2():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "train_step.py"), "--cases", "cnn_fit,cnnfit"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "train_step.py: unknown case 'cnnfit' (cases: mlp_fit, cnn_fit, mlp_function, mnist_fit)\n"
