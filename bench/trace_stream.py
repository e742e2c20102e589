"""A million-op program traced: time and peak memory of ``devtrace run --trace``, ``--format summary``
and ``diff`` of two such traces, side by side with the same loop in plain NumPy (one run, ratios).

    python bench/trace_stream.py [--ops 1000000]

Targets (issue 15): the traced run ≤ 7× NumPy's whole process and ≤ 150 MiB peak; summary and diff
≤ 150 MiB. Each line says whether its target holds, and by how much it is missed when it does not.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

LOOP = """import devtrace as tf
x = tf.constant(0.0)
one = tf.constant(1.0)
for _ in range({n}):
    x = tf.add(x, one)
print(x)
"""
NUMPY = """import numpy as np
x = np.float32(0.0)
one = np.ones((), np.float32)
for _ in range({n}):
    x = np.add(x, one)
print(x)
"""


def measure(argv, cwd) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MiB and exit status of one process."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=1_000_000)
    n = parser.parse_args().ops
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("loop.py", LOOP), ("numpy_loop.py", NUMPY)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text.format(n=n))
        dt = [sys.executable, "-m", "devtrace"]
        rows = [
            ("numpy loop", [sys.executable, "numpy_loop.py"], None, None),
            ("run --simulate 1 --trace", dt + ["run", "loop.py", "--simulate", "1", "--trace", "a.jsonl"], 7.0, 150),
            ("run (CPU) --trace", dt + ["run", "loop.py", "--trace", "b.jsonl"], None, 150),
            ("run --format summary", dt + ["run", "loop.py", "--simulate", "1", "--format", "summary"], None, 150),
            ("diff a b", dt + ["diff", "a.jsonl", "b.jsonl"], None, 150),
        ]
        base = None
        print(f"{n:,} ops")
        for label, argv, max_ratio, max_mib in rows:
            seconds, mib, status = measure(argv, d)
            base = base or seconds
            ratio = seconds / base
            verdict = []
            if max_ratio is not None:
                verdict.append(f"time ≤ {max_ratio:g}× numpy: " + ("yes" if ratio <= max_ratio else
                                                                  f"NO, missed by {ratio / max_ratio:.2f}×"))
            if max_mib is not None:
                verdict.append(f"≤ {max_mib} MiB: " + ("yes" if mib <= max_mib else f"NO, missed by {mib / max_mib:.2f}×"))
            print(f"{label:<26} {seconds:7.2f} s  {ratio:5.2f}× numpy  peak {mib:7.1f} MiB  exit {status}"
                  + (f"  ({'; '.join(verdict)})" if verdict else ""))
        size = os.path.getsize(os.path.join(d, "a.jsonl"))
        with open(os.path.join(d, "a.jsonl"), "rb") as f:  # the loop's adds, one op_placed line each
            adds = sum(1 for line in f
                       if line.startswith(b'{"schema": 1, "event": "op_placed"') and b'"op": "AddV2"' in line)
        print(f"trace: {size / 2**20:.0f} MiB, {adds:,} AddV2 ops (every op: {'yes' if adds == n else 'NO'})")


if __name__ == "__main__":
    main()
