"""Reading any input a line at a time in bounded memory: the one reader under every trace, log
and machine file devtrace reads.

Whatever the input — a 1 GiB file of NUL bytes, ``/dev/zero``, a file that is one endless line, a
pipe that never ends — memory stays bounded (one chunk and one line of at most ``MAX_LINE``
bytes), binary input is refused from its first chunk, and Ctrl-C is honoured between chunks
(each read and each scan is short). Every refusal is one ``UsageError`` line naming the input.
"""

from __future__ import annotations

import os
import re

from ..errors import UsageError

CHUNK = 1 << 16
MAX_LINE = 8 << 20  # a trace's longest record (a trace_limited's counts) is far below
MAX_DEPTH = 32  # nesting of a JSON record: a trace's are at most 4 deep
_BRACKETS = re.compile(r'[\[\]{}]|"(?:[^"\\]|\\.)*"')


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n} bytes"


def read_lines(source, name: str, what: str, progress=None, max_line: int = MAX_LINE,
               binary: str | None = None, cannot: str = "cannot read"):
    """Yield ``(lineno, line, whole)`` from ``source`` (a path, or a binary file object such as
    stdin's buffer): ``line`` is bytes without its newline; ``whole`` is False only for a last
    line without one (a file cut mid-line). ``what`` names what the input should have been
    (``"a devtrace trace"``) in the errors: binary data (a NUL byte: ``binary``, by default
    ``binary data, not <what>``), a line longer than ``max_line``, a read that fails
    (``<cannot> (<reason>)``). ``progress(bytes_read)`` is called every chunk."""
    if isinstance(source, (str, bytes, os.PathLike)):
        try:
            f = open(source, "rb", buffering=0)
        except OSError as e:
            raise UsageError(f"{name}: {cannot} ({e.strerror or e})") from None
    else:
        f = source
    lineno, done = 0, 0
    pending: list = []  # the start of a line longer than one chunk, in pieces (never re-copied)
    held = 0
    too_long = f"line longer than {_size(max_line)}, not {what}"
    try:
        while True:
            try:
                chunk = f.read(CHUNK)
            except OSError as e:
                raise UsageError(f"{name}: {cannot} ({e.strerror or e})") from None
            if not chunk:
                break
            if b"\0" in chunk:
                raise UsageError(f"{name}: {binary or f'binary data, not {what}'}")
            done += len(chunk)
            if progress is not None:
                progress(done)
            if b"\n" not in chunk:
                pending.append(chunk)
                held += len(chunk)
                if held > max_line:
                    raise UsageError(f"{name}:{lineno + 1}: {too_long}")
                continue
            if pending:
                pending.append(chunk)
                chunk, pending, held = b"".join(pending), [], 0
            *complete, tail = chunk.split(b"\n")
            for line in complete:
                lineno += 1
                if len(line) > max_line:
                    raise UsageError(f"{name}:{lineno}: {too_long}")
                yield lineno, line, True
            if tail:
                pending, held = [tail], len(tail)
        if pending:
            rest = b"".join(pending)
            if len(rest) > max_line:
                raise UsageError(f"{name}:{lineno + 1}: {too_long}")
            yield lineno + 1, rest, False
    finally:
        if f is not source:
            f.close()


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit`` (decided without
    parsing it: a parser would recurse once per level)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for m in _BRACKETS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False
