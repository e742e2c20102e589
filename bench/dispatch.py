"""Per-op dispatch cost of devtrace against raw NumPy on the same arrays, in one process.

    python bench/dispatch.py

Targets (issue #3): a 2x2 float32 ``add`` (placement log off) <= 8x ``numpy.add``; a
1024x1024 ``matmul`` <= 1.05x ``numpy.matmul``. Runs on the CPU (no GPU, no simulation).
"""

from __future__ import annotations

import os
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for name in ("DEVTRACE_SIMULATE", "DEVTRACE_MACHINE"):
    os.environ.pop(name, None)

import numpy as np  # noqa: E402

import devtrace as tf  # noqa: E402


def best(stmt, number, repeat=7):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> None:
    a_np = np.ones((2, 2), np.float32)
    b_np = np.ones((2, 2), np.float32)
    a, b = tf.constant(a_np), tf.constant(b_np)
    tf.add(a, b)  # warm the placement cache
    small_np = best(lambda: np.add(a_np, b_np), 20000)
    small_dt = best(lambda: tf.add(a, b), 20000)
    big_a = np.random.default_rng(0).random((1024, 1024), dtype=np.float32)
    big_b = np.random.default_rng(1).random((1024, 1024), dtype=np.float32)
    ta, tb = tf.constant(big_a), tf.constant(big_b)
    tf.matmul(ta, tb)
    big_np = best(lambda: np.matmul(big_a, big_b), 5)
    big_dt = best(lambda: tf.matmul(ta, tb), 5)
    print(f"{'op':<28} {'numpy':>12} {'devtrace':>12} {'ratio':>7}")
    print(f"{'add 2x2 float32':<28} {small_np * 1e6:>10.2f}us {small_dt * 1e6:>10.2f}us {small_dt / small_np:>6.2f}x")
    print(f"{'matmul 1024x1024 float32':<28} {big_np * 1e3:>10.2f}ms {big_dt * 1e3:>10.2f}ms {big_dt / big_np:>6.2f}x")


if __name__ == "__main__":
    main()
