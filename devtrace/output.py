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


class GuardedStream:
    """``sys.stdout`` while devtrace writes its own output: a write that fails (a full disk, an
    I/O error, a descriptor closed before devtrace started) is one line naming the stream
    (``UsageError``, exit 2), and the stream is then pointed at ``/dev/null`` so that nothing
    fails again at exit. A closed pipe stays ``BrokenPipeError`` (exit 141). ``raw_stream`` is the
    stream itself (``None`` when closed), which a program run under devtrace writes to."""

    def __init__(self, stream, name: str = "stdout"):
        self.raw_stream, self._name = stream, name

    def _failed(self, e: OSError):
        stream = self.raw_stream
        try:
            if stream is not None:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, stream.fileno())
                os.close(devnull)
        except (OSError, ValueError):
            pass
        return cannot_write(self._name, e)

    def write(self, text):
        if self.raw_stream is None:
            raise self._failed(OSError(9, "Bad file descriptor"))
        try:
            return self.raw_stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise self._failed(e) from None
        except ValueError:  # the program run closed it (sys.stdout.close())
            raise cannot_write(self._name, OSError(9, "closed by the program")) from None

    def flush(self):
        if self.raw_stream is None or self.raw_stream.closed:
            return
        try:
            self.raw_stream.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise self._failed(e) from None

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def isatty(self):
        return self.raw_stream is not None and self.raw_stream.isatty()

    def __getattr__(self, name):
        if self.raw_stream is None:
            raise AttributeError(name)
        return getattr(self.raw_stream, name)


def print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, indent=2) + "\n")


def print_table(headers: list[str], rows: list[list], title: str | None = None,
                right: tuple[int, ...] = (), stream=None) -> None:
    """Print a table to ``stream`` (stdout): rich on a terminal, plain text otherwise. ``right`` =
    right-aligned columns."""
    cells = [["" if c is None else printable(str(c)) for c in row] for row in rows]
    stream = stream or sys.stdout
    if is_terminal(stream):
        from rich.console import Console
        from rich.table import Table

        console = Console(file=stream, highlight=False, no_color=bool(os.environ.get("NO_COLOR")))
        widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]
        if sum(widths) + 3 * len(widths) + 1 <= console.width:  # boxed only when nothing is cut or folded
            table = Table(title=title, title_justify="left", highlight=False)
            for i, h in enumerate(headers):
                table.add_column(h, justify="right" if i in right else "left", no_wrap=True)
            for row in cells:
                table.add_row(*row)
            console.print(table)
            return
    stream.write(format_plain_table(headers, cells, title, right))


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\\x1b``): a file's bytes never drive the terminal.
    Every string devtrace prints that came from outside (a trace, a log, a machine file, a file
    name, an op or device name) goes through here or :func:`printable_text`; newlines too, so
    an error stays one line."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def printable_text(text: str) -> str:
    """Rendered text (many lines): each line through :func:`printable`, the newlines kept."""
    if text.isprintable():
        return text
    return "\n".join(printable(line) for line in text.split("\n"))


def printable_json(line: str) -> str:
    """A JSON text with every non-printable character written as its ``\\uXXXX`` escape: the same
    JSON (such characters can only stand inside strings), safe on a terminal."""
    if line.isprintable():
        return line
    return "".join(ch if ch.isprintable() else _json_escape(ch) for ch in line)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


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
    sys.stderr.write(f"Error: {printable(message)}\n")


def hint(message: str) -> None:
    sys.stderr.write(f"Hint: {printable(message)}\n")


def warning(message: str) -> None:
    sys.stderr.write(f"Warning: {printable(message)}\n")


def note(message: str) -> None:
    """One diagnostic line on stderr (``Wrote …``, ``imported …``), its text made printable."""
    sys.stderr.write(f"{printable(message)}\n")


_STREAMS = ("/dev/stdout", "/dev/stderr", "/dev/null")  # written in place, never replaced


class Target(str):
    """Where an output goes (absolute, through symlinks), remembering the path the user gave
    (``given``): messages name that one."""

    given: str

    def __new__(cls, target: str, given: str):
        self = super().__new__(cls, target)
        self.given = given
        return self


def shown(path) -> str:
    """The name to print for an output path: the one the user gave."""
    return getattr(path, "given", None) or os.fspath(path)


def cannot_write(where: str, e: OSError) -> UsageError:
    """The one line for a write that failed (a full disk, a closed descriptor, an I/O error)."""
    return UsageError(f"{where}: cannot write ({e.strerror or e})")


def output_path(path, option: str, protect=()) -> str | None:
    """Check an output path before any work is done, and return where to write: absolute (a
    relative path means the start directory, whatever the program does later) and through a
    symlink (the link stays, its target is written). Refused with one line (``UsageError``, exit
    2): an empty path, a directory, an existing non-regular file (a device, a FIFO — only
    ``/dev/stdout``, ``/dev/stderr`` and ``/dev/null`` are written in place), a read-only file
    (as ``cp`` without ``-f``: devtrace never replaces what its owner marked read-only), a missing
    or unwritable directory, and any of ``protect`` — ``(path, what)`` pairs such as the program
    being run or an input. Messages name the path as given."""
    if path is None or path == "-":
        return path
    path = os.fspath(path)
    where = f"{option} {printable(path)}"
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
    if os.path.isfile(target) and not os.stat(target).st_mode & 0o222:
        raise UsageError(f"{where}: is read-only (mode {os.stat(target).st_mode & 0o777:04o}); devtrace does "
                         f"not replace a read-only file: remove it or make it writable first")
    directory = os.path.dirname(target)
    if not os.path.isdir(directory):
        if os.path.islink(path):
            raise UsageError(f"{where}: is a symlink to {printable(os.readlink(path))}, whose directory "
                             f"{printable(directory)} does not exist")
        raise UsageError(f"{where}: directory {printable(os.path.dirname(os.path.abspath(path)))} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise UsageError(f"{where}: cannot write (permission denied)")
    return Target(target, path)


_TEMPS: set = set()  # temp files being written: removed on any way out (cleanup_temps)


def _temp_beside(path: str) -> str:
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    _TEMPS.add(tmp)  # before it exists: a signal between the two leaves nothing unregistered
    return tmp


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass
    _TEMPS.discard(tmp)


def _replace(tmp: str, path: str) -> None:
    """Rename the finished temp file onto ``path``, keeping the mode of the file it replaces."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        mode = None
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)
    _TEMPS.discard(tmp)


def cleanup_temps() -> None:
    """Remove every temp file still being written (the command ended by a signal or an error)."""
    for tmp in list(_TEMPS):
        _discard(tmp)


def write_atomic(path: str, text: str, option: str = "") -> None:
    """Write a whole file or nothing: a temp file beside it, then an atomic rename. A failure
    (a full disk) is one line naming ``option``; the old file, if any, is left as it was."""
    where = f"{option + ' ' if option else ''}{printable(shown(path))}"
    if path in _STREAMS:
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise cannot_write(where, e) from None
        return
    tmp = _temp_beside(path)
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        _replace(tmp, path)
    except BaseException as e:
        _discard(tmp)
        if isinstance(e, OSError):
            raise cannot_write(where, e) from None
        raise


class AtomicOutput:
    """A text file written incrementally into a temp file beside ``path`` and renamed onto it by
    ``commit()``; ``abort()`` (or leaving a ``with`` block by an exception) removes the temp file,
    so a reader never sees half a file. Unwritable destinations raise ``UsageError``."""

    def __init__(self, path, option: str = "-o"):
        self.path = os.fspath(path)
        where = f"{option} {printable(shown(path))}" if option else printable(shown(path))
        if os.path.isdir(self.path):
            raise UsageError(f"{where}: is a directory")
        directory = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(directory):
            raise UsageError(f"{where}: directory {printable(directory)} does not exist")
        self.tmp = None
        self._where = where
        if not (os.path.exists(self.path) and not os.path.isfile(self.path)):
            self.tmp = _temp_beside(self.path)  # else a device or a pipe (-o /dev/stdout): written in place
        try:
            self.file = open(self.tmp or self.path, "w", encoding="utf-8")
        except OSError as e:
            if self.tmp is not None:
                _discard(self.tmp)
            raise cannot_write(where, e) from None

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as e:
            self.abort()
            raise cannot_write(self._where, e) from None

    def commit(self) -> None:
        try:
            self.file.close()
            if self.tmp is not None:
                _replace(self.tmp, self.path)
        except OSError as e:
            self.abort()
            raise cannot_write(self._where, e) from None

    def abort(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass
        if self.tmp is not None:
            _discard(self.tmp)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.commit()
        else:
            self.abort()
        return False
