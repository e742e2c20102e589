"""``devtrace spec``: how device strings parse."""

from typing import Annotated

import typer


def spec(
    strings: Annotated[list[str], typer.Argument(metavar="STRING…", help="Device strings, e.g. /gpu:1 GPU:0.")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (schema 1).")] = False,
):
    """Parse device strings: canonical form and fields."""
    from ..devices.spec import DeviceSpec
    from .. import output as _output

    parsed = [(s, DeviceSpec.from_string(s)) for s in strings]
    if json_:
        _output.print_json({"schema": 1, "specs": [dict(d.as_dict(), input=s) for s, d in parsed]})
        return
    rows = [[s, d.to_string() or '""', _f(d.job), _f(d.replica), _f(d.task), _f(d.device_type), _f(d.device_index)]
            for s, d in parsed]
    _output.print_table(["INPUT", "CANONICAL", "JOB", "REPLICA", "TASK", "TYPE", "INDEX"], rows)


def _f(value) -> str:
    return "*" if value is None else str(value)
