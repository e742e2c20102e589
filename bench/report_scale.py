"""The HTML report at scale (issue 34): size of ``devtrace report`` for a 400k-op trace and the time
headless Chromium takes to open and draw it.

Writes a synthetic JSONL trace shaped like a Keras ``fit`` under ``--simulate 2`` (each step a
``tf.function`` call of ~270 ops of ``--types`` op types on GPU:0, a few on the CPU, the batch
copied host -> GPU and a metric GPU -> host, the bytes in use after every op), or takes a trace
you give (e.g. ``devtrace run quickstart.py --simulate 2 --trace t.jsonl``), converts it with
``devtrace report`` and opens the report in headless Chromium (``--dump-dom``). The page records
``performance.now()`` once it has drawn everything (``<body data-drawn-ms>``):

    python bench/report_scale.py [--ops 400000] [--types 60] [--trace T.jsonl] [--keep DIR]

Targets (issue 34): <= 3 MB and <= 3 s to draw on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

PREFIX = "/job:localhost/replica:0/task:0/device:"
STEP_OPS = 270


def write_trace(path: str, n: int, types: int = 60) -> None:
    """About ``n`` ops of ``types`` op types (and ``_Arg``), in steps of ``STEP_OPS`` (a ``tf.function``
    call each)."""
    cpu, gpu0, gpu1 = f"{PREFIX}CPU:0", f"{PREFIX}GPU:0", f"{PREFIX}GPU:1"
    names = [f"Op{i:02d}" for i in range(types)]
    enc = json.JSONEncoder(separators=(", ", ": ")).encode
    with open(path, "w", encoding="utf-8") as f:
        f.write(enc({"schema": 1, "event": "trace_start", "mode": "eager", "source": "devtrace",
                     "program": "bench/report_scale.py", "backend": "simulated"}) + "\n")
        f.write(enc({"schema": 1, "event": "device_created", "name": cpu, "device_type": "CPU", "physical_index": None,
                     "memory_limit": None, "description": "", "simulated": False}) + "\n")
        for i, g in enumerate((gpu0, gpu1)):
            f.write(enc({"schema": 1, "event": "device_created", "name": g, "device_type": "GPU", "physical_index": i,
                         "memory_limit": 15 << 30, "description": f"device: {i}, name: bench GPU",
                         "simulated": True}) + "\n")
            f.write(enc({"schema": 1, "event": "memory_reserved", "device": g, "allocator": f"GPU_{i}_bfc",
                         "nbytes": 15 << 30, "total_reserved": 15 << 30}) + "\n")
        seq, step, lines = 0, 0, []
        while seq < n:
            step += 1
            lines.append(enc({"schema": 1, "event": "function_call", "function": "__inference_train_step_2",
                              "index": step, "end": False, "ops": 0, "error": None}))
            for k in range(STEP_OPS):
                seq += 1
                on_cpu = k < 3
                if k == 3 or k == 4:  # the batch: host -> GPU
                    lines.append(enc({"schema": 1, "event": "tensor_copied", "seq": seq, "op": "Cast", "input_index": 0,
                                      "src": cpu, "dst": gpu0, "nbytes": 100352 if k == 3 else 256}))
                if k == STEP_OPS - 1:  # a metric read on the host
                    lines.append(enc({"schema": 1, "event": "tensor_copied", "seq": seq, "op": "Identity",
                                      "input_index": 0, "src": gpu0, "dst": cpu, "nbytes": 4}))
                op = names[(k * 7) % types] if k else "_Arg"  # every type in every step
                lines.append(enc({"schema": 1, "event": "op_placed", "seq": seq, "op": op,
                                  "node": f"sequential/dense_{k % 3}/{op}", "requested": "", "reason": "default",
                                  "device": cpu if on_cpu or k == STEP_OPS - 1 else gpu0,
                                  "inputs": [seq - 1] if seq > 1 else [], "shape": [32, 128], "dtype": "float32",
                                  "duration_ns": 1200 + (seq * 37) % 9000,
                                  "mem_in_use": None if on_cpu else (1 << 20) + 4096 * ((seq * 13) % 600)}))
            lines.append(enc({"schema": 1, "event": "function_call", "function": "__inference_train_step_2",
                              "index": step, "end": True, "ops": STEP_OPS, "error": None}))
            if len(lines) >= 20000:
                f.write("\n".join(lines) + "\n")
                lines.clear()
        f.write("\n".join(lines) + ("\n" if lines else ""))


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def open_in_chromium(html: str, profile: str, browser: str | None = None) -> tuple[str, float]:
    """The DOM headless Chromium dumps once the page has loaded (its scripts have run), and the
    wall time of the whole browser run."""
    t = time.perf_counter()
    done = subprocess.run([browser or chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           "--no-first-run", "--window-size=1280,1000", f"--user-data-dir={profile}", "--dump-dom",
                           "file://" + os.path.abspath(html)], capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return done.stdout, time.perf_counter() - t


def drawn_ms(dom: str) -> float | None:
    """``performance.now()`` when the page finished drawing (ms since navigation)."""
    m = re.search(r'data-drawn-ms="([\d.]+)"', dom)
    return float(m.group(1)) if m else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", type=int, default=400_000)
    ap.add_argument("--types", type=int, default=60)
    ap.add_argument("--trace", help="a trace to convert instead of a synthetic one")
    ap.add_argument("--keep", help="keep the trace and the report in this directory")
    ap.add_argument("--runs", type=int, default=3, help="browser runs (the best is reported too)")
    args = ap.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="devtrace-report-")
    os.makedirs(work, exist_ok=True)
    trace = args.trace or os.path.join(work, "trace.jsonl")
    if not args.trace:
        t = time.perf_counter()
        write_trace(trace, args.ops, args.types)
        print(f"trace: {args.ops} ops, {args.types} op types, {os.path.getsize(trace) / 1e6:.1f} MB "
              f"({time.perf_counter() - t:.1f} s)")
    html = os.path.join(work, "report.html")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "devtrace", "report", trace, "-o", html], check=True)
    print(f"devtrace report: {time.perf_counter() - t:.1f} s, {os.path.getsize(html) / 1e6:.2f} MB")
    if chromium() is None:
        print("no chromium binary: not opened")
        return 0
    blank = os.path.join(work, "blank.html")
    with open(blank, "w") as f:
        f.write("<!DOCTYPE html><title>blank</title>")
    for i in range(args.runs):
        with tempfile.TemporaryDirectory() as profile:
            _, base = open_in_chromium(blank, profile)
        with tempfile.TemporaryDirectory() as profile:
            dom, wall = open_in_chromium(html, profile)
        print(f"run {i + 1}: drawn {drawn_ms(dom)} ms after navigation; browser run {wall:.2f} s "
              f"(a blank page {base:.2f} s)")
    if not args.keep:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
