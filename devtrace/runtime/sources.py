"""Where an op came from: the program's ``file:line`` that created it (an op record's ``src``).

The line is the innermost frame of the program itself: devtrace's frames (Keras's included, which
devtrace implements), the standard library's and ``<frozen …>`` ones are passed over, and the walk
stops at the launcher (``runpy``). An op inside a traced function takes the line of the function's
body that created its node, found when the node was made (``Operation._traceback``) and reused
every time the graph runs; a Keras layer's op, the program's line that called Keras
(``model.fit(...)``, ``model(x)``).

Recorded only while ``ENABLED`` (``devtrace run`` turns it on: its trace, table and report show it),
so a program importing devtrace as a library pays nothing. When on, each op costs a walk over the
frames between it and the program (usually one or two) and one dictionary lookup: the text of a
call site is made once, keyed by its code object and bytecode offset, and kept (with the code, so
its id is never reused). ``_fastpath.c`` does the same walk in C for the eager two-input op, with
its own table of call sites, asking ``kind_of`` and ``resolve`` here for what it has not seen.

Paths are shown relative to the program's directory, else to the working directory, when under
it; otherwise whole. Nothing is escaped here: the trace's writers and renderers escape ``src`` as
every other string of the trace.
"""

from __future__ import annotations

import os
import sys
import sysconfig

from .native import FASTPATH

SKIP, USER, LAUNCHER = 0, 1, 2
ENABLED = False
KINDS: dict = {}  # file name → SKIP | USER | LAUNCHER, decided once per file (shared with _fastpath.c)
_SITES: dict = {}  # (id(code), bytecode offset) → "path:line"
_KEEP: list = []  # the codes _SITES names, kept alive so that their ids stay theirs
_MAX_SITES = 1 << 16
_ROOTS: list = []  # the directories paths are shown relative to: the program's, then the working one

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _library_dirs() -> tuple:
    dirs = set()
    for key in ("stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(os.path.join(os.path.realpath(path), ""))
            dirs.add(os.path.join(os.path.abspath(path), ""))
    return tuple(sorted(dirs))


_STDLIB = _library_dirs()
_THIRD_PARTY = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)


def kind_of(filename: str) -> int:
    """What frames of ``filename`` are (and remember it)."""
    kind = KINDS.get(filename)
    if kind is not None:
        return kind
    if filename == "<frozen runpy>" or filename.endswith(os.sep + "runpy.py"):
        kind = LAUNCHER
    elif filename.startswith("<"):
        kind = SKIP if filename.startswith("<frozen") else USER  # <stdin>, <string>: the program's
    else:
        path = os.path.abspath(filename)
        if path.startswith(_PACKAGE) or filename.startswith(_PACKAGE):
            kind = SKIP
        elif path.startswith(_STDLIB) and not any(part in path for part in _THIRD_PARTY):
            kind = SKIP
        else:
            kind = USER
    KINDS[filename] = kind
    return kind


def resolve(filename: str, line) -> str:
    """``path:line`` as shown: relative to the program's directory or the working directory when
    under one of them (``<stdin>``-like names as they are)."""
    if filename.startswith("<"):
        return f"{filename}:{line}"
    path = os.path.abspath(filename)
    if not _ROOTS:
        _set_roots(None)
    for root in _ROOTS:
        if path.startswith(root):
            path = path[len(root):]
            break
    return f"{path}:{line}"


def _set_roots(program: str | None) -> None:
    roots = []
    if program is None and sys.argv and sys.argv[0] and os.path.isfile(sys.argv[0]):
        program = sys.argv[0]
    if program is not None:
        roots.append(os.path.join(os.path.dirname(os.path.abspath(program)), ""))
    try:
        roots.append(os.path.join(os.getcwd(), ""))
    except OSError:  # the working directory was removed
        pass
    _ROOTS[:] = list(dict.fromkeys(roots))


def enable(program: str | None = None, on: bool = True) -> None:
    """Record each op's ``src`` from now on (``program``: the file whose directory paths are shown
    relative to; by default ``sys.argv[0]``'s); ``on=False`` stops."""
    global ENABLED
    ENABLED = on
    if on:
        _set_roots(program)
        _SITES.clear()  # (shown relative to the new roots)
        _KEEP.clear()
    if FASTPATH is not None:
        FASTPATH.set_sources(on, KINDS, kind_of, resolve)


def _remember(key, code, src: str) -> str:
    if len(_SITES) >= _MAX_SITES:
        _SITES.clear()
        _KEEP.clear()
    _SITES[key] = src
    _KEEP.append(code)
    return src


def _program_frame(frame):
    """The innermost frame of the program from ``frame`` out (``None``: none before the launcher)."""
    kinds = KINDS
    while frame is not None:
        code = frame.f_code
        kind = kinds.get(code.co_filename)
        if kind is None:
            kind = kind_of(code.co_filename)
        if kind == USER:
            return frame
        if kind == LAUNCHER:
            return None
        frame = frame.f_back
    return None


def here(skip: int = 1):
    """``src`` of the op being made now: the innermost frame of the program (``None``: none, an op
    devtrace made on its own). ``skip``: frames above the caller known to be devtrace's."""
    frame = _program_frame(sys._getframe(skip))
    if frame is None:
        return None
    code = frame.f_code
    key = (id(code), frame.f_lasti)
    src = _SITES.get(key)
    return src if src is not None else _remember(key, code, resolve(code.co_filename, frame.f_lineno))


def call_site():
    """The program's innermost frame now, as ``(id(code), offset)`` (``None``: none): a function
    traced now records it, so that its nodes made there (its outputs' ``Identity``, every node of a
    function devtrace or Keras traces, like ``fit``'s train step) take the line of each call instead."""
    frame = _program_frame(sys._getframe(1))
    return None if frame is None else (id(frame.f_code), frame.f_lasti)


def _innermost(op):
    """The ``(code, offset)`` of the innermost of the program's frames that created the graph node
    ``op`` (``Operation._traceback``: such pairs, outermost first, devtrace's left out)."""
    for code, offset in reversed(getattr(op, "_traceback", None) or ()):
        kind = KINDS.get(code.co_filename)
        if kind is None:
            kind = kind_of(code.co_filename)
        if kind == USER:
            return code, offset
    return None, None


def of_node(op, site=None):
    """``src`` of a graph node: the line of the innermost of the program's frames that created it;
    ``CALL`` when that frame is ``site`` (the ``call_site`` of the call that traced its function)."""
    code, offset = _innermost(op)
    if code is None:
        return None
    key = (id(code), offset)
    if key == site:
        return CALL
    src = _SITES.get(key)
    if src is None:
        line = next((n for start, end, n in code.co_lines() if start <= offset < end), None)
        src = _remember(key, code, resolve(code.co_filename, line))
    return src


CALL = "<the call's>"  # of_node: the node takes the src of each call of its function (a str: records stay plain)
