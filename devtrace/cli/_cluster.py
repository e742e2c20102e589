"""``devtrace run --workers N``: the flags each worker's ``devtrace run`` gets, and the launch."""

from __future__ import annotations

_FLAGS = {"format_": "--format", "group_by": "--group-by", "trace_limit": "--trace-limit", "log_to": "--log-to",
          "layout": "--layout", "max_copies": "--max-copies", "max_peak": "--max-peak", "simulate": "--simulate",
          "machine": "--machine", "visible": "--visible", "limit": "--limit", "fraction": "--fraction",
          "compat": "--compat"}
_DEFAULTS = {"format_": "tf2", "log_to": "stderr", "layout": "measured"}


def worker_flags(options: dict) -> list[str]:
    """The options the user gave, as each worker's command line."""
    out = []
    if options["log_placement"]:
        out.append("--log-placement")
    if options["no_fallback"]:
        out.append("--no-fallback")
    if options["soft_placement"] is not None:
        out.append("--soft-placement" if options["soft_placement"] else "--no-soft-placement")
    if options["growth"] is not None:
        out.append("--growth" if options["growth"] else "--no-growth")
    for spec in options["expect"] or ():
        out += ["--expect", spec]
    for key, flag in _FLAGS.items():
        value = options[key]
        if value is not None and value != _DEFAULTS.get(key):
            out += [flag, str(value)]
    return out


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
    trace = output_path(trace, "--trace", [(program, "the program being run")])
    from ..cluster.launcher import run_workers

    return run_workers(program, args, workers, worker_flags(options), trace, cluster)


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
