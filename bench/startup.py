"""CLI start-up time as ratios to ``python -c "import typer"`` (the floor every typer CLI pays).

Median of N runs each, all measured side by side in this one run:

    python bench/startup.py [--runs 10]

Targets (issue #2): ``--help`` <= 1.3x, ``list --simulate 2`` <= 1.5x (text and --json).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

CASES = [
    ("python -c 'import typer'", [sys.executable, "-c", "import typer"]),
    ("devtrace --help", [sys.executable, "-m", "devtrace", "--help"]),
    ("devtrace list --simulate 2", [sys.executable, "-m", "devtrace", "list", "--simulate", "2"]),
    ("devtrace list --simulate 2 --json", [sys.executable, "-m", "devtrace", "list", "--simulate", "2", "--json"]),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    # pip writes bytecode for installed packages (typer has it); an editable checkout under
    # PYTHONDONTWRITEBYTECODE would recompile devtrace on every start. Compile it once, as an install does.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(root, "devtrace")], check=True)
    env = dict(os.environ)
    for name in ("DEVTRACE_SIMULATE", "DEVTRACE_MACHINE", "CUDA_VISIBLE_DEVICES"):
        env.pop(name, None)
    times = {label: [] for label, _ in CASES}
    for _ in range(runs):  # interleaved, so drift in machine load hits every case alike
        for label, cmd in CASES:
            start = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
            times[label].append(time.perf_counter() - start)
    floor = statistics.median(times[CASES[0][0]])
    print(f"{'command':<36} {'median ms':>10} {'ratio':>7}")
    for label, _ in CASES:
        m = statistics.median(times[label])
        print(f"{label:<36} {m * 1000:>10.1f} {m / floor:>6.2f}x")
    heavy = subprocess.run([sys.executable, "-X", "importtime", "-m", "devtrace", "list", "--simulate", "2"],
                           capture_output=True, text=True, env=env).stderr
    loaded = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in heavy.splitlines() if "|" in line}
    print("heavy modules imported by 'list --simulate 2':",
          ", ".join(sorted(loaded & {"numpy", "cupy", "pynvml", "rich"})) or "none")


if __name__ == "__main__":
    main()
