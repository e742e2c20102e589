"""A TF1 graph: build a chain of adds, open a Session, run it once — devtrace against TensorFlow
(with ``--oracle``), the same program in two processes of one run.

    python bench/graph_chain.py [--oracle VENV] [--nodes 20000,100000] [--rounds 3]

Target (issue 15): devtrace >= 20x faster than TensorFlow 2.21 at 20k and 100k nodes. Each
process times only its own build + Session + first run (not its imports). The two run in
alternating rounds, and each side's best round counts: a slow moment of a shared machine hits
one round of one side, not the ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import _oracle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = """import os, sys, time
sys.path.insert(0, {root!r})
if {devtrace!r}:
    import devtrace as tf
else:
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
v1 = tf.compat.v1
v1.disable_eager_execution()
start = time.perf_counter()
g = v1.Graph()
with g.as_default():
    x = v1.constant(1.0)
    one = v1.constant(1.0)
    for _ in range({n} - 2):
        x = v1.add(x, one)
    with v1.Session(graph=g) as sess:
        value = sess.run(x)
print(time.perf_counter() - start, value)
"""


def timed(python: str, n: int, devtrace: bool) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVTRACE_")}
    env.update({"CUDA_VISIBLE_DEVICES": "", "TF_ENABLE_ONEDNN_OPTS": "0"})
    out = subprocess.run([python, "-c", PROGRAM.format(root=ROOT, devtrace=devtrace, n=n)], capture_output=True,
                         text=True, env=env, check=True).stdout.split()
    assert float(out[1]) == n - 1, out  # the chain computed what it should
    return float(out[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _oracle.add_argument(parser)
    parser.add_argument("--nodes", default="20000,100000")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    oracle = _oracle.python(args.oracle)
    print(f"{'nodes':>8} {'devtrace':>10} {'TensorFlow':>11} {'speed-up':>9}   (best of {args.rounds} alternating rounds)")
    for n in (int(s) for s in args.nodes.split(",")):
        ours, theirs = [], []
        for _ in range(args.rounds):
            ours.append(timed(sys.executable, n, True))
            if oracle is not None:
                theirs.append(timed(oracle, n, False))
        ours = min(ours)
        if oracle is None:
            print(f"{n:>8} {ours:>9.2f}s {'-':>11} {'-':>9}")
            continue
        theirs = min(theirs)
        speedup = theirs / ours
        verdict = "ok" if speedup >= 20 else f"MISSED by {20 / speedup:.2f}x"
        print(f"{n:>8} {ours:>9.2f}s {theirs:>10.2f}s {speedup:>8.1f}x  (target >= 20x: {verdict})")


if __name__ == "__main__":
    main()
