"""``devtrace diff A.jsonl B.jsonl``: what moved between two placement traces."""

from pathlib import Path
from typing import Annotated

import typer


def diff(
    a: Annotated[Path, typer.Argument(metavar="A.jsonl", help="The baseline trace (devtrace run --trace).")],
    b: Annotated[Path, typer.Argument(metavar="B.jsonl", help="The trace to compare with it.")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (schema 1).")] = False,
    fail_on: Annotated[str, typer.Option(
        "--fail-on", metavar="moved,copies,fallback,peak",
        help="Exit 3 when B is worse: moved (any op changed device), copies (more copies or bytes), "
             "fallback (more CPU fallbacks), peak (any device's peak memory grew).")] = "",
):
    """Compare two traces: ops that changed device, copies, fallbacks and peak memory."""
    import sys

    from ..errors import CheckFailed
    from ..trace import diff as d
    from ..trace import jsonl
    from .. import output as _output

    checks = d.parse_fail_on(fail_on)
    from ._progress import bar, file_size

    size_a = file_size(a)
    with bar("reading traces", size_a + file_size(b)) as update:  # streamed: never a whole trace in memory
        result = d.diff(jsonl.iter_read(a, update), jsonl.iter_read(b, lambda done: update(size_a + done)))
    failed = d.failures(result, checks)
    if json_:
        obj = d.to_json(result)
        obj["failures"] = failed
        _output.print_json(obj)
    else:
        sys.stdout.writelines(_output.printable_text(line) for line in d.render_lines(result))
    if failed:
        sys.stdout.flush()
        for line in failed[1:]:
            sys.stderr.write(f"Check failed: --fail-on {_output.printable(line)}\n")
        raise CheckFailed(f"--fail-on {failed[0]}" if len(failed) == 1
                          else f"{len(failed)} checks failed; first: --fail-on {failed[0]}")
