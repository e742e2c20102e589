"""devtrace: TensorFlow's device model — devices, placement, copies and device memory — in
Python, without TensorFlow. ``import devtrace as tf`` runs the guide's programs.

The ``tf`` names are answered lazily by :mod:`devtrace.api` (the CLI's start-up never pays for
NumPy). Importing devtrace changes no process-wide state (excepthook, warnings filters): only
``devtrace run`` and ``devtrace.as_tensorflow.install()``, when devtrace plays TensorFlow, do.
"""

from __future__ import annotations

import os
import sys

if getattr(sys, "orig_argv", [])[1:3] == ["-m", "devtrace"] or os.path.basename(sys.argv[0] if sys.argv else "") \
        == "devtrace":  # the command line (python -m devtrace, devtrace): signals handled from its start.
    import _signal  # builtin: a signal while the handlers' module is imported is kept, not Python's KeyboardInterrupt

    _early: list = []
    for _signum in (_signal.SIGINT, _signal.SIGTERM):
        if _signal.getsignal(_signum) != _signal.SIG_IGN:  # ignored by whoever started it: still ignored
            _signal.signal(_signum, lambda signum, frame: _early.append(signum))
    from .util import interrupts

    interrupts.install_cli()
    interrupts.hold_startup()  # held until its entry point can end it cleanly (cli/entry.py);
    for _signum in _early:  # one that came meanwhile is sent again, to the held handlers
        os.kill(os.getpid(), _signum)
    del _early, _signum

import importlib

from . import hooks

# ``tf.__version__`` is the TensorFlow API level devtrace implements, so that programs' version
# checks take TensorFlow 2.21's branch; devtrace's own version is ``__devtrace_version__``.
__version__ = "2.21.0"
__devtrace_version__ = "0.1.0"


def _attach_console(ctx) -> None:
    """Every runtime context prints warnings and the live placement log through the console, and
    Ctrl-C stops the program even when it lands in a tensor's finalizer."""
    from .util import interrupts
    from .terminal.console import attach

    attach(ctx)
    interrupts.install()


def _api_replaced(old, new) -> None:
    """The ``tf`` attributes kept here and in ``import tensorflow``'s modules follow a replaced API."""
    for module in [sys.modules[__name__]] + [m for m in list(sys.modules.values()) if "__devtrace__" in getattr(m, "__dict__", {})]:
        for name, value in list(vars(module).items()):
            if value is old:
                setattr(module, name, new)


hooks.CONTEXT_CREATED.append(_attach_console)
hooks.API_REPLACED.append(_api_replaced)
hooks.LOAD_OPS.append(lambda: importlib.import_module("devtrace.ops"))

_HERE = os.path.dirname(os.path.abspath(__file__))


def _own_module(name: str) -> bool:
    """``from devtrace import output`` asks this module's __getattr__ first: for devtrace's own
    modules it must say no without loading the ops (and NumPy)."""
    return os.path.exists(os.path.join(_HERE, name + ".py")) or os.path.isdir(os.path.join(_HERE, name))


def __getattr__(name):
    from .api import LAZY, attribute  # (``from . import api`` would ask this function for ``api``)

    if name.startswith("__") or name not in LAZY and _own_module(name):
        raise AttributeError(f"module 'devtrace' has no attribute {name!r}")
    value = globals()[name] = attribute(name)
    return value


def __dir__():
    from .api import names

    return sorted(set(globals()) | names())
