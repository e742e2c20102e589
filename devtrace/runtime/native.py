"""The runtime's C module, ``_fastpath`` (``_fastpath.c``): the eager tensor's storage and the
per-op hot path, step for step what their Python references do (``tensor._TensorBase``,
``eager/executor._execute_binary``) in a fraction of the time.

``FASTPATH`` is the module, or ``None`` when it was not built (the install found no C compiler:
it is optional), was built from other sources (its ``ABI`` is not ``ABI``: ``pip install -e .``
rebuilds it) or ``DEVTRACE_PURE_PYTHON`` is set (not ``0``): the Python references run then.
"""

from __future__ import annotations

import os

ABI = 15  # _fastpath.c's FASTPATH_ABI: raised whenever what configure() takes, or what the module has, changes


def _load():
    if os.environ.get("DEVTRACE_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from . import _fastpath
    except ImportError:
        return None
    return _fastpath if getattr(_fastpath, "ABI", None) == ABI else None


FASTPATH = _load()
