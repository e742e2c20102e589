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
    """devtrace's own errors become ``Error: <one line>`` and their exit code, never a traceback;
    Ctrl-C and SIGTERM reach ``main`` (click would make Ctrl-C "Aborted!", exit 1)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from ..errors import DevtraceError
        from ..output import printable

        try:
            result = fn(*args, **kwargs)
            sys.stdout.flush()  # a full disk or a closed descriptor shows here, as one line
            return result
        except DevtraceError as e:
            _flush_quietly(sys.stdout)
            sys.stderr.write(f"Error: {printable(str(e))}\n")
            raise typer.Exit(e.exit_code) from None
        except BrokenPipeError:  # `devtrace diff a b | head`: the reader left; end as a tool SIGPIPE stopped
            _to_devnull(1)
            raise typer.Exit(128 + 13) from None
        except KeyboardInterrupt:
            from ..util.interrupts import Interrupted

            raise Interrupted() from None

    return wrapper


def _flush_quietly(stream) -> None:
    try:
        stream.flush()
    except (OSError, ValueError):
        pass


def _to_devnull(fd: int) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _standard_streams() -> None:
    """A descriptor 0, 1 or 2 closed when devtrace starts is opened on ``/dev/null``, so that no
    file devtrace opens later (a trace) takes its number and receives what is printed; stdout is
    guarded (``output.GuardedStream``): a write that fails is one line naming it."""
    from ..output import GuardedStream

    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free descriptor: this one
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")
    if sys.stderr is None:  # errors have nowhere to go; the exit status still says what happened
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if not isinstance(sys.stdout, GuardedStream):
        sys.stdout = GuardedStream(sys.stdout, "stdout")


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


def _cluster_value(args: list) -> list:
    """``devtrace list --cluster`` with no address (at the end, or before another option) means
    ``--cluster auto`` (RAY_ADDRESS, else a local cluster): Click has no optional option values."""
    out = list(args)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if arg == "--cluster" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = "--cluster=auto"
    return out


def main() -> None:
    """The command line: its exit status is the command's, or 130/143 when a signal ended it at
    any moment (temp files removed); a failed final write of stdout is one line."""
    from ..util import interrupts

    interrupts.install_cli()
    interrupts.release_startup()  # (a console script made before cli/entry.py calls this main directly)
    code = 1
    try:
        try:
            _standard_streams()
            command = sys.argv[1] if len(sys.argv) > 1 else None
            if command == "list":
                sys.argv[2:] = _cluster_value(sys.argv[2:])
            completing = "_DEVTRACE_COMPLETE" in os.environ
            build_app(command if command in COMMANDS and not completing else None)(prog_name="devtrace")
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except interrupts.SIGNALLED as e:
            code = interrupts.status_of(e)
        with interrupts.deferred():
            code = _final_flush(code)
    except interrupts.SIGNALLED as e:
        code = interrupts.status_of(e)
    finally:
        interrupts.settle()
        from ..output import cleanup_temps

        cleanup_temps()
    code = interrupts.exit_status(code)
    if code in (130, 143) and _program_threads():  # Python would wait for them forever: the run has ended
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)


def _program_threads() -> bool:
    """Are threads still running that Python's exit would wait for (a program's, after a signal)?"""
    import threading

    main = threading.main_thread()
    return any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate())


def _final_flush(code: int) -> int:
    from ..errors import UsageError
    from ..output import printable

    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _to_devnull(1)
        return 141 if code == 0 else code
    except UsageError as e:
        sys.stderr.write(f"Error: {printable(str(e))}\n")
        return 2 if code == 0 else code
    return code
