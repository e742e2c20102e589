"""A progress bar on stderr for the steps that read big inputs (``diff``, ``import``, ``timeline``,
``report``): only on a terminal, and only when the input is big enough to take about a second —
pipes, files and CI logs never see one."""

from __future__ import annotations

import contextlib
import os
import sys

MIN_BYTES = 8 << 20  # about a second of parsing


def _noop(done: int) -> None:
    pass


@contextlib.contextmanager
def bar(label: str, total: int, unit: str = "bytes"):
    """Yields ``update(done)``; ``unit`` is ``bytes`` or ``lines`` (a line is counted as 100 bytes
    against ``MIN_BYTES``)."""
    from ..output import is_terminal

    if total * (1 if unit == "bytes" else 100) < MIN_BYTES or not is_terminal(sys.stderr):
        yield _noop
        return
    from rich.console import Console
    from rich.progress import (BarColumn, DownloadColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeRemainingColumn)

    amount = DownloadColumn() if unit == "bytes" else MofNCompleteColumn()
    console = Console(stderr=True, no_color=bool(os.environ.get("NO_COLOR")))
    with Progress(TextColumn("{task.description}"), BarColumn(), amount, TimeRemainingColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.update(task, completed=done)


def file_size(path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


STATUS_AFTER = 1.0  # seconds: a run shorter than this never shows its status line


@contextlib.contextmanager
def run_status(trace, after: float = STATUS_AFTER):
    """A live status line on stderr while a program runs (ops so far, the step in progress,
    elapsed): on a terminal only, from ``after`` seconds on, and gone when the run ends (pipes, files
    and CI logs never see one). ``trace``: the run's ``Trace`` (its op count is read, never changed)."""
    from ..output import is_terminal

    if not is_terminal(sys.stderr):
        yield
        return
    import threading

    stop = threading.Event()

    def show():
        if stop.wait(after):
            return
        from rich.console import Console
        from rich.progress import Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True, no_color=bool(os.environ.get("NO_COLOR")))
        with Progress(TextColumn("{task.description}"), TimeElapsedColumn(), console=console, transient=True,
                      redirect_stdout=False, redirect_stderr=False) as progress:
            task = progress.add_task("running", total=None)
            while True:
                calls = "" if not trace.holds else " · in a step"
                progress.update(task, description=f"running: {trace._seq:,} ops{calls}")
                if stop.wait(0.25):
                    break

    thread = threading.Thread(target=show, name="devtrace-status", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=2)
