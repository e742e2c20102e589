"""Per-op dispatch cost of devtrace against NumPy (and PyTorch and TensorFlow with ``--oracle``),
side by side in one process.

    python bench/dispatch.py [--oracle VENV] [--rounds 9] [--sources]

``--sources`` records each op's source line (``runtime/sources.py``), as ``devtrace run`` does.

Targets (issue 15): a 2x2 float32 ``add`` (placement log off) on the CPU path no slower than
PyTorch's ``torch.add`` measured in the same process (about 5x ``numpy.add``; without PyTorch the
5x is the target), on a simulated GPU <= 8x ``numpy.add``; a 1024x1024 ``matmul`` <= 1.05x
``numpy.matmul``. The machine is simulated (one GPU), as ``devtrace run --simulate 1``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.pop("DEVTRACE_MACHINE", None)
os.environ["DEVTRACE_SIMULATE"] = "1"

import numpy as np  # noqa: E402

import _oracle  # noqa: E402
import devtrace as tf  # noqa: E402


def side_by_side(fns: dict, number: int, rounds: int) -> dict:
    """Time each of ``fns`` (NumPy's first; ``label: fn`` or ``label: (fn, device scope)``) round
    after round, so that load and clock changes hit all alike; ``{label: (best seconds per call,
    median over rounds of its ratio to NumPy)}``."""
    times = {label: [] for label in fns}
    for _ in range(rounds):
        for label, fn in fns.items():
            fn, scope = fn if isinstance(fn, tuple) else (fn, contextlib.nullcontext())
            with scope:
                times[label].append(min(timeit.repeat(fn, number=number, repeat=3)) / number)
    base = times[next(iter(fns))]
    return {label: (min(ts), statistics.median(t / b for t, b in zip(ts, base))) for label, ts in times.items()}


def small_add(frameworks) -> dict:
    a_np, b_np = np.ones((2, 2), np.float32), np.ones((2, 2), np.float32)
    fns = {"numpy.add": lambda: np.add(a_np, b_np)}
    if "torch" in frameworks:
        torch = frameworks["torch"]
        ta, tb = torch.ones(2, 2), torch.ones(2, 2)
        fns["torch.add"] = lambda: torch.add(ta, tb)
    if "tensorflow" in frameworks:
        real = frameworks["tensorflow"]
        with real.device("/CPU:0"):
            ra, rb = real.constant(a_np), real.constant(b_np)
        fns["tensorflow.add"] = lambda: real.add(ra, rb)
    with tf.device("/CPU:0"):
        ca, cb = tf.constant(a_np), tf.constant(b_np)
        tf.add(ca, cb)  # warm the placement cache
    with tf.device("/GPU:0"):
        ga, gb = tf.constant(a_np), tf.constant(b_np)
        tf.add(ga, gb)
    fns["devtrace.add CPU"] = (lambda: tf.add(ca, cb)), tf.device("/CPU:0")
    fns["devtrace.add simulated GPU"] = (lambda: tf.add(ga, gb)), tf.device("/GPU:0")
    return fns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _oracle.add_argument(parser)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--sources", action="store_true", help="record each op's source line, as devtrace run does")
    args = parser.parse_args()
    if args.sources:
        from devtrace.runtime import sources

        sources.enable(__file__)
    frameworks = _oracle.import_from(args.oracle, "torch", "tensorflow")
    small = side_by_side(small_add(frameworks), 20000, args.rounds)
    big_a = np.random.default_rng(0).random((1024, 1024), dtype=np.float32)
    big_b = np.random.default_rng(1).random((1024, 1024), dtype=np.float32)
    with tf.device("/CPU:0"):
        ta, tb = tf.constant(big_a), tf.constant(big_b)
        tf.matmul(ta, tb)
    big = side_by_side({"numpy.matmul": lambda: np.matmul(big_a, big_b),
                        "devtrace.matmul CPU": ((lambda: tf.matmul(ta, tb)), tf.device("/CPU:0"))},
                       3, max(3, args.rounds // 2))
    print(f"{'2x2 float32 add':<30} {'best per op':>12} {'x numpy (median of rounds)':>28}")
    for label, (best, ratio) in small.items():
        print(f"{label:<30} {best * 1e6:>10.2f}us {ratio:>27.2f}x")
    print(f"{'1024x1024 float32 matmul':<30}")
    for label, (best, ratio) in big.items():
        print(f"{label:<30} {best * 1e3:>10.2f}ms {ratio:>27.2f}x")
    cpu = small["devtrace.add CPU"][1]
    torch_ratio = small["torch.add"][1] if "torch.add" in small else 5.0
    print()
    print(_oracle.verdict(cpu, torch_ratio, "add, CPU path <= " + ("PyTorch" if "torch.add" in small else "5x NumPy")))
    print(_oracle.verdict(small["devtrace.add simulated GPU"][1], 8.0, "add, simulated GPU <= 8x NumPy"))
    print(_oracle.verdict(big["devtrace.matmul CPU"][1], 1.05, "matmul <= 1.05x NumPy"))


if __name__ == "__main__":
    main()
