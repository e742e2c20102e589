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


@pytest.mark.slow  # a storm of 12 real processes each
@pytest.mark.parametrize("command,code", [(["-m", "devtrace", "run"], 130), ([], -signal.SIGINT)],
                         ids=["devtrace-run", "plain-python"])
def test_ctrl_c_always_stops_a_tight_op_loop(command, code, tmp_path):
    assert interrupted(command, 12, tmp_path) == [code] * 12


def _signalled_with_trace(sig, tries, tmp_path):
    """Run the loop under ``devtrace run --trace`` and send ``sig`` at a random moment, ``tries``
    times; each run's exit code and whether its trace is complete valid JSON Lines."""
    import json

    program = tmp_path / "loop.py"
    program.write_text(LOOP)
    rng = random.Random(sig)
    results = []
    for i in range(tries):
        trace = tmp_path / f"t{i}.jsonl"
        p = subprocess.Popen([sys.executable, "-m", "devtrace", "run", str(program), "--trace", str(trace)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        assert p.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.01, 0.1))
        p.send_signal(sig)
        try:
            code = p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            code = "still running"
        p.stdout.close()
        events = [json.loads(line) for line in trace.read_text().splitlines()] if trace.exists() else []
        complete = len(events) > 2 and events[0]["event"] == "trace_start" and \
            events[-2]["event"] == "memory_stats" and events[-1] == {
                "schema": 1, "event": "trace_end", "status": code, "events": len(events) - 1}
        results.append((code, complete))
    return results


@pytest.mark.slow  # a storm of 30 real processes each
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_run_with_its_exit_code_and_a_complete_trace(sig, code, tmp_path):
    assert _signalled_with_trace(sig, 30, tmp_path) == [(code, True)] * 30
