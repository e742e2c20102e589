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
    """Is Python running a callback whose exception it only prints ("Exception ignored in …"): a
    ``__del__``, import's module-lock weakref callback (each import ends with one), a
    ``weakref.finalize``?"""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (code.co_name, code.co_filename) == ("cb", "<frozen importlib._bootstrap>") \
                or (code.co_name == "__call__" and code.co_filename.endswith(f"{os.sep}weakref.py")):
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


class Terminated(BaseException):
    """SIGTERM (a CI timeout, ``docker stop``) in ``devtrace``: it ends like Ctrl-C does — the trace
    is completed and written, temp files removed, and the exit status is 143."""

    status = 143


class Interrupted(BaseException):
    """Ctrl-C in ``devtrace`` outside the program it runs (which gets ``KeyboardInterrupt``): not a
    ``KeyboardInterrupt``, so that click does not turn it into "Aborted!" (exit 1). Exit 130."""

    status = 130


class ReaderGone(BaseException):
    """The reader of a run's streamed output went away (``devtrace run … --format jsonl | head``): the
    program stops at its next trace flush, the trace is completed, and the exit status is 141 (as a
    tool SIGPIPE stopped)."""

    status = 141


SIGNALLED = (KeyboardInterrupt, Interrupted, Terminated)


def status_of(e: BaseException) -> int:
    """130 or 143: the exit status of a run a signal ended."""
    return getattr(e, "status", 130)


pending = None  # a signal received but not yet raised (deferred): its number, until it is raised


def raising(exception_type):
    """A signal handler that raises ``exception_type`` — or, inside a finalizer or a ``deferred``
    block, sends the same signal again a moment later (``devtrace run`` ends on SIGTERM with it too).
    Until it is raised the signal stays ``pending``: whoever ends the process exits with it even
    if the retry never comes."""
    def handler(signum, frame):
        global pending
        if deferred.depth or _in_finalizer(frame):
            pending = signum
            timer = threading.Timer(_RETRY_SECONDS, os.kill, (os.getpid(), signum))
            timer.daemon = True  # never holds the process open at exit
            timer.start()
            return
        pending = None
        raise exception_type
    return handler


def install_cli() -> None:
    """``devtrace``'s own handlers, from its first moment to its last: SIGINT raises
    ``KeyboardInterrupt`` and SIGTERM ``Terminated`` (exit 130 and 143), never inside a finalizer
    or a ``deferred`` block."""
    for signum, handler in ((signal.SIGINT, _cli_handler), (signal.SIGTERM, _term_handler)):
        if signal.getsignal(signum) is not signal.SIG_IGN:  # ignored by whoever started it (nohup, &): still
            signal.signal(signum, handler)


_held = False  # the command line's start-up holds signals (hold_startup) until its entry point runs


def hold_startup() -> None:
    """Signals wait (``deferred``) while the command line starts, until ``release_startup``."""
    global _held
    if not _held:
        _held = True
        deferred.depth += 1


def release_startup() -> None:
    global _held
    if _held:
        _held = False
        deferred.depth -= 1


def settle() -> None:
    """The command has ended, its trace written: a signal from now on is ignored (never raised
    while the interpreter shuts down); one received before and still pending decides the status.

    Under ``python -m``, CPython exits by SIGINT (status -2, whatever ``sys.exit`` said) when a
    ``KeyboardInterrupt`` ever left an ``exec``/``eval`` of a string — a dataclass or a namedtuple
    being made while Ctrl-C came — even one caught and ended with 130: the flag it sets is cleared
    only by the next such ``exec`` that returns, which this is."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    exec("")  # noqa: S102 (clears CPython's unhandled-KeyboardInterrupt flag; see above)


def exit_status(code: int) -> int:
    """The exit status, a signal still pending deciding it (128 + its number)."""
    return 128 + pending if pending is not None else code


_handler = raising(KeyboardInterrupt)
_term_handler = raising(Terminated)
_cli_handler = raising(Interrupted)


def install() -> bool:
    """Install the handler if SIGINT still has Python's default one; True when installed."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return signal.getsignal(signal.SIGINT) is _handler
    signal.signal(signal.SIGINT, _handler)
    return True
