"""How much of TensorFlow 2.21's core public API devtrace has, per namespace: its public names
(``devtrace/tf_api_names.py``; "has" = the attribute resolves, without devtrace's "does not
implement" error) and its docstring examples that pass (``captures/tf.jsonl``, only those that
pass under TensorFlow itself); and the ratchet of passing examples (``passing.txt``). With
``--actual``, the other checkpoints instead: those where TensorFlow printed or raised something other
than the docstring shows, devtrace passing where it does what TensorFlow actually did
(``passing_actual.txt``, ``passing_keras_actual.txt``).

    python tests/tf221_doctests/census.py                 # the table, and the examples that pass but are not in the ratchet
    python tests/tf221_doctests/census.py --names         # names only (a second)
    python tests/tf221_doctests/census.py --write         # add the new passes to passing.txt
    python tests/tf221_doctests/census.py --write --drop ID --why "..."   # also drop a listed example that fails
    python tests/tf221_doctests/census.py --kind keras    # Keras 3's examples (passing_keras.txt)
    python tests/tf221_doctests/census.py --kind keras --actual [--failing ops] [--write]   # against TensorFlow's actual output
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import datetime
import os
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))
import capture  # noqa: E402
import runner  # noqa: E402


def names() -> dict:
    """``{namespace: (TensorFlow's names, the ones devtrace has)}`` over the core namespaces."""
    import devtrace
    from devtrace.generated.tf_api_names import NAMES

    out = {}
    for ns in capture.TF_NAMESPACES:
        listed = [n for n in NAMES[ns][1].split() if (f"{ns}.{n}" if ns else n) not in NAMES]
        module = devtrace
        try:
            for part in ns.split(".") if ns else ():
                module = getattr(module, part)
        except AttributeError:
            out[ns] = (listed, [])
            continue
        has = []
        for name in listed:
            try:
                getattr(module, name)
            except Exception:  # noqa: BLE001 (a name that does not resolve, whatever the error, is not there)
                continue
            has.append(name)
        out[ns] = (listed, has)
    return out


def _pct(a, b) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


def table(name_counts: dict, docs: list, passed: dict, kind: str, key: str = "checks") -> str:
    per_ns = collections.defaultdict(lambda: [0, 0, 0])  # docstrings, examples counted (``key``), devtrace passes
    for doc in docs:
        row = per_ns[doc["ns"]]
        row[0] += 1
        row[1] += len(doc[key])
        row[2] += sum(passed.get(e, False) for e in doc[key])
    prefix = "tf" if kind == "tf" else "keras"
    namespaces = capture.TF_NAMESPACES if kind == "tf" else capture.KERAS_NAMESPACES
    lines = [f"{'namespace':28} {'names':>6} {'has':>5} {'':>6}  {'docs':>5} {'examples':>8} {'pass':>5} {'':>6}"]
    totals = [0, 0, 0, 0, 0]
    for ns in namespaces:
        listed, has = name_counts.get(ns, ([], []))
        d, e, p = per_ns.get(ns, (0, 0, 0))
        if not listed and not d:
            continue
        label = f"{prefix}.{ns}" if ns else prefix
        lines.append(f"{label:28} {len(listed):6} {len(has):5} {_pct(len(has), len(listed))}  {d:5} {e:8} {p:5} {_pct(p, e)}")
        for i, v in enumerate((len(listed), len(has), d, e, p)):
            totals[i] += v
    n, h, d, e, p = totals
    lines.append(f"{'total':28} {n:6} {h:5} {_pct(h, n)}  {d:5} {e:8} {p:5} {_pct(p, e)}")
    return "\n".join(lines)


def write(kind: str, passed: dict, drop: list, why: str | None, actual: bool = False) -> int:
    current = runner.read_ratchet(kind, actual)
    ratchet = (runner.ACTUAL_RATCHETS if actual else runner.RATCHETS)[kind]
    passing = {e for e, ok in passed.items() if ok}
    lost = sorted(set(current) - passing)
    unexplained = [e for e in lost if e not in drop]
    if unexplained:
        print(f"refusing to write: {len(unexplained)} listed examples no longer pass (fix them, or name each with "
              f"--drop ID and say why with --why):", file=sys.stderr)
        for e in unexplained:
            print(f"  {e}", file=sys.stderr)
        return 1
    if lost and not why:
        print("refusing to write: --drop needs --why", file=sys.stderr)
        return 1
    new = sorted(passing - set(current))
    ratchet.write_text("".join(f"{e}\n" for e in sorted((set(current) - set(lost)) | passing)))
    if lost:
        with open(HERE / "dropped.txt", "a", encoding="utf-8") as f:
            for e in lost:
                f.write(f"{datetime.date.today().isoformat()} {e}: {why}\n")
    print(f"{ratchet.name}: {len(new)} added, {len(lost)} dropped")
    return 0


@contextlib.contextmanager
def _quiet():
    """What the examples print outside their captured output (placement logs, TensorFlow's
    warnings) goes to /dev/null, file descriptors included; the census's own lines go to the
    stream this yields."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield out
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)
        out.close()


def _failure(doc: dict, steps: list, actual: bool) -> str:
    """The first example where devtrace went astray: beside devtrace's output, the docstring's
    (``want``), or with ``actual`` what TensorFlow did (``tf``)."""
    import doclib

    examples = doclib.to_examples(doc["ex"])
    for i, (record, step) in enumerate(zip(doc["ex"], steps)):
        if actual and not doclib.matches_tensorflow(record, examples[i], step):
            tf = record.get("got", record.get("want", "")) if record["tf"] != "ok" else record.get("want", "")
            return (f"--- {doc['id']} [{i}] tf {record['tf']}, devtrace {step.outcome}\n>>> {record['src'].rstrip()}\n"
                    f"tf:   {tf.rstrip()}\ngot:  {step.got.rstrip()}")
        if not actual and step.outcome not in ("ok", "skip"):
            return (f"--- {doc['id']} [{i}] {step.outcome}\n>>> {record['src'].rstrip()}\n"
                    f"want: {record.get('want', record.get('exc', '')).rstrip()}\ngot:  {step.got.rstrip()}")
    return f"--- {doc['id']}: no example went astray"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=["tf", "keras"], default="tf")
    parser.add_argument("--names", action="store_true", help="the names only, no examples run")
    parser.add_argument("--actual", action="store_true",
                        help="the checkpoints TensorFlow did not run as shown, against what it actually printed or raised")
    parser.add_argument("--write", action="store_true", help="add the examples that pass to the ratchet")
    parser.add_argument("--drop", action="append", default=[], metavar="ID", help="a listed example --write may drop")
    parser.add_argument("--why", help="why the --drop examples go (kept in dropped.txt)")
    parser.add_argument("--failing", metavar="NS", help="list the examples of namespace NS that fail, with devtrace's output")
    args = parser.parse_args()
    name_counts = names() if args.kind == "tf" else {}
    if args.names:
        print(table(name_counts, [], {}, args.kind))
        return 0
    docs = runner.load(args.kind)
    start = time.perf_counter()
    globs = runner.globals_for(args.kind)
    passed = {}
    failing = args.failing.removeprefix(f"{args.kind}.").removeprefix(args.kind) if args.failing else None
    key = "actual" if args.actual else "checks"
    with _quiet() as out:
        for doc in docs:
            if args.actual and not doc["actual"]:
                continue
            result, steps = runner.run_doc(doc, globs)
            if args.actual:
                result = runner.actual_results(doc, steps)
            passed.update(result)
            if failing is not None and doc["ns"] == failing and not all(result.values()):
                print(_failure(doc, steps, args.actual), file=out, flush=True)
    elapsed = time.perf_counter() - start
    print(table(name_counts, docs, passed, args.kind, key))
    print(f"({sum(1 for d in docs if d[key] or not args.actual)} docstrings run in {elapsed:.1f} s)")
    listed = set(runner.read_ratchet(args.kind, args.actual))
    ratchet = (runner.ACTUAL_RATCHETS if args.actual else runner.RATCHETS)[args.kind]
    regressions = sorted(e for e in listed if not passed.get(e))
    new = sorted(e for e, ok in passed.items() if ok and e not in listed)
    if regressions:
        print(f"{len(regressions)} examples in {ratchet.name} fail: {' '.join(regressions)}")
    if new:
        print(f"{len(new)} examples pass and are not in {ratchet.name} (--write adds them)")
    if args.write:
        return write(args.kind, passed, args.drop, args.why, args.actual)
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
