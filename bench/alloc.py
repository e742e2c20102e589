"""Cost of devtrace's allocator bookkeeping, against a plain dict of sizes, in one process.

    python bench/alloc.py [--baseline REV]

1. Throughput: allocate+free pairs per second of a ``BFCAllocator`` (growth on, 1 TiB limit) with
   100 allocations live in a FIFO ring (each step frees the oldest, allocates a new one), for
   several request sizes, next to the same ring kept in a dict (``d[h] = size; del d[old]``).
   The target (issue 15): >= 2M pairs/s at every size.
2. Scaling: cost of one allocate+free pair when 1k / 10k / 100k chunks are already live and half
   as many free holes of mixed sizes fragment the regions (best fit must search them).

``--baseline REV`` also runs the ``BFCAllocator`` of git revision REV (e.g. ``main``) in 1 and 2,
its runs alternating with the current one's, and prints current/baseline time ratios.
3. ``HostAllocator`` (every CPU op): one allocate+free pair, next to ``d[h] = size; del d[h]``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from devtrace.output import KiB, MiB  # noqa: E402
from devtrace.runtime.memory import BFCAllocator, HostAllocator  # noqa: E402

TAG = ("Add", (2, 2), "float32")
TARGET = 2_000_000  # pairs/s in 1


def baseline_allocator(rev: str):
    """The ``BFCAllocator`` class of git revision ``rev``, loaded beside the current one."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    source = subprocess.run(["git", "show", f"{rev}:devtrace/runtime/memory/bfc.py"], cwd=root,
                            capture_output=True, text=True, check=True).stdout
    module = types.ModuleType("devtrace.runtime.memory._baseline_bfc")
    module.__package__ = "devtrace.runtime.memory"
    exec(compile(source, f"{rev}:bfc.py", "exec"), module.__dict__)
    return module.BFCAllocator


def best_of(fn, repeat=5) -> float:
    """Best wall time of ``fn()`` over ``repeat`` runs (seconds)."""
    return best_of_each([fn], repeat)[0]


def best_of_each(fns, repeat=5) -> list[float]:
    """Best wall time of each of ``fns`` over ``repeat`` rounds, one run of each per round (so a
    load on the machine weighs on all of them alike)."""
    times = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            times[i] = min(times[i], time.perf_counter() - t0)
    return times


def ring_bfc(size: int, steps: int, window: int = 100, cls=BFCAllocator):
    a = cls("GPU_0_bfc", 1 << 40, True)
    alloc, free = a.allocate, a.free
    ring = [alloc(size, TAG) for _ in range(window)]

    def run():
        for i in range(steps):
            j = i % window
            free(ring[j])
            ring[j] = alloc(size, TAG)
    return run


def ring_dict(size: int, steps: int, window: int = 100):
    d = {h: size for h in range(window)}
    ring = list(range(window))
    state = [window]

    def run():
        h = state[0]
        for i in range(steps):
            j = i % window
            del d[ring[j]]
            d[h] = size
            ring[j] = h
            h += 1
        state[0] = h
    return run


def throughput(baseline) -> None:
    steps, repeat = 50_000, 9
    print(f"1. allocate+free pairs/s, 100 live in a FIFO ring ({steps:,} pairs, best of {repeat} rounds, "
          "each round every size)")
    extra = f" {'baseline':>14} {'vs baseline':>11}" if baseline else ""
    print(f"   {'request':>8} {'BFCAllocator':>14} {'dict baseline':>14} {'ratio':>7}{extra}")
    sizes = (("256 B", 256), ("4 KiB", 4 * KiB), ("1 MiB", MiB), ("64 MiB", 64 * MiB))
    runs = []  # per size: BFC, dict (, baseline BFC), all timed in each round: a slow moment hits one round of all
    for _, size in sizes:
        runs += [ring_bfc(size, steps), ring_dict(size, steps)]
        if baseline:
            runs.append(ring_bfc(size, steps, cls=baseline))
    times, width = best_of_each(runs, repeat), 3 if baseline else 2
    slowest = float("inf")
    for k, (label, _) in enumerate(sizes):
        t_bfc, t_dict, *t_base = times[k * width:(k + 1) * width]
        slowest = min(slowest, steps / t_bfc)
        extra = f" {steps / t_base[0]:>14,.0f} {t_bfc / t_base[0]:>10.2f}x" if t_base else ""
        print(f"   {label:>8} {steps / t_bfc:>14,.0f} {steps / t_dict:>14,.0f} {t_bfc / t_dict:>6.1f}x{extra}")
    verdict = "met" if slowest >= TARGET else f"missed by {1 - slowest / TARGET:.0%}"
    print(f"   target >= {TARGET:,} pairs/s at every size: {verdict} (slowest {slowest:,.0f})")


def fragmented(n: int, cls):
    """One allocate+free pair after ``n`` live chunks and ~n/2 holes: (run, the allocator, pairs)."""
    rng = random.Random(n)
    mix = [256, 768, 1024, 4 * KiB, 10 * KiB, 64 * KiB]
    a = cls("GPU_0_bfc", 1 << 40, True)
    handles = [a.allocate(rng.choice(mix) + rng.randrange(0, 4096), TAG) for _ in range(n + n // 2)]
    rng.shuffle(handles)
    for h in handles[n:]:  # free a third: holes all over the regions
        a.free(h)
    requests = [rng.choice(mix) + rng.randrange(0, 4096) for _ in range(4096)]
    alloc, free = a.allocate, a.free
    pairs = 20_000

    def run():
        for i in range(pairs):
            free(alloc(requests[i & 4095], TAG))
    return run, a, pairs


def scaling(baseline) -> None:
    print("\n2. one allocate+free pair with N chunks live and ~N/2 free holes (mixed 256 B..64 KiB)")
    extra = f" {'baseline':>8} {'vs baseline':>11}" if baseline else ""
    print(f"   {'N live':>8} {'free holes':>10} {'regions':>8} {'us/pair':>8}{extra}")
    for n in (1_000, 10_000, 100_000):
        run, a, pairs = fragmented(n, BFCAllocator)
        runs = [run] + ([fragmented(n, baseline)[0]] if baseline else [])
        t, *t_base = best_of_each(runs)
        holes = sum(1 for _, _, used in a.chunks() if not used)
        extra = f" {t_base[0] / pairs * 1e6:>8.2f} {t / t_base[0]:>10.2f}x" if t_base else ""
        print(f"   {n:>8,} {holes:>10,} {a.num_regions:>8} {t / pairs * 1e6:>8.2f}{extra}")


def host() -> None:
    pairs = 500_000
    a = HostAllocator("cpu")
    alloc, free = a.allocate, a.free

    def run_host():
        for _ in range(pairs):
            free(alloc(16, TAG))

    d = {}

    def run_dict():
        for h in range(pairs):
            d[h] = 16
            del d[h]

    t_host, t_dict = best_of(run_host), best_of(run_dict)
    print(f"\n3. HostAllocator allocate+free pair: {t_host / pairs * 1e9:.0f} ns "
          f"(dict baseline {t_dict / pairs * 1e9:.0f} ns, {t_host / t_dict:.1f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", metavar="REV", help="also run the BFCAllocator of this git revision")
    args = parser.parse_args()
    baseline = baseline_allocator(args.baseline) if args.baseline else None
    t0 = time.perf_counter()
    print(f"Python {sys.version.split()[0]}" + (f", baseline: {args.baseline}" if baseline else ""))
    throughput(baseline)
    scaling(baseline)
    host()
    print(f"\n(total {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
