"""Converting a 1M-op trace: peak memory and time of ``devtrace timeline`` and ``devtrace report``.

Writes a synthetic JSONL trace (eager, 4 GPUs and the CPU, a cross-device copy every 8 ops, a
memory region every 10 000 ops, the bytes in use after every op), then converts it in a fresh process per output and reports the
child's peak RSS (``resource.getrusage(RUSAGE_CHILDREN)``) and wall time:

    python bench/timeline.py [--ops 1000000] [--keep DIR]

Target (issue 17): <= 150 MiB peak RSS for 1M ops; the output says how it was sampled.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

PREFIX = "/job:localhost/replica:0/task:0/device:"


def write_trace(path: str, n: int) -> None:
    gpus = [f"{PREFIX}GPU:{i}" for i in range(4)]
    cpu = f"{PREFIX}CPU:0"
    enc = json.JSONEncoder(separators=(", ", ": ")).encode
    with open(path, "w", encoding="utf-8") as f:
        f.write(enc({"schema": 1, "event": "trace_start", "mode": "eager", "source": "devtrace",
                     "program": "bench/timeline.py", "backend": "simulated"}) + "\n")
        f.write(enc({"schema": 1, "event": "device_created", "name": cpu, "device_type": "CPU",
                     "physical_index": None, "memory_limit": None, "description": "", "simulated": False}) + "\n")
        for i, g in enumerate(gpus):
            f.write(enc({"schema": 1, "event": "device_created", "name": g, "device_type": "GPU", "physical_index": i,
                         "memory_limit": 16 << 30, "description": f"device: {i}, name: bench GPU",
                         "simulated": True}) + "\n")
        reserved = [0] * 4
        lines = []
        for seq in range(1, n + 1):
            d = seq % 4
            dev = gpus[d] if seq % 16 else cpu
            inputs = [seq - 1, seq - 2] if seq > 2 else []
            if seq > 2 and seq % 8 == 0:
                src = gpus[(seq - 1) % 4] if (seq - 1) % 16 else cpu
                lines.append(enc({"schema": 1, "event": "tensor_copied", "seq": seq, "op": "AddV2", "input_index": 0,
                                  "src": src, "dst": dev, "nbytes": 4096}))
            if seq % 10000 == 0:  # a new region on each GPU in turn
                d = (seq // 10000) % 4
                reserved[d] += 2 << 20
                lines.append(enc({"schema": 1, "event": "memory_reserved", "device": gpus[d],
                                  "allocator": f"GPU_{d}_bfc", "nbytes": 2 << 20, "total_reserved": reserved[d]}))
            lines.append(enc({"schema": 1, "event": "op_placed", "seq": seq, "op": "AddV2" if inputs else "_EagerConst",
                              "node": None, "requested": "", "device": dev, "reason": "default", "inputs": inputs,
                              "shape": [32, 32], "dtype": "float32", "duration_ns": 1500 + seq % 700,
                              "mem_in_use": 4096 * (1 + seq % 64)}))
            if len(lines) >= 10000:
                f.write("\n".join(lines) + "\n")
                lines.clear()
        f.write("\n".join(lines) + ("\n" if lines else ""))


def measure(args: list[str]) -> tuple[float, float]:
    """(peak RSS in MiB, seconds) of one child process."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "r = subprocess.run(sys.argv[1:]); dt = time.perf_counter() - t; "
            "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; "
            "print(peak, dt, r.returncode)")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    peak_kib, seconds, status = done.stdout.split()
    if status != "0":
        raise SystemExit(f"{' '.join(args)} exited {status}")
    return int(peak_kib) / 1024, float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops", type=int, default=1_000_000)
    parser.add_argument("--keep", help="write the trace and outputs into DIR and keep them")
    a = parser.parse_args()
    directory = a.keep or tempfile.mkdtemp(prefix="devtrace-bench-")
    os.makedirs(directory, exist_ok=True)
    trace = os.path.join(directory, "big.jsonl")
    t = time.perf_counter()
    write_trace(trace, a.ops)
    print(f"trace: {a.ops} ops, {os.path.getsize(trace) / 2**20:.0f} MiB JSONL ({time.perf_counter() - t:.1f} s to write)")
    baseline, _ = measure([sys.executable, "-c", "import devtrace.trace.timeline"])
    print(f"baseline (python + devtrace.trace imported): {baseline:.0f} MiB")
    for kind, name in (("timeline", "big.trace.json"), ("report", "big.html")):
        out = os.path.join(directory, name)
        peak, seconds = measure([sys.executable, "-m", "devtrace", kind, trace, "-o", out])
        with open(out, "rb") as f:
            f.seek(max(0, os.path.getsize(out) - 400_000))
            tail = f.read().decode("utf-8", "replace")
        sampled = "1 op in" in tail
        verdict = "ok" if peak <= 150 else "OVER 150 MiB"
        print(f"devtrace {kind}: peak RSS {peak:.0f} MiB ({verdict}), {seconds:.1f} s, "
              f"output {os.path.getsize(out) / 2**20:.1f} MiB, says it was sampled: {sampled}")
    if not a.keep:
        for name in ("big.jsonl", "big.trace.json", "big.html"):
            os.unlink(os.path.join(directory, name))
        os.rmdir(directory)


if __name__ == "__main__":
    main()
