"""Where in the program a runtime event happened: the innermost frame outside devtrace."""

from __future__ import annotations

import os
import sys

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def caller_location() -> str | None:
    """``file:line`` of the innermost frame outside devtrace (the user's program)."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith("<"):
            if not filename.startswith("<frozen"):
                return f"{filename}:{frame.f_lineno}"  # <stdin>, <string>
        elif not os.path.abspath(filename).startswith(_PACKAGE_DIR):
            return f"{os.path.relpath(filename)}:{frame.f_lineno}"
        frame = frame.f_back
    return None
