"""Per-op dispatch cost in instructions (callgrind), load-proof where ``bench/dispatch.py``'s wall
clock is not: a 2x2 float32 add called as ``dispatch.py`` calls it (``timeit``, collector off) on a
simulated machine (as ``devtrace run --simulate 1``), instructions per call, against ``numpy.add``.

    python bench/dispatch_ir.py [-n 20000]

Needs ``valgrind``. Each case runs in its own process under ``valgrind --tool=callgrind``, counting
only the timed loop (``--toggle-collect=starmap_next``: the loop is started through
``itertools.starmap``, which nothing else here calls).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

CASES = {"numpy.add": "numpy", "devtrace.add CPU": "cpu", "devtrace.add simulated GPU": "gpu",
         "devtrace x + y CPU": "operator"}


def loop(mode: str, n: int) -> None:
    """The timed loop of one case (run under callgrind by :func:`main`)."""
    import gc
    import timeit
    from collections import deque
    from itertools import starmap

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.environ.pop("DEVTRACE_MACHINE", None)
    os.environ["DEVTRACE_SIMULATE"] = "1"
    import numpy as np

    import devtrace as tf

    a_np = np.ones((2, 2), np.float32)
    gc.disable()  # as timeit
    with tf.device("/GPU:0" if mode == "gpu" else "/CPU:0"):
        a, b = tf.constant(a_np), tf.constant(a_np)
        tf.add(a, b)  # the placement cached
        call = {"numpy": lambda: np.add(a_np, a_np), "cpu": lambda: tf.add(a, b), "gpu": lambda: tf.add(a, b),
                "operator": lambda: a + b}[mode]
        deque(starmap(timeit.Timer(call).timeit, [(n,)]), maxlen=0)


def instructions(mode: str, n: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=starmap_next", f"--callgrind-out-file={out}",
                        sys.executable, os.path.abspath(__file__), "--loop", mode, "-n", str(n)],
                       check=True, capture_output=True)
        with open(out) as f:
            totals = next(line for line in f if line.startswith(("totals:", "summary:")))
        return int(totals.split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000, help="calls per case")
    parser.add_argument("--loop", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.loop:
        loop(args.loop, args.n)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench/dispatch_ir.py needs valgrind (apt-get install valgrind)")
    per_call = {label: instructions(mode, args.n) / args.n for label, mode in CASES.items()}
    base = per_call["numpy.add"]
    print(f"{'2x2 float32 add':<30} {'instructions per call':>22} {'x numpy':>8}")
    for label, ir in per_call.items():
        print(f"{label:<30} {ir:>22.0f} {ir / base:>7.2f}x")


if __name__ == "__main__":
    main()
