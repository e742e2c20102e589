"""TensorFlow 2's envelope around the errors a ``Session.run`` raises, and where nodes were defined.

Every node remembers the frames of the user's program that created it (TensorFlow's
``Operation.traceback``, without TensorFlow's own frames) as cheaply as it can: each frame's code
object and bytecode offset, shared by the nodes a loop makes; file, line and function are looked
up only when an error or ``Operation.traceback`` shows them. ``Session.run`` re-raises a
placement or kernel error as TensorFlow 2.21's ``BaseSession._do_call`` does::

    Graph execution error:

    Detected at node 'gc' defined at (most recent call last):
        File "prog.py", line 22, in <module>
    Node: 'gc'
    Cannot assign a device for operation gc: ...
    	 [[gc]]

A kernel error (``[[{{node g}}]]``) ends with ``Original stack trace for 'g':`` and the node's
frames. devtrace's own explanation of a placement error (the colocation group) is a note on the
exception (``__notes__``): Python prints it under the error, ``str(e)`` is TensorFlow's text.
"""

from __future__ import annotations

import os
import re
import sys

from ...errors import OpError

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep
_TAG = re.compile(r"\{\{(?P<type>[a-z_]+) (?P<name>[^}]*)\}\}")


_SKIP, _USER, _LAUNCHER = 0, 1, 2
_kinds: dict = {}  # file name → what its frames are (decided once per file)
_interned: dict = {}  # each distinct traceback once, by its codes' ids and offsets (the value keeps the codes alive)
_lines: dict = {}  # (code id, offset) → (file, line, function), once asked for


def _kind(filename: str) -> int:
    if filename == "<frozen runpy>" or filename.endswith(os.sep + "runpy.py"):
        return _LAUNCHER
    return _SKIP if filename.startswith(_PACKAGE_DIR) or filename.startswith("<frozen") else _USER


def definition_frames(skip: int = 3) -> tuple:
    """The user's frames creating a node, outermost first, as ``(code, offset)`` pairs — what the
    frames hold, no line looked up (``frame_lines`` does that when an error or
    ``Operation.traceback`` shows them): devtrace's frames, ``<frozen …>`` ones and those of the
    launcher (above ``runpy``) left out. ``skip``: the frames above this one known to be
    devtrace's (by default ``Graph._create_op`` and the devtrace function calling it), passed
    over without creating their frame objects."""
    key, codes = (), []  # key: each frame's code by identity (a code's own hash reads all of it) and offset
    kinds = _kinds
    try:
        frame = sys._getframe(skip)
    except ValueError:
        frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        kind = kinds.get(filename)
        if kind is None:
            kind = kinds[filename] = _kind(filename)
        if kind:
            if kind == _LAUNCHER:
                break
            codes.append(code)
            key += (id(code), frame.f_lasti)
        frame = frame.f_back
    found = _interned.get(key)
    if found is None:  # a loop's nodes share one (fewer objects for the collector)
        found = _interned[key] = tuple(zip(reversed(codes), key[-1::-2]))
    return found


def frame_lines(frames) -> list:
    """``(filename, line, function)`` of each ``(code, offset)`` pair of ``definition_frames``."""
    out = []
    for code, offset in frames:
        key = (id(code), offset)
        line = _lines.get(key)
        if line is None:
            number = next((n for start, end, n in code.co_lines() if start <= offset < end), None)
            line = _lines[key] = (code.co_filename, number, code.co_name)
        out.append(line)
    return out


def _frames_text(frames, indent: str) -> str:
    return "".join(f'{indent}File "{f}", line {n}, in {name}\n' for f, n, name in frame_lines(frames))


def detected_at(graph, message: str) -> str:
    """TensorFlow's ``interpolate_graph``: one ``Detected at node`` block per node the message names."""
    blocks = ["Graph execution error:", ""]
    for match in _TAG.finditer(message):
        if match.group("type") == "function_node":
            continue
        op = graph._by_name.get(match.group("name"))
        if op is not None:
            blocks.append(f"Detected at node {op.name!r} defined at (most recent call last):\n"
                          + _frames_text(op._traceback, "    ") + f"Node: {op.name!r}")
    blocks.append(message.strip())
    return "\n".join(blocks)


def enveloped(error: OpError, graph, placement_node: str | None = None) -> OpError:
    """``error`` as TensorFlow 2.21's ``Session.run`` raises it (same class, notes kept)."""
    message = error.message
    if placement_node is not None:  # AttachDef: the node's tag, unless the message already has one
        message += f"\n\t [[{placement_node}]]" if "{{node " in message else f"\n\t [[{{{{node {placement_node}}}}}]]"
    text = detected_at(graph, message)
    match = re.search(r"\[\[\{\{node ([^}]*)\}\}\]\]", message)
    op = graph._by_name.get(match.group(1)) if match else None
    if op is not None:
        text += f"\n\nOriginal stack trace for {op.name!r}:\n" + _frames_text(op._traceback, "  ")
    out = type(error)(text, op=error.op, node_def=error.node_def)
    for note in getattr(error, "__notes__", ()):
        out.add_note(note)
    return out
