"""Graph placement time at 1k, 10k, 100k and 1M nodes, in one process.

    python bench/graph_placement.py [--sizes 1000,10000,100000,1000000]

Each graph repeats one block of 100 nodes until it has the requested size: a chain of 8 ops
under an explicit GPU scope, a fan-in ``AddN`` of 16 constants on the CPU, three variables
(``compat.v1.Variable``: value, ``VariableV2``, ``Assign``, ``read``) under ``/cpu:0`` with
reads colocated to them and an ``Assign`` from a GPU scope (a ref edge the placer must pull
back), an op with a ``colocate_with`` group, and unscoped ops. Graphs are built through the
graph API outside the timed part; only ``graph_placer.place`` is timed (best of 3 at every
size, so the ratio compares like with like; garbage collector paused), on a simulated 4-GPU machine.

Targets (issue 15): 1M nodes placed in <= 5 s; time(1M) / time(100k) <= 12 (linear).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for name in ("DEVTRACE_SIMULATE", "DEVTRACE_MACHINE"):
    os.environ.pop(name, None)

import numpy as np  # noqa: E402

from devtrace.devices.discovery import discover  # noqa: E402
import devtrace.ops  # noqa: E402,F401 (declares the ops the graph is built of)
from devtrace.runtime import dtypes  # noqa: E402
from devtrace.runtime.context import reset_context  # noqa: E402
from devtrace.runtime.graph import placer as graph_placer  # noqa: E402
from devtrace.runtime.graph.graph import Graph  # noqa: E402
from devtrace.runtime.graph.variables import RefVariable as Variable  # noqa: E402 (VariableV2 nodes)

BLOCK = 100
_VALUE = np.ones((2, 2), np.float32)


def _const(g, name=None):
    return g._create_const(_VALUE, dtypes.float32, name)


def _block(g, k: int) -> None:
    """Exactly ``BLOCK`` nodes."""
    with g.device(f"/device:GPU:{k % 4}"):  # a chain of 8 ops (9 nodes)
        x = _const(g)
        for op_type in ("Identity", "Square", "Neg", "Identity", "Square", "Neg", "Identity", "MatMul"):
            inputs = [x, x] if op_type == "MatMul" else [x]
            x = g.create_op(op_type, inputs).outputs[0]
    with g.device("/cpu:0"):  # fan-in: 16 constants into AddN (17 nodes)
        g.create_op("AddN", [_const(g) for _ in range(16)])
    for _ in range(3):  # 3 x (4 variable nodes + 2 colocated reads + Assign/value + Assign) = 24
        with g.device("/cpu:0"):
            v = Variable(_VALUE)
        with g.colocate_with(v.op):
            g.create_op("Identity", [v._snapshot])
            g.create_op("Square", [v._snapshot])
        with g.device(f"/device:GPU:{k % 4}"):
            v.assign(_VALUE)
    anchor = _const(g)  # a colocate_with group of 5 (5 nodes)
    with g.colocate_with(anchor.op):
        for _ in range(4):
            g.create_op("Identity", [anchor])
    for _ in range(15):  # unscoped pairs (30 nodes)
        g.create_op("Square", [_const(g)])
    y = x
    for _ in range(15):  # an unscoped chain (15 nodes)
        y = g.create_op("Identity", [y]).outputs[0]


def build(n: int) -> Graph:
    g = Graph()
    with g.as_default():
        for k in range(n // BLOCK):
            _block(g, k)
    assert g.version == n, (g.version, n)
    return g


def timed(g, devices, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            graph_placer.place(g, devices)
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    ctx = reset_context(discover(simulate="4"))
    ctx.ensure_initialized("bench")
    devices = ctx.devices
    print(f"{'nodes':>9} {'edges':>9} {'build':>9} {'place':>9} {'nodes/s':>11}")
    times = {}
    for n in sizes:
        start = time.perf_counter()
        g = build(n)
        built = time.perf_counter() - start
        edges = sum(len(op._inputs) + len(op._control_inputs) for op in g._ops)
        t = timed(g, devices, 3)
        times[n] = t
        print(f"{n:>9} {edges:>9} {built:>8.2f}s {t:>8.3f}s {n / t:>11,.0f}")
        del g
        gc.collect()
    if 100_000 in times and 1_000_000 in times:
        ratio = times[1_000_000] / times[100_000]
        over = max(ratio / 12, times[1_000_000] / 5)
        verdict = "ok" if over <= 1 else f"MISSED by {over:.2f}x"
        print(f"time(1M) / time(100k) = {ratio:.1f}x (target <= 12x); 1M nodes in {times[1_000_000]:.2f}s "
              f"(target <= 5 s): {verdict}")


if __name__ == "__main__":
    main()
