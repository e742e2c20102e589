"""Ctrl-C always stops a program under devtrace, even when it lands in a tensor's finalizer (real
subprocesses, SIGINT at random points of a tight op loop)."""

import random
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT

LOOP = """import devtrace as tf
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print("ready", flush=True)
while True:
    for _ in range(8):
        x = tf.add(x, x) * 0.5
"""


def interrupted(command, tries, tmp_path):
    program = tmp_path / "loop.py"
    program.write_text(LOOP)
    codes = []
    rng = random.Random(1234)
    for _ in range(tries):
        p = subprocess.Popen([sys.executable, *command, str(program)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
        assert p.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.02, 0.2))
        p.send_signal(signal.SIGINT)
        try:
            codes.append(p.wait(timeout=10))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            codes.append("still running")
        p.stdout.close()
        p.stderr.close()
    return codes


@pytest.mark.parametrize("command,code", [(["-m", "devtrace", "run"], 130), ([], -signal.SIGINT)],
                         ids=["devtrace-run", "plain-python"])
def test_ctrl_c_always_stops_a_tight_op_loop(command, code, tmp_path):
    assert interrupted(command, 12, tmp_path) == [code] * 12
