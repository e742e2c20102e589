"""Every probe program (tests/tf221_oracle/programs, tests/tf221/programs) on one simulated GPU and
on one faked real GPU (``run_fake_gpu.py``: the CuPy backend driving the strict fake CuPy): each cell
must print the same on both (numbers to float tolerance), placement log included.

    python tests/tf221/fake_gpu_cells.py                 # every program: cells differing per program
    python tests/tf221/fake_gpu_cells.py indexing -v     # one program, each differing cell shown
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from tf221_oracle import cells as oracle  # noqa: E402
import probes  # noqa: E402

DIRS = {"oracle": HERE.parent / "tf221_oracle" / "programs", "tf221": HERE / "programs"}


def programs() -> list[str]:
    """``oracle/NAME`` and ``tf221/NAME`` of every probe program."""
    return [f"{kind}/{p.stem}" for kind, folder in DIRS.items() for p in sorted(folder.glob("*.py"))
            if not p.stem.startswith("_")]


def run(program: str, fake: bool | None) -> tuple[str, str, str]:
    """The program on a simulated GPU (``fake=False``), a faked real one (``True``) or this
    machine's own GPUs (``None``: bench/gpu_smoke.py on a machine with NVIDIA GPUs)."""
    kind, name = program.split("/")
    path = DIRS[kind] / f"{name}.py"
    env = {k: v for k, v in oracle.capture.ENV.items() if k != "CUDA_VISIBLE_DEVICES"}
    env.update(PATH=os.environ.get("PATH", ""), PYTHONPATH=str(HERE.parent.parent))
    for line in path.read_text().splitlines():
        if line.startswith("# capture-env: "):
            key, _, value = line[len("# capture-env: "):].partition("=")
            env[key.strip()] = value.strip()
    if fake is False:
        env["DEVTRACE_SIMULATE"] = "1"
    with tempfile.TemporaryDirectory() as cwd:
        env["HOME"] = cwd
        if fake is None:  # this machine's own GPUs: a fresh process that discovers them
            done = subprocess.run([sys.executable, str(HERE / "run_devtrace.py"), str(path)], capture_output=True,
                                  text=True, env=env, cwd=cwd if kind == "oracle" else path.parent, timeout=300)
        else:  # forked from a warm interpreter (probes.py), as the other probe tests run
            done = probes.run(path, env=env, cwd=cwd if kind == "oracle" else path.parent, fake_gpus=int(fake))
    stderr = oracle.capture.normalise(done.stderr)
    last = stderr.strip().splitlines()[-1:] if done.returncode else []
    return oracle.capture.normalise(done.stdout), stderr, ": ".join([f"exit {done.returncode}"] + last)


def cells_of(program: str, stdout: str, stderr: str, status: str) -> dict[str, str]:
    """An oracle program's cells; a tf221 probe's stdout, and its exit status with its last line."""
    kind, name = program.split("/")
    if kind == "oracle" and oracle.MARKER in stdout:
        return oracle._cells(name, stdout, stderr)
    return {"stdout": stdout, "exit": status}


def compare(program: str) -> tuple[dict[str, str], dict[str, str]]:
    """({cell: text on the simulated GPU}, {cell: text on the faked real GPU})."""
    return cells_of(program, *run(program, False)), cells_of(program, *run(program, True))


def differing(simulated: dict[str, str], real: dict[str, str]) -> list[str]:
    return [label for label, text in simulated.items()
            if label not in real or not oracle.compare.same_text(text, real[label])]


def explain(simulated: dict[str, str], real: dict[str, str]) -> str:
    """The differing cells, each from its first differing line on (long outputs stay readable)."""
    out = []
    for label in differing(simulated, real):
        want, got = simulated[label].splitlines(), real.get(label, "<no cell>").splitlines()
        k = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        out.append(f"--- {label} (line {k + 1})\n  simulated: {want[k:k + 3]!r}\n  fake real: {got[k:k + 3]!r}")
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    names = [n if "/" in n else next(p for p in programs() if p.endswith("/" + n)) for n in args.programs] \
        or programs()
    total = bad = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for name, (sim, real) in zip(names, pool.map(compare, names)):
            wrong = differing(sim, real)
            total, bad = total + len(sim), bad + len(wrong)
            print(f"{name:36} {len(wrong):4}/{len(sim)} differ", flush=True)
            if args.verbose and wrong:
                print(explain(sim, real))
    print(f"{'all':36} {bad:4}/{total} differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
