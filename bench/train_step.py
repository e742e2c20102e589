"""Training-step time of devtrace against TensorFlow 2.21 on this CPU, side by side in one run: the
same Keras programs (``bench/_train_programs.py``), run by ``devtrace run --simulate 1`` and by the
oracle's interpreter, case after case alternately, so that load on a shared machine hits both alike.

    python bench/train_step.py --oracle /work/tfvenv [--rounds 3] [--steps 20] [--mnist 2048]

Targets (issue 31): Keras ``fit`` per step, an MLP 784→128→10 and a small CNN at batch 32 with Adam,
≤ 1.0× TensorFlow's; a ``tf.function`` training step with ``GradientTape`` (the MLP) ≤ 1.0×; keras.io's
MNIST convnet end to end (whole process, random images in place of the download) ≤ 1.2×. Its
per-step time at batch 128 is shown too. Without ``--oracle`` only devtrace's times are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import _oracle

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "_train_programs.py")
CASES = [  # (case, label, target ratio or None)
    ("mlp_fit", "fit MLP 784-128-10, batch 32", 1.0),
    ("cnn_fit", "fit CNN 2xConv2D+pool, batch 32", 1.0),
    ("mlp_function", "tf.function+GradientTape MLP", 1.0),
    ("mnist_fit", "fit MNIST convnet, batch 128", None),
]


class Worker:
    """One interpreter running ``_train_programs.py worker``: a case name in, its step times out."""

    def __init__(self, label, argv, env):
        self.label, self.env = label, env
        read, write = os.pipe()
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=self.log, stderr=self.log,
                                     cwd=tempfile.gettempdir(), env=dict(env, BENCH_RESULT_FD=str(write)), pass_fds=(write,), text=True)
        os.close(write)
        self.results = os.fdopen(read)

    def run(self, case):
        self.proc.stdin.write(case + "\n")
        self.proc.stdin.flush()
        line = self.results.readline()
        if not line:
            self.log.seek(0)
            sys.exit(f"{self.label} worker failed on {case}:\n" + self.log.read().decode()[-3000:])
        return json.loads(line)["step_ms"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def environment():
    env = dict(os.environ)  # run from elsewhere: ``python -m`` puts the working directory first on the path
    for name in ("DEVTRACE_SIMULATE", "DEVTRACE_MACHINE", "CUDA_VISIBLE_DEVICES"):
        env.pop(name, None)
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    return env


def wall(argv, env):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir(), env=env,
                   check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _oracle.add_argument(parser)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20, help="timed steps per case and round")
    parser.add_argument("--mnist", type=int, default=2048, help="images in the end-to-end MNIST run (0: skip)")
    parser.add_argument("--cases", default=",".join(c for c, _, _ in CASES))
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time steps by wall clock (default), or by the process's CPU time (steadier under load)")
    parser.add_argument("--baseline", metavar="TREE", help="another devtrace checkout (a commit before a change), run "
                        "as a third worker: its times are printed beside, to measure a change side by side")
    args = parser.parse_args()
    unknown = [c for c in args.cases.split(",") if c not in {name for name, _, _ in CASES}]
    if unknown:
        parser.exit(2, f"train_step.py: unknown case {unknown[0]!r} (cases: {', '.join(c for c, _, _ in CASES)})\n")
    oracle = _oracle.python(args.oracle)
    env = dict(environment(), BENCH_CLOCK=args.clock)
    devtrace = [sys.executable, "-m", "devtrace", "run", "--simulate", "1", PROGRAM, "--"]
    workers = {"devtrace": Worker("devtrace", devtrace + ["worker", str(args.steps)], env)}
    if oracle:
        workers["tensorflow"] = Worker("tensorflow", [oracle, PROGRAM, "worker", str(args.steps)], env)
    if args.baseline:
        workers["baseline"] = Worker("baseline", devtrace + ["worker", str(args.steps)],
                                     dict(env, PYTHONPATH=os.path.abspath(args.baseline)))
    cases = [c for c in CASES if c[0] in args.cases.split(",")]
    medians = {(c, w): [] for c, _, _ in cases for w in workers}
    order = list(workers.items())
    for _ in range(args.rounds):
        for case, _, _ in cases:
            order = order[1:] + order[:1]  # who runs first (just after another's run) changes every time
            for name, worker in order:
                time.sleep(0.5)  # the other interpreter's thread pools stop spinning first
                medians[case, name].append(statistics.median(worker.run(case)))
    for worker in workers.values():
        worker.close()
    e2e = {name: [] for name in workers}
    if args.mnist:
        argv = {"devtrace": devtrace + ["mnist", str(args.mnist)], "tensorflow": [oracle, PROGRAM, "mnist", str(args.mnist)],
                "baseline": devtrace + ["mnist", str(args.mnist)]}
        for _ in range(args.rounds):
            for name in workers:
                e2e[name].append(wall(argv[name], workers[name].env))
    print(f"{'per step (median, ' + args.clock + ')':<34} {'TF ms':>8} {'devtrace ms':>12} {'ratio':>7}"
          + (f" {'baseline ms':>12} {'ratio':>7}" if args.baseline else ""))
    verdicts = []
    rows = [(label, target, {name: medians[case, name] for name in workers}, 1.0) for case, label, target in cases]
    if args.mnist:
        rows.append((f"MNIST convnet end to end ({args.mnist})", 1.2, e2e, 1e3))
    for label, target, times, scale in rows:
        line = f"{label:<34} " + (f"{min(times['tensorflow']) * scale:>8.2f}" if oracle else f"{'-':>8}")
        for name in ("devtrace", "baseline") if args.baseline else ("devtrace",):
            line += f" {min(times[name]) * scale:>12.2f}"
            if oracle:
                ratio = statistics.median(d / t for d, t in zip(times[name], times["tensorflow"]))
                line += f" {ratio:>6.2f}x"
                if target is not None and name == "devtrace":
                    verdicts.append(_oracle.verdict(ratio, target, f"{label} <= {target:g}x TF"))
            else:
                line += f" {'':>7}"
        print(line)
    if verdicts:
        print()
        print("\n".join(verdicts))


if __name__ == "__main__":
    main()
