"""The ``devtrace`` command line.

Start-up stays lazy: this module imports typer and the command modules, which import only
typer; NumPy, rich, CuPy and NVML load inside the commands that need them.
"""

from __future__ import annotations

import functools
import sys

import typer

from . import diff_cmd, import_cmd, list_cmd, mem_cmd, run_cmd, spec_cmd

app = typer.Typer(
    name="devtrace",
    help="Which devices your process sees, where each op runs and why, and how much device memory it takes.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def handles_errors(fn):
    """devtrace's own errors become ``Error: <one line>`` and their exit code, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from ..errors import DevtraceError

        try:
            return fn(*args, **kwargs)
        except DevtraceError as e:
            sys.stdout.flush()
            sys.stderr.write(f"Error: {e}\n")
            raise typer.Exit(e.exit_code) from None

    return wrapper


def _version(value: bool):
    if value:
        from .. import __version__

        typer.echo(f"devtrace {__version__}")
        raise typer.Exit()


@app.callback()
def root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")):
    """devtrace: TensorFlow's device model — devices, placement, copies and memory — without TensorFlow."""


app.command("list")(handles_errors(list_cmd.list_devices))
app.command("spec")(handles_errors(spec_cmd.spec))
app.command("run")(handles_errors(run_cmd.run))
app.command("mem")(handles_errors(mem_cmd.mem))
app.command("diff")(handles_errors(diff_cmd.diff))
app.command("import")(handles_errors(import_cmd.import_))


def main() -> None:
    app(prog_name="devtrace")
