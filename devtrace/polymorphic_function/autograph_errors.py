"""AutoGraph's error rewriting: an error raised while a converted function is traced reads as
TensorFlow's does — ``in user code:``, the program's frames (``  *`` on converted ones), then
the original ``Type: message``, indented.

Frames in devtrace itself, the standard library and installed packages are left out, as
TensorFlow leaves out its own; consecutive frames of one converted function (its branches and
loop bodies run as functions of their own) are one frame, at the innermost line.
"""

from __future__ import annotations

import ast
import linecache
import traceback

from .. import autograph
from ..errors import OperatorNotAllowedInGraphError, OpError

# the exception types TensorFlow re-creates from the rewritten message (any other keeps its own)
_STRING_CONSTRUCTED = (AssertionError, AttributeError, NameError, NotImplementedError, RuntimeError, StopIteration,
                       TypeError, UnboundLocalError, ValueError, OperatorNotAllowedInGraphError)


class _MultilineKeyError(KeyError):
    """A ``KeyError`` whose ``str`` is the whole message (``KeyError`` quotes its argument)."""

    def __init__(self, message, key):
        super().__init__(key)
        self._message = message

    def __str__(self):
        return self._message


_MultilineKeyError.__name__ = "KeyError"


def _frames(tb) -> list:
    """``[(file, line, function, converted)]``, outermost first."""
    frames: list = []
    for summary, (frame, _) in zip(traceback.extract_tb(tb), traceback.walk_tb(tb)):
        original = autograph.converted_name(frame.f_code)
        if original is None and not autograph.is_user_file(summary.filename):
            continue
        entry = (summary.filename, summary.lineno, original or summary.name, original is not None)
        if frames and original is not None and frames[-1][3] and frames[-1][2] == original:
            frames[-1] = entry
        else:
            frames.append(entry)
    return frames


def _lambda_line(filename: str, lineno: int) -> str | None:
    """The line ``lineno`` of the one lambda there, as AutoGraph parsed it (its own source alone)."""
    source = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno <= lineno <= n.end_lineno]
    if len(found) != 1:
        return None
    text = ast.get_source_segment(source, found[0])
    return None if text is None else text.splitlines()[lineno - found[0].lineno].strip()


def message(error) -> str:
    lines = ["in user code:", ""]
    for filename, lineno, name, converted in _frames(error.__traceback__):
        lambda_code = _lambda_line(filename, lineno) if converted and name == "<lambda>" else None
        if lambda_code is not None:  # TensorFlow names a converted lambda None and shows its own source
            name = "None"
        lines.append(f'    File "{filename}", line {lineno}, in {name}' + ("  *" if converted else ""))
        code = lambda_code or linecache.getline(filename, lineno).strip()
        lines.append(f"        {code or '<source unavailable>'}")
    lines.append("")
    lines += [f"    {line}" for line in f"{type(error).__name__}: {error}".split("\n")]
    lines.append("")
    return "\n".join(lines)


def rewritten(error):
    """The error to raise instead of ``error`` (``None``: raise it as it is)."""
    if getattr(error, "ag_error_metadata", None) is not None or getattr(error, "raised_at_call", False):
        return None
    text = message(error)
    kind = type(error)
    if isinstance(error, OpError):
        new = kind(text, error.op, error.node_def)
    elif kind in _STRING_CONSTRUCTED or kind.__init__ is Exception.__init__:
        new = kind(text)
    elif kind is KeyError:
        new = _MultilineKeyError(text, str(error))
    else:
        return None
    new.ag_error_metadata = text
    new.__suppress_context__ = True
    return new.with_traceback(error.__traceback__)
