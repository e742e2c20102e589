"""Run the wide oracle's programs under devtrace and compare them with TensorFlow, cell by cell.

    python tests/tf221_oracle/cells.py                 # every program: cells matched per program
    python tests/tf221_oracle/cells.py indexing -v     # one program, each differing cell shown
    python tests/tf221_oracle/cells.py --write         # add to passing.txt the cells that match now
    python tests/tf221_oracle/cells.py --write --drop "indexing some cell" --why "..."   # and drop one
    python tests/tf221_oracle/cells.py --fresh         # each program in a new interpreter (tests/tf221/probes.py)

A cell matches when devtrace's stdout for it equals TensorFlow's capture (README.md, "Cells"),
after the capture's own normalisations and ``TF_OWN_FRAME`` — TensorFlow's printf placer lines included —, numbers to
float tolerance and spaces ignored (the rules of ``tests/test_tf221.py``), and so does its
placement log on stderr: the ``Executing op`` lines and the placer lines' glog copies, in order
(glog prefixes and a function's ``__inference_<name>_<uid>`` uid left out). The cells of
``PLACER_DROPPED`` are compared without the placer lines (stdout and stderr), those of
``LOG_DROPPED`` without their stderr, each for the reason given there. ``passing.txt`` lists the cells devtrace is held to:
``tests/test_tf221_oracle.py`` fails when one of them stops matching TensorFlow. It only grows: ``--write``
adds the cells that match now and refuses to leave out a listed one that does not, unless ``--drop``
names it and ``--why`` says why (the file keeps the reason as a ``# dropped`` line).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fcntl
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
CAPTURES = HERE / "captures"
PASSING = HERE / "passing.txt"
PLACER = re.compile(r"^[\w/.-]+: \(\w+\): /job:\S+$")
# the placement log on stderr, after capture.normalise: TensorFlow's glog prefixes, devtrace's bare lines
LOGGED = re.compile(r"^(?:I (?:execute|placer)\.cc:\d+\] )?(Executing op \S+ in device \S+|[\w/.-]+: \(\w+\): /job:\S+)$")
INFERENCE = re.compile(r"(__inference_\w+?)_\d+\b")  # a function's call op: its uid is a process-wide counter
MARKER = "--- "
# Named normalisation "TensorFlow's own frames" (README.md, "Comparing"): the frames inside TensorFlow's
# installation that its graph errors list (`Original stack trace`, `… was defined here:`) are its
# implementation, not behaviour; they are left out on both sides, the program's own frames are compared.
TF_OWN_FRAME = re.compile(r'^ *File "<site-packages>/tensorflow/[^"]+", line \d+, in \S+$')
ALL = None  # every cell of the program
# Cells compared without TensorFlow's placer lines (stdout's printf lines and their stderr copies),
# where devtrace does not print them as TensorFlow does yet (issue 13), by program.
PLACER_DROPPED = {
    # composites built of other ops (linspace, eye, tensordot), the one-op function cache of Shape
    # and int64 constants, stateless_uniform's Sub
    "place_eager_ops": {"linspace", "eye", "shape", "constant int64", "stateless_uniform", "tensordot"},
    # Const nodes for an op's host arguments (Sum's axis, range's bounds) inside a function
    "place_function": {"g", "g python arg"},
    # scatter_nd_update is TensorScatterUpdate + assign (TF: ResourceScatterNdUpdate); v.numpy() reads
    # the variable without an op (TF: ReadVariableOp, Identity)
    "place_variables": {"scatter_nd_update", "v.numpy()"},
    "onednn_default": ALL,  # oneDNN's _Mkl rewrites
    # the log staying on after set_log_device_placement(False), off when turned on after initialisation
    "place_log_disable": ALL, "place_log_toggle": ALL,
    # TF1 sessions' placer lines
    "tf1_disable_v2": ALL, "tf1_graph_basic": ALL, "tf1_graph_errors": ALL, "tf1_variables": ALL,
}
# Cells whose placement log (stderr) is not compared, with the reason.
LOG_DROPPED = {
    # devtrace honours set_log_device_placement whenever it is called (deliberate, README)
    "place_log_disable": ALL, "place_log_toggle": ALL,
    "onednn_default": ALL,  # oneDNN's _MklMatMul …: devtrace runs TensorFlow's own kernels
    # other ops executed: linspace and tensordot are one LinSpace/Einsum op in devtrace (TensorFlow:
    # Cast, Shape, BroadcastTo … / Reshape, MatMul); v.numpy() reads the variable without an op;
    # scatter_nd_update is ReadVariableOp, TensorScatterUpdate, AssignVariableOp (TF: ResourceScatterNdUpdate)
    "place_eager_ops": {"linspace", "tensordot"},
    "place_variables": {"v.numpy()", "scatter_nd_update"},
    # TF1 sessions log their placement as TF1's placer does, not line for line as TF 2.21's
    "tf1_disable_v2": ALL, "tf1_graph_basic": ALL, "tf1_graph_errors": ALL, "tf1_variables": ALL,
}


def _dropped(table: dict, name: str, label: str) -> bool:
    if name not in table:
        return False
    return table[name] is ALL or label in table[name]


def _load(name: str, path: pathlib.Path):
    """The module at ``path``, loaded once per process (``probes``: one probe server however many tests load this file)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


capture = _load("tf221_oracle_capture", HERE / "capture.py")
compare = _load("tf221_compare", HERE.parent / "tf221" / "compare.py")
probes = _load("probes", HERE.parent / "tf221" / "probes.py")


def split_cells(stdout: str, drop_placer=()) -> dict[str, list[str]]:
    """{label: the cell's stdout lines} (module-level output before the first marker is left out;
    ``drop_placer``: the labels whose printf placer lines are left out, ``ALL``: every cell's)."""
    cells: dict[str, list[str]] = {}
    current = None
    for line in stdout.splitlines():
        if line.startswith(MARKER):
            current = line[len(MARKER):]
            cells[current] = []
        elif current is not None and not ((drop_placer is ALL or current in drop_placer) and PLACER.match(line)) \
                and not TF_OWN_FRAME.match(line):
            cells[current].append(line)
    return cells


def _cells(name: str, stdout: str, stderr: str) -> dict[str, str]:
    """{label: the cell's stdout, then its placement log (stderr) as ``log: `` lines}."""
    drop = PLACER_DROPPED.get(name, ())
    out = split_cells(stdout, drop)
    logs = split_cells(INFERENCE.sub(r"\1_N", stderr))
    for label, lines in out.items():
        if _dropped(LOG_DROPPED, name, label):
            continue
        logged = [m.group(1) for m in map(LOGGED.match, logs.get(label, ())) if m]
        if _dropped(PLACER_DROPPED, name, label):
            logged = [line for line in logged if line.startswith("Executing op ")]
        lines += [f"log: {line}" for line in logged]
    return {label: "\n".join(lines) for label, lines in out.items()}


def run_devtrace(name: str, record: pathlib.Path | None = None, fresh: bool = False) -> tuple[str, str, int]:
    """The program's stdout and stderr under devtrace, in the capture's environment, normalised alike,
    and its exit status (``record``: where to write the gradient functions each cell ran)."""
    env = dict(capture.ENV, PATH=os.environ.get("PATH", ""))
    for line in (PROGRAMS / f"{name}.py").read_text().splitlines():
        if line.startswith("# capture-env: "):
            key, _, value = line[len("# capture-env: "):].partition("=")
            env[key.strip()] = value.strip()
    with tempfile.TemporaryDirectory() as cwd:
        env["HOME"] = cwd
        done = probes.run(PROGRAMS / f"{name}.py", env=env, cwd=cwd, timeout=300, record=record, fresh=fresh)
    return capture.normalise(done.stdout), capture.normalise(done.stderr), done.returncode


def run_once(name: str, shared: pathlib.Path) -> dict:
    """``run_devtrace`` of a ``grad_*`` probe with its gradient look-ups recorded, once in a test
    session however many tests (and pytest-xdist workers, sharing ``shared``) ask for it:
    ``{"stdout", "stderr", "returncode", "gradients": {cell label: [op type, ...]}}``."""
    done = shared / f"{name}.json"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker running it: wait for its result
        if not done.exists():
            with tempfile.TemporaryDirectory() as scratch:
                ran = pathlib.Path(scratch) / "ran.json"
                stdout, stderr, code = run_devtrace(name, record=ran)
                gradients = json.loads(ran.read_text(encoding="utf-8")) if ran.exists() else {}
            partial = done.with_suffix(".partial")
            partial.write_text(json.dumps({"stdout": stdout, "stderr": stderr, "returncode": code,
                                           "gradients": gradients}), encoding="utf-8")
            partial.replace(done)
    return json.loads(done.read_text(encoding="utf-8"))


def expected(name: str) -> dict[str, str]:
    return _cells(name, (CAPTURES / f"{name}.stdout").read_text(encoding="utf-8"),
                  (CAPTURES / f"{name}.stderr").read_text(encoding="utf-8"))


def compare_program(name: str, shared: pathlib.Path | None = None, fresh: bool = False) -> tuple[dict[str, str], dict[str, str]]:
    """TensorFlow's cells and devtrace's (``shared``: a ``grad_*`` probe runs once, ``run_once``)."""
    if shared is not None and name.startswith("grad_"):
        ran = run_once(name, shared)
        return expected(name), _cells(name, ran["stdout"], ran["stderr"])
    stdout, stderr, _ = run_devtrace(name, fresh=fresh)
    return expected(name), _cells(name, stdout, stderr)


def matching(want: dict[str, str], got: dict[str, str]) -> list[str]:
    return [label for label, text in want.items() if label in got and compare.same_text(text, got[label])]


HEADER = ("# Cells of the wide oracle devtrace matches TensorFlow 2.21 on (tests/test_tf221_oracle.py).\n"
          "# Written by `python tests/tf221_oracle/cells.py --write`; one `program label` per line. It only grows:\n"
          "# a cell leaves it with `--drop 'program label' --why '...'`, and a `# dropped` line keeps the reason.\n")


def read_passing(text: str | None = None) -> dict[str, set[str]]:
    claimed: dict[str, set[str]] = {}
    for line in (PASSING.read_text(encoding="utf-8") if text is None else text).splitlines():
        if line and not line.startswith("#"):
            program, _, label = line.partition(" ")
            claimed.setdefault(program, set()).add(label)
    return claimed


class Shrinks(Exception):
    """``--write`` would leave out listed cells that no longer match, or was told to drop cells wrongly."""


def ratchet(text: str, matched: dict[str, list[str]], drop: dict[str, str]) -> str:
    """passing.txt's new text (``text``: the current one): every listed cell, and those of ``matched``
    (``{program that ran: the labels that match now}``), less the cells of ``drop``
    (``{"program label": why}``), whose reasons are kept as ``# dropped`` lines. Raises
    ``Shrinks`` when a listed cell of a program that ran no longer matches and ``drop`` does not
    name it, or when ``drop`` names a cell that is not listed or still matches."""
    entries: dict[str, list[str]] = {}
    dropped = [line for line in text.splitlines() if line.startswith("# dropped ")]
    for line in text.splitlines():
        if line and not line.startswith("#"):
            program, _, label = line.partition(" ")
            entries.setdefault(program, []).append(label)
    listed = {f"{program} {label}" for program, labels in entries.items() for label in labels}
    now = {f"{program} {label}" for program, labels in matched.items() for label in labels}
    wrong = [f"{cell}: not listed" for cell in drop if cell not in listed] + \
        [f"{cell}: still matches" for cell in drop if cell in now]
    lost = sorted(cell for cell in listed - now - set(drop) if cell.partition(" ")[0] in matched)
    if wrong or lost:
        raise Shrinks("\n".join(wrong + [f"{cell}: listed, no longer matches (--drop it with --why, or fix it)"
                                         for cell in lost]))
    for program, labels in matched.items():
        entries[program] = list(labels)
    for cell, why in drop.items():
        program, _, label = cell.partition(" ")
        entries[program] = [kept for kept in entries.get(program, ()) if kept != label]
        dropped.append(f"# dropped {cell}: {why}")
    lines = [f"{program} {label}" for program in sorted(entries) for label in entries[program]]
    return HEADER + "".join(line + "\n" for line in dropped + lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*")
    parser.add_argument("-v", "--verbose", action="store_true", help="show each differing cell")
    parser.add_argument("--write", action="store_true", help="add the cells that match now to passing.txt")
    parser.add_argument("--drop", action="append", default=[], metavar="'PROGRAM LABEL'",
                        help="with --write: a listed cell to leave out (needs --why)")
    parser.add_argument("--why", help="with --drop: the reason, kept in passing.txt")
    parser.add_argument("--fresh", action="store_true", help="run each program in a new interpreter")
    args = parser.parse_args(argv)
    if args.drop and not (args.write and args.why):
        parser.error("--drop needs --write and --why")
    names = args.programs or sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))  # _x.py: a helper they import
    total = matched = 0
    ran: dict[str, list[str]] = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for name, (want, got) in zip(names, pool.map(lambda name: compare_program(name, fresh=args.fresh), names)):
            ok = matching(want, got)
            total, matched = total + len(want), matched + len(ok)
            print(f"{name:24} {len(ok):4}/{len(want)}")
            ran[name] = ok
            if args.verbose:
                for label in want:
                    if label not in ok:
                        print(f"  --- {label}\n    TensorFlow: {want[label]!r}\n    devtrace:   {got.get(label, '<no cell>')!r}")
    print(f"{'all':24} {matched:4}/{total}")
    if args.write:
        try:
            text = ratchet(PASSING.read_text(encoding="utf-8"), ran, {cell: args.why for cell in args.drop})
        except Shrinks as refused:
            print(f"passing.txt not written: it only grows.\n{refused}", file=sys.stderr)
            return 1
        PASSING.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
