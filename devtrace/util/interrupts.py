"""Ctrl-C always stops a program, even when it lands in a finalizer.

Python delivers SIGINT as a ``KeyboardInterrupt`` raised at the next bytecode; when that is inside
a ``__del__`` (a tensor freeing its device memory, on every op of a tight loop), Python prints
"Exception ignored in …" and the program runs on. devtrace's handler raises as Python's does,
except inside a finalizer: then it sends the signal again a moment later, when the finalizer
has returned. Installed only where Python's own handler is in place, from the main thread.
"""

from __future__ import annotations

import os
import signal
import threading

_RETRY_SECONDS = 0.002


def _in_finalizer(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


class deferred:
    """A block a signal must not cut short (a batch of trace lines being written: never half a
    line): the handler sends the signal again a moment later, when the block has ended."""

    depth = 0

    def __enter__(self):
        deferred.depth += 1

    def __exit__(self, *exc):
        deferred.depth -= 1


def raising(exception_type):
    """A signal handler that raises ``exception_type`` — or, inside a finalizer or a ``deferred``
    block, sends the same signal again a moment later (``devtrace run`` ends on SIGTERM with it too)."""
    def handler(signum, frame):
        if deferred.depth or _in_finalizer(frame):
            threading.Timer(_RETRY_SECONDS, os.kill, (os.getpid(), signum)).start()
            return
        raise exception_type
    return handler


_handler = raising(KeyboardInterrupt)


def install() -> bool:
    """Install the handler if SIGINT still has Python's default one; True when installed."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return signal.getsignal(signal.SIGINT) is _handler
    signal.signal(signal.SIGINT, _handler)
    return True
