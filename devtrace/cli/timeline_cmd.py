"""``devtrace timeline TRACE.jsonl`` and ``devtrace report TRACE.jsonl``: a trace file as a
Perfetto / chrome://tracing timeline, or as a self-contained HTML report."""

from typing import Annotated, Optional

import typer

Output = Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE",
                                               help="Write there (atomically); default: stdout.")]
Layout = Annotated[str, typer.Option("--layout", metavar="measured|sequence",
                                     help="measured: each op its kernel time; sequence: one unit per op.")]
FullOps = Annotated[Optional[int], typer.Option("--full-ops", metavar="N", min=0,
                                                help="Draw every op up to N, then sample (default: "
                                                     "100000 for the timeline, 20000 for the report).")]
SampleEvery = Annotated[int, typer.Option("--sample-every", metavar="K", min=1,
                                          help="Past --full-ops, draw 1 op in K (totals stay exact).")]
Trace = Annotated[str, typer.Argument(metavar="TRACE.jsonl",
                                      help="A trace from devtrace run --trace or devtrace import --format jsonl.")]


def _convert(kind, trace, output, layout, full_ops, sample_every, what):
    import sys

    from ..trace.jsonl import iter_read
    from . import _visual

    _visual.check_layout(layout)
    from ..errors import UsageError
    from ..output import is_terminal, note, output_path, printable, shown

    output = output_path(output, "--output", [(trace, "the trace being converted")])
    if kind == "html" and output in (None, "-") and is_terminal(sys.stdout):
        raise UsageError("devtrace report writes an HTML file, not text for a terminal: give -o FILE.html "
                         "(or redirect stdout)")
    from ._progress import bar, file_size

    with bar(f"reading {printable(trace)}", file_size(trace)) as update:
        tl = _visual.write(kind, iter_read(trace, update), output, "--output", layout=layout, full_ops=full_ops,
                           sample_every=sample_every, source=trace, require_events=True)
    if output not in (None, "-"):
        note(_visual.note(tl, shown(output), what))


def timeline(trace: Trace, output: Output = None, layout: Layout = "measured", full_ops: FullOps = None,
             sample_every: SampleEvery = 100):
    """Convert a trace to the Trace Event Format (open it in ui.perfetto.dev or chrome://tracing)."""
    _convert("timeline", trace, output, layout, full_ops, sample_every, "timeline")


def report(trace: Trace, output: Output = None, layout: Layout = "measured", full_ops: FullOps = None,
           sample_every: SampleEvery = 100):
    """Render a trace as one self-contained HTML report (timeline, memory, placement table)."""
    _convert("html", trace, output, layout, full_ops, sample_every, "report")
