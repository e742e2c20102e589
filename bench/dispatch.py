"""Per-op dispatch cost of devtrace against raw NumPy on the same arrays, in one process.

    python bench/dispatch.py

Targets (issue #3): a 2x2 float32 ``add`` (placement log off) <= 8x ``numpy.add``; a
1024x1024 ``matmul`` <= 1.05x ``numpy.matmul``. Runs on the CPU (no GPU, no simulation).
"""

from __future__ import annotations

import os
import statistics
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for name in ("DEVTRACE_SIMULATE", "DEVTRACE_MACHINE"):
    os.environ.pop(name, None)

import numpy as np  # noqa: E402

import devtrace as tf  # noqa: E402


def side_by_side(numpy_fn, devtrace_fn, number, rounds=9):
    """Alternate the two, round after round, so that load and clock changes hit both alike;
    report each side's best time and the median of the per-round ratios."""
    pairs = []
    for _ in range(rounds):
        t_np = min(timeit.repeat(numpy_fn, number=number, repeat=3)) / number
        t_dt = min(timeit.repeat(devtrace_fn, number=number, repeat=3)) / number
        pairs.append((t_np, t_dt))
    ratio = statistics.median(dt / n for n, dt in pairs)
    return min(n for n, _ in pairs), min(dt for _, dt in pairs), ratio


def main() -> None:
    a_np = np.ones((2, 2), np.float32)
    b_np = np.ones((2, 2), np.float32)
    a, b = tf.constant(a_np), tf.constant(b_np)
    tf.add(a, b)  # warm the placement cache
    small = side_by_side(lambda: np.add(a_np, b_np), lambda: tf.add(a, b), 20000)
    big_a = np.random.default_rng(0).random((1024, 1024), dtype=np.float32)
    big_b = np.random.default_rng(1).random((1024, 1024), dtype=np.float32)
    ta, tb = tf.constant(big_a), tf.constant(big_b)
    tf.matmul(ta, tb)
    big = side_by_side(lambda: np.matmul(big_a, big_b), lambda: tf.matmul(ta, tb), 3, rounds=5)
    print(f"{'op':<28} {'numpy':>12} {'devtrace':>12} {'ratio (median of rounds)':>26}")
    print(f"{'add 2x2 float32':<28} {small[0] * 1e6:>10.2f}us {small[1] * 1e6:>10.2f}us {small[2]:>25.2f}x")
    print(f"{'matmul 1024x1024 float32':<28} {big[0] * 1e3:>10.2f}ms {big[1] * 1e3:>10.2f}ms {big[2]:>25.2f}x")


if __name__ == "__main__":
    main()
