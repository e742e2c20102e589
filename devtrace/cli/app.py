"""The ``devtrace`` command line.

Start-up stays lazy: this module imports typer and the command modules, which import only
typer; NumPy, rich, CuPy and NVML load inside the commands that need them.
"""

from __future__ import annotations

import functools
import os
import sys

import typer

import importlib

# command name -> (module, function); modules are imported only for the commands registered
COMMANDS = {
    "list": ("list_cmd", "list_devices"),
    "spec": ("spec_cmd", "spec"),
    "run": ("run_cmd", "run"),
    "mem": ("mem_cmd", "mem"),
    "diff": ("diff_cmd", "diff"),
    "import": ("import_cmd", "import_"),
    "timeline": ("timeline_cmd", "timeline"),
    "report": ("timeline_cmd", "report"),
}


def _new_app() -> typer.Typer:
    return typer.Typer(
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
        except BrokenPipeError:  # `devtrace diff a b | head`: the reader left; end as a tool SIGPIPE stopped
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(128 + 13) from None

    return wrapper


def _version(value: bool):
    if value:
        from .. import __devtrace_version__ as __version__

        typer.echo(f"devtrace {__version__}")
        raise typer.Exit()


def root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")):
    """devtrace: TensorFlow's device model — devices, placement, copies and memory — without TensorFlow."""


def build_app(only: str | None = None) -> typer.Typer:
    """The app with every command, or with just ``only``: typer turns each registered command's
    signature into click parameters on every call, so registering one saves start-up time."""
    new = _new_app()
    new.callback()(root)
    for name, (module, function) in COMMANDS.items():
        if only is None or name == only:
            fn = getattr(importlib.import_module(f"{__package__}.{module}"), function)
            summary = (fn.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
            new.command(name, short_help=summary)(handles_errors(fn))  # whole: click cuts at 45 characters
    return new


def __getattr__(name):
    if name == "app":  # the full app, for tests and tools; main() builds only what it runs
        return build_app()
    raise AttributeError(name)


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else None
    completing = "_DEVTRACE_COMPLETE" in os.environ
    build_app(command if command in COMMANDS and not completing else None)(prog_name="devtrace")
