"""Output helpers shared by every layer: byte units and formatting, tables, JSON, one-line
errors, atomic writes (whole: ``write_atomic``; streamed: ``AtomicOutput``). A leaf: it imports
nothing of devtrace but its error classes.

Machine output (``--json``, JSONL) goes straight to stdout, never through rich. Tables are
rich tables on a terminal and plain aligned text when piped. Diagnostics go to stderr as
``Error: …`` / ``Hint: …``. rich is imported only when a table is drawn on a terminal.
"""

from __future__ import annotations

import json
import os
import sys

from .errors import UsageError

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30


def format_bytes(n: int) -> str:
    """``96 B``, ``1.5 KiB``, ``16.0 MiB``, ``2.0 GiB``."""
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}"
    raise AssertionError("unreachable")


def format_mib(nbytes: int | None, unit: bool = True) -> str:
    """Whole MiB without decimals (``1024 MiB``), else one decimal; ``-`` for unknown.
    ``unit=False`` gives the bare number, for columns whose header names the unit."""
    if nbytes is None:
        return "-"
    mib = nbytes / MiB
    if not unit:
        return f"{mib:.1f}"
    return f"{mib:.0f} MiB" if mib == int(mib) else f"{mib:.1f} MiB"


def is_terminal(stream=None) -> bool:
    stream = stream or sys.stdout
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, indent=2) + "\n")


def print_table(headers: list[str], rows: list[list], title: str | None = None,
                right: tuple[int, ...] = ()) -> None:
    """Print a table: rich on a terminal, plain text otherwise. ``right`` = right-aligned columns."""
    cells = [["" if c is None else printable(str(c)) for c in row] for row in rows]
    if is_terminal():
        from rich.console import Console
        from rich.table import Table

        console = Console(highlight=False, no_color=bool(os.environ.get("NO_COLOR")))
        widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]
        if sum(widths) + 3 * len(widths) + 1 <= console.width:  # boxed only when nothing is cut or folded
            table = Table(title=title, title_justify="left", highlight=False)
            for i, h in enumerate(headers):
                table.add_column(h, justify="right" if i in right else "left", no_wrap=True)
            for row in cells:
                table.add_row(*row)
            console.print(table)
            return
    sys.stdout.write(format_plain_table(headers, cells, title, right))


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\\x1b``): a file's bytes never drive the terminal."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def format_plain_table(headers, cells, title=None, right=()) -> str:
    cells = [[printable(c) for c in row] for row in cells]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))

    def line(values):
        parts = [v.rjust(widths[i]) if i in right else v.ljust(widths[i]) for i, v in enumerate(values)]
        return "  ".join(parts).rstrip()

    out = [title] if title else []
    out.append(line(headers))
    out.extend(line(row) for row in cells)
    return "\n".join(out) + "\n"


def error(message: str) -> None:
    sys.stderr.write(f"Error: {message}\n")


def hint(message: str) -> None:
    sys.stderr.write(f"Hint: {message}\n")


_STREAMS = ("/dev/stdout", "/dev/stderr", "/dev/null")  # written in place, never replaced


def output_path(path, option: str, protect=()) -> str | None:
    """Check an output path before any work is done, and return where to write: absolute (a
    relative path means the start directory, whatever the program does later) and through a
    symlink (the link stays, its target is written). Refused with one line (``UsageError``, exit
    2): an empty path, a directory, an existing non-regular file (a device, a FIFO — only
    ``/dev/stdout``, ``/dev/stderr`` and ``/dev/null`` are written in place), a missing or unwritable directory,
    and any of ``protect`` — ``(path, what)`` pairs such as the program being run or an input."""
    if path is None or path == "-":
        return path
    path = os.fspath(path)
    where = f"{option} {path}"
    if not path.strip():
        raise UsageError(f"{option}: empty path (give a file name, or - for stdout)")
    if path in _STREAMS:
        return path
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise UsageError(f"{where}: is a directory")
    if os.path.exists(target) and not os.path.isfile(target):
        raise UsageError(f"{where}: not a regular file (devtrace writes only regular files; - writes to stdout)")
    for other, what in protect:
        if not other or other in _STREAMS:
            continue
        if os.path.realpath(other) == target or (  # the same name (before either exists), or a hard link
                os.path.exists(target) and os.path.exists(other) and os.path.samefile(other, target)):
            raise UsageError(f"{where}: is {what}; refusing to overwrite it")
    directory = os.path.dirname(target)
    if not os.path.isdir(directory):
        raise UsageError(f"{where}: directory {os.path.dirname(os.path.abspath(path))} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise UsageError(f"{where}: cannot write (permission denied)")
    return target


def write_atomic(path: str, text: str, option: str = "") -> None:
    """Write a whole file or nothing: a temp file beside it, then an atomic rename. A failure
    (a full disk) is one line naming ``option``; the old file, if any, is left as it was."""
    if path in _STREAMS:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise UsageError(f"{option + ' ' if option else ''}{path}: cannot write ({e.strerror or e})") from None
        raise


class AtomicOutput:
    """A text file written incrementally into a temp file beside ``path`` and renamed onto it by
    ``commit()``; ``abort()`` (or leaving a ``with`` block by an exception) removes the temp file,
    so a reader never sees half a file. Unwritable destinations raise ``UsageError``."""

    def __init__(self, path, option: str = "-o"):
        self.path = os.fspath(path)
        where = f"{option} {self.path}" if option else self.path
        if os.path.isdir(self.path):
            raise UsageError(f"{where}: is a directory")
        directory = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(directory):
            raise UsageError(f"{where}: directory {directory} does not exist")
        self.tmp = os.path.join(directory, f".{os.path.basename(self.path)}.{os.getpid()}.tmp")
        if os.path.exists(self.path) and not os.path.isfile(self.path):
            self.tmp = None  # a device or a pipe (-o /dev/stdout): written in place, never replaced
        try:
            self.file = open(self.tmp or self.path, "w", encoding="utf-8")
        except OSError as e:
            raise UsageError(f"{where}: cannot write ({e.strerror or e})") from None
        self._where = where

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as e:
            self.abort()
            raise UsageError(f"{self._where}: cannot write ({e.strerror or e})") from None

    def commit(self) -> None:
        try:
            self.file.close()
            if self.tmp is not None:
                os.replace(self.tmp, self.path)
        except OSError as e:
            self.abort()
            raise UsageError(f"{self._where}: cannot write ({e.strerror or e})") from None

    def abort(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass
        if self.tmp is not None and os.path.exists(self.tmp):
            os.unlink(self.tmp)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.commit()
        else:
            self.abort()
        return False
