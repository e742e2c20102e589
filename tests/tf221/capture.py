"""Capture what real TensorFlow prints for every probe program (or the ones named).

    python tests/tf221/capture.py --python /path/to/tf-venv/bin/python [NAME ...]

Runs each ``programs/NAME.py`` with that interpreter (TensorFlow 2.21 installed there, never in
devtrace's environment), CPU only, and writes ``captures/NAME.stdout``, ``NAME.stderr`` and
``NAME.exit`` after the normalisations below. README.md says how the captures were made.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
CAPTURES = HERE / "captures"

ENV = {
    "CUDA_VISIBLE_DEVICES": "",  # CPU only, as devtrace's CPU-only machine
    "TF_ENABLE_ONEDNN_OPTS": "0",  # no oneDNN rewrites (they rename ops: _MklMatMul …)
    "PYTHONHASHSEED": "0",
    "TF_CPP_MIN_LOG_LEVEL": "0",  # keep INFO: the placement log is INFO
}

# Normalisations, applied to TensorFlow's stderr, each for the reason given.
STDERR_RULES = [
    # glog prefix: severity+date, time, thread id, source file:line — vary run to run
    (re.compile(r"^[IWEF]\d{4} [\d:.]+\s+\d+ [\w.]+:\d+\] ", re.M), ""),
    # start-up noise that depends on the CPU and the build, not on the program
    (re.compile(r"^WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR\n",
                re.M), ""),
    (re.compile(r"^This TensorFlow binary is optimized to use available CPU instructions.*\n"
                r"(To enable the following instructions:.*\n)?", re.M), ""),
    (re.compile(r"^.*(oneDNN custom operations are on|Could not find cuda drivers|Unable to register cu\w+ "
                r"factory|computation placer already registered|failed call to cuInit|TF-TRT Warning).*\n", re.M), ""),
    # absolute paths of the TensorFlow installation in warnings and tracebacks
    (re.compile(r"/\S*/site-packages/"), "<site-packages>/"),
    (re.compile(r"^WARNING:absl:.*\n", re.M), ""),
]
# Memory addresses printed by reprs vary run to run.
ADDRESS = (re.compile(r"0x[0-9a-f]{6,}"), "0x…")


def normalise_stderr(text: str) -> str:
    for pattern, repl in STDERR_RULES + [ADDRESS]:
        text = pattern.sub(repl, text)
    return text


def normalise_stdout(text: str) -> str:
    return ADDRESS[0].sub(ADDRESS[1], text)


def capture(python: str, name: str) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "DEVTRACE_", "CUDA_"))}
    env.update(ENV)
    done = subprocess.run([python, str(PROGRAMS / f"{name}.py")], capture_output=True, text=True, env=env,
                          cwd=PROGRAMS, timeout=300)
    (CAPTURES / f"{name}.stdout").write_text(normalise_stdout(done.stdout), encoding="utf-8")
    (CAPTURES / f"{name}.stderr").write_text(normalise_stderr(done.stderr), encoding="utf-8")
    (CAPTURES / f"{name}.exit").write_text(f"{done.returncode}\n", encoding="utf-8")
    return done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with tensorflow-cpu==2.21.0")
    parser.add_argument("names", nargs="*", help="program names (default: all)")
    args = parser.parse_args()
    CAPTURES.mkdir(exist_ok=True)
    names = args.names or sorted(p.stem for p in PROGRAMS.glob("*.py"))
    for name in names:
        code = capture(args.python, name)
        print(f"{name}: exit {code}", file=sys.stderr)


if __name__ == "__main__":
    main()
