"""``devtrace import LOGFILE``: read what TensorFlow printed with device-placement logging on."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..trace import FORMATS


def import_(
    logfile: Annotated[str, typer.Argument(
        metavar="LOGFILE", help="TensorFlow's output (stdout and stderr) with log_device_placement on; - for stdin.")],
    format: Annotated[Optional[str], typer.Option(
        "--format", metavar="|".join(FORMATS), show_default=False,
        help="How to render the imported placements [default: table; with -o FILE.jsonl or FILE.dot, "
             "the file's kind].")] = None,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="FILE", help="Write there (atomically) instead of to stdout.")] = None,
    group_by: Annotated[Optional[str], typer.Option(
        "--group-by", metavar="scope|step|device|op|src",
        help="--format table/summary: one row per name scope, step, device, op type or program line.")] = None,
    json_: Annotated[bool, typer.Option(
        "--json", help="Events and parse statistics as one JSON object (schema 1).")] = False,
):
    """Import a TensorFlow placement log as a devtrace trace (eager, graph and TF1 logs)."""
    import json
    import os
    import sys

    from ..errors import UsageError
    from ..trace import events as ev
    from ..trace import tflog
    from .. import output as _output

    if format is None:
        suffix = os.path.splitext(str(output or ""))[1].lower()
        format = {".jsonl": "jsonl", ".dot": "dot", ".gv": "dot"}.get(suffix, "table")
    if format not in FORMATS:
        raise UsageError(f"--format {format}: choose one of {', '.join(FORMATS)}")
    from ._program import check_group_by

    check_group_by(group_by, format)
    if json_ and format != "table":
        raise UsageError("--json and --format cannot be combined (--format jsonl writes a trace file)")
    output = _output.output_path(output, "--output", [(logfile if logfile != "-" else None, "the log being imported")])
    output = None if output == "-" else output
    from ..trace.lines import read_lines
    from ._progress import bar, file_size

    name = "<stdin>" if logfile == "-" else logfile
    source = sys.stdin.buffer if logfile == "-" else logfile
    with bar(f"parsing {_output.printable(name)}", 0 if logfile == "-" else file_size(logfile)) as update:
        lines = read_lines(source, name, "a TensorFlow log", update)  # bounded: any input, any size
        events, stats = tflog.parse_lines(((n, line.decode("utf-8", errors="replace")) for n, line, _ in lines),
                                          name, program=None if logfile == "-" else logfile)
    ops = sum(1 for e in events if e.kind == "op_placed")

    if json_:
        text = json.dumps({"schema": ev.SCHEMA, "source": name, "stats": stats.to_dict(),
                           "events": [ev.to_dict(e) for e in events]}, indent=2) + "\n"
    elif format == "table" and output is None:
        text = None
    else:
        from ._program import render

        text = render(events, format, group_by=group_by)
    if output is not None:
        _output.write_atomic(output, text or "", "--output")
    elif text is None and group_by is not None:
        from ._program import _print_table

        _print_table(events, sys.stdout, group_by)
    elif text is None:
        from ..trace.render_table import print_placement_table

        print_placement_table(events)
    else:
        sys.stdout.write(_output.printable_text(text) if format != "jsonl" else text)
    sys.stdout.flush()
    _output.note(stats.note(ops))
