"""``devtrace run PROG.py``: run an op program under a configuration and render its trace."""

import os
from typing import Annotated, Optional

import typer

from ..trace import FORMATS
from ._flags import Compat, Compute, Fraction, Growth, Limit, MachineFile, Simulate, Visible

CHECKS = "Checks (exit 3 when one fails)"
CLUSTER = "Cluster (Ray)"


def run(
    program: Annotated[str, typer.Argument(metavar="PROG.py", help="The program to run as __main__.")],
    args: Annotated[Optional[list[str]], typer.Argument(metavar="[-- ARGS…]", help="Arguments for the program.")] = None,
    log_placement: Annotated[bool, typer.Option("--log-placement", help="Log where each op runs.")] = False,
    soft_placement: Annotated[Optional[bool], typer.Option(
        "--soft-placement/--no-soft-placement", show_default=False,
        help="Soft device placement (TF2 default: on).")] = None,
    format_: Annotated[str, typer.Option("--format", metavar="|".join(FORMATS),
                                         help="How to render the placement log (jsonl and dot go to "
                                              "stdout, and the program's own output to stderr).")] = "tf2",
    group_by: Annotated[Optional[str], typer.Option(
        "--group-by", metavar="scope|step|device|op|src",
        help="--format table/summary: one row per name scope (Keras layer), step (tf.function call, "
             "Session.run), device, op type or program line (src).")] = None,
    trace: Annotated[Optional[str], typer.Option("--trace", metavar="FILE.jsonl",
                                                 help="Write the trace as JSON Lines (also when the program fails).")] = None,
    trace_limit: Annotated[Optional[str], typer.Option(
        "--trace-limit", metavar="N", help="Keep the first N executed ops in the trace (--trace, --format); "
                                           "the rest are counted, so summaries, checks and diff stay exact.")] = None,
    log_to: Annotated[str, typer.Option("--log-to", metavar="stderr|stdout",
                                        help="Where the placement log goes.")] = "stderr",
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE",
                                                  help="Write the --format output there (atomically).")] = None,
    html: Annotated[Optional[str], typer.Option("--html", metavar="FILE.html",
                                                help="Write a self-contained HTML report (timeline, memory, placement).")] = None,
    layout: Annotated[str, typer.Option("--layout", metavar="measured|sequence",
                                        help="Timeline and report: measured kernel times, or one unit per op.")] = "measured",
    expect: Annotated[Optional[list[str]], typer.Option("--expect", metavar="OP=SPEC", rich_help_panel=CHECKS,
                                                        help="Every op of type OP must run on a device matching SPEC.")] = None,
    no_fallback: Annotated[bool, typer.Option("--no-fallback", rich_help_panel=CHECKS,
                                              help="No op may fall back to the CPU for lack of a GPU kernel.")] = False,
    max_copies: Annotated[Optional[int], typer.Option("--max-copies", metavar="N", min=0, rich_help_panel=CHECKS,
                                                      help="At most N cross-device copies.")] = None,
    max_peak: Annotated[Optional[float], typer.Option("--max-peak", metavar="MIB", min=0, rich_help_panel=CHECKS,
                                                      help="No device's peak memory above MIB.")] = None,
    simulate: Simulate = None, machine: MachineFile = None, visible: Visible = None, growth: Growth = None,
    limit: Limit = None, fraction: Fraction = None, compat: Compat = None, compute: Compute = None,
    workers: Annotated[Optional[int], typer.Option(
        "--workers", metavar="N", min=1, rich_help_panel=CLUSTER,
        help="Run N workers of the program (TF_CONFIG tasks worker:0…N-1) on a Ray cluster: a local one "
             "(127.0.0.1) unless --cluster/RAY_ADDRESS names one. Needs the cluster extra.")] = None,
    cluster: Annotated[Optional[str], typer.Option(
        "--cluster", metavar="ADDRESS", rich_help_panel=CLUSTER,
        help="The Ray cluster --workers runs on (HOST:PORT; default RAY_ADDRESS, else a local one).")] = None,
):
    """Run an op program and render where each op ran, and why."""
    from ..errors import UsageError
    from . import _program

    if workers is not None or cluster is not None:
        from ._cluster import run_on_cluster

        raise typer.Exit(run_on_cluster(program, args or [], workers, cluster, trace, output, html, dict(
            log_placement=log_placement, soft_placement=soft_placement, format_=format_, group_by=group_by,
            trace_limit=trace_limit, log_to=log_to, layout=layout, expect=expect, no_fallback=no_fallback,
            max_copies=max_copies, max_peak=max_peak, simulate=simulate, machine=machine, visible=visible,
            growth=growth, limit=limit, fraction=fraction, compat=compat)))
    if os.environ.get("DEVTRACE_CLUSTER"):  # a worker --workers started: its collectives' transport
        from ..cluster.transport import install_from_env

        install_from_env()

    if format_ not in FORMATS:
        raise UsageError(f"--format {format_}: choose one of {', '.join(FORMATS)}")
    _program.check_group_by(group_by, format_)
    if log_to not in ("stderr", "stdout"):
        raise UsageError(f"--log-to {log_to}: choose stderr or stdout")
    if output is not None and format_ == "tf2":
        raise UsageError("--output needs a --format other than tf2 (e.g. --format timeline)")
    from ..output import output_path
    from ..trace import limit as trace_limits

    trace_limit = trace_limits.parse(trace_limit) if trace_limit is not None else None
    from . import _visual

    _visual.check_layout(layout)
    protect = [(program, "the program being run")]  # checked before it runs: a long run's trace is never lost
    trace = output_path(trace, "--trace", protect)
    output = output_path(output, "--output", protect + [(trace, "the --trace file")])
    html = output_path(html, "--html", protect + [(trace, "the --trace file"), (output, "the --output file")])
    checks = _program.Checks.parse(expect or [], no_fallback, max_copies, max_peak)
    from ._flags import configure

    ctx = configure(simulate, machine, visible, growth, limit, fraction, soft_placement, compat=compat, compute=compute)
    status, events = _program.run_program(ctx, program, args or [], log_placement=log_placement, format_=format_,
                                          trace_path=trace, log_to=log_to, output=output, html=html, layout=layout,
                                          keep_events=checks.active, trace_limit=trace_limit,
                                          group_by=group_by)
    try:
        with _program.amending(events):
            if status != 0:
                raise typer.Exit(status)
            checks.enforce(events)
    finally:
        events.release()
