"""``devtrace run --workers N``: the flags each worker's ``devtrace run`` gets, the launch, and what
is done with the merged trace: ``--format`` (other than the live tf2 log) rendered from it, and
the checks (``--expect``, ``--no-fallback``, ``--max-copies``, ``--max-peak``) run over it."""

from __future__ import annotations

_FLAGS = {"trace_limit": "--trace-limit", "log_to": "--log-to", "simulate": "--simulate",
          "machine": "--machine", "visible": "--visible", "limit": "--limit", "fraction": "--fraction",
          "compat": "--compat"}
_DEFAULTS = {"format_": "tf2", "log_to": "stderr", "layout": "measured"}


def worker_flags(options: dict) -> list[str]:
    """The options the user gave, as each worker's command line."""
    out = []
    if options["log_placement"]:
        out.append("--log-placement")
    if options["soft_placement"] is not None:
        out.append("--soft-placement" if options["soft_placement"] else "--no-soft-placement")
    if options["growth"] is not None:
        out.append("--growth" if options["growth"] else "--no-growth")
    for key, flag in _FLAGS.items():
        value = options[key]
        if value is not None and value != _DEFAULTS.get(key):
            out += [flag, str(value)]
    return out


import os
import sys


def run_on_cluster(program, args, workers, cluster, trace, output, html, options) -> int:
    from ..errors import UsageError
    from ..output import output_path
    from ._program import _check_program

    if workers is None:
        raise UsageError("--cluster needs --workers N (how many workers of the program to run)")
    for value, flag in ((output, "--output"), (html, "--html")):
        if value is not None:
            raise UsageError(f"{flag} is not supported with --workers yet: write the merged trace with --trace "
                             f"and render it with devtrace timeline/report")
    _check_program(program)
    check_tf_config(workers)
    from ..trace import FORMATS
    from ._program import Checks, check_group_by, render

    fmt = options["format_"]
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt}: choose one of {', '.join(FORMATS)}")
    check_group_by(options["group_by"], fmt)
    checks = Checks.parse(options["expect"] or [], options["no_fallback"], options["max_copies"], options["max_peak"])
    trace = output_path(trace, "--trace", [(program, "the program being run")])
    from ..cluster.launcher import run_workers

    import tempfile

    with tempfile.TemporaryDirectory(prefix="devtrace-merged-") as tmp:
        merged = trace or os.path.join(tmp, "merged.jsonl")
        status = run_workers(program, args, workers, worker_flags(options), merged, cluster)
        if fmt == "tf2" and not checks.active:
            return status
        from ..trace import jsonl

        events = jsonl.read(merged)
    if fmt != "tf2":
        sys.stdout.write(render(events, fmt, options["layout"], options["group_by"]).rstrip("\n") + "\n")
    if status == 0:
        checks.enforce(events)
    return status


def check_tf_config(workers: int, env=None) -> None:
    """A ``TF_CONFIG`` already set must be one TensorFlow accepts, for a cluster of ``workers``
    workers (the launcher gives each worker its own task of it)."""
    import json
    import os

    from ..distribute.cluster_resolver import ClusterSpec, validate_cluster_spec, worker_count
    from ..errors import UsageError

    text = (os.environ if env is None else env).get("TF_CONFIG")
    if not text:
        return
    try:
        config = json.loads(text)
        if not isinstance(config, dict):
            raise TypeError("TF_CONFIG must be a JSON object")
        spec = ClusterSpec(config.get("cluster", {}))
        task = config.get("task", {})
        validate_cluster_spec(spec, task.get("type"), int(task.get("index", 0)))
        count = worker_count(spec, "worker") if spec else workers
    except (ValueError, TypeError) as e:
        raise UsageError(f"TF_CONFIG: {type(e).__name__}: {e}") from None
    if count != workers:
        raise UsageError(f"TF_CONFIG names a cluster of {count} workers, but --workers is {workers}")
