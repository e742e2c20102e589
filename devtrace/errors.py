"""Error classes.

The ``OpError`` family mirrors ``tf.errors`` so that a program written against TensorFlow
catches the same exceptions. ``UsageError`` is devtrace's own: bad input given to devtrace
itself (a flag, a machine file, a device string on the command line); the CLI turns it into
one line on stderr and exit status 2.
"""

from __future__ import annotations

import os

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


def with_note(error: BaseException, note: str) -> BaseException:
    """``error`` with devtrace's ``note`` (PEP 678): printed under the error when it goes uncaught,
    never part of ``str(error)``, which stays TensorFlow's text. Python 3.10's builtin exceptions
    have no ``add_note``: the note is stored where 3.11 stores it (devtrace's CLI prints it)."""
    if hasattr(error, "add_note"):
        error.add_note(note)
    else:
        _store_note(error, note)
    return error


def _store_note(error: BaseException, note: str) -> None:
    error.__dict__.setdefault("__notes__", []).append(note)


class OpError(Exception):
    """A failed TensorFlow-style operation (``tf.errors.OpError``).

    Built as devtrace does, ``InvalidArgumentError(message, op=None, node_def=None)``, or as
    TensorFlow's, ``InvalidArgumentError(node_def, op, message)`` (``OpError`` also takes the
    ``error_code``). As in TensorFlow, the exception's ``args`` are empty (``repr`` is
    ``InvalidArgumentError()``) and ``op``/``node_def`` are ``None`` for an eager op's error.
    """

    error_code = UNKNOWN

    def __init__(self, *args, op=None, node_def=None):
        super().__init__()
        if len(args) >= 3:  # TensorFlow's order
            node_def, op, message = args[:3]
            if len(args) > 3 and type(self) is OpError:
                self.error_code = args[3]
        else:
            message = args[0] if args else None
            if len(args) == 2:
                op = args[1]
        self.message = message
        self.op = op
        self.node_def = node_def

    def __str__(self) -> str:
        return str(self.message)

    @property
    def experimental_payloads(self) -> dict:
        return {}

    def __reduce__(self):
        args = (self.node_def, self.op, self.message)
        return type(self), args + (self.error_code,) if type(self) is OpError else args

    if not hasattr(BaseException, "add_note"):  # Python 3.10: PEP 678's notes (devtrace's CLI prints them)
        def add_note(self, note: str) -> None:
            _store_note(self, note)


class CancelledError(OpError):
    error_code = CANCELLED


class UnknownError(OpError):
    error_code = UNKNOWN


class InvalidArgumentError(OpError):
    error_code = INVALID_ARGUMENT


class NotFoundError(OpError):
    error_code = NOT_FOUND


class ResourceExhaustedError(OpError):
    error_code = RESOURCE_EXHAUSTED


class FailedPreconditionError(OpError):
    error_code = FAILED_PRECONDITION


class UnimplementedError(OpError):
    error_code = UNIMPLEMENTED


class OutOfRangeError(OpError):
    error_code = OUT_OF_RANGE


class InternalError(OpError):
    error_code = INTERNAL


class DeadlineExceededError(OpError):
    error_code = DEADLINE_EXCEEDED


class AlreadyExistsError(OpError):
    error_code = ALREADY_EXISTS


class PermissionDeniedError(OpError):
    error_code = PERMISSION_DENIED


class AbortedError(OpError):
    error_code = ABORTED


class UnavailableError(OpError):
    error_code = UNAVAILABLE


class DataLossError(OpError):
    error_code = DATA_LOSS


class UnauthenticatedError(OpError):
    error_code = UNAUTHENTICATED


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation on a symbolic tensor that only an eager tensor supports (``bool``)."""


class DevtraceError(Exception):
    """Base of devtrace's own errors; ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class UsageError(DevtraceError, ValueError):
    """Bad input to devtrace: flags, machine files, simulate specs, trace files."""

    exit_code = 2


class CheckFailed(DevtraceError):
    """A check the user asked for (``--require-gpus``, ``--expect`` …) did not hold."""

    exit_code = 3


class ValueNotComputed(DevtraceError):
    """``--compute none``: the program read a value no kernel computed (``.numpy()``, ``print``, a
    Python ``if`` on a tensor, ``float()``); one line naming the mode, the op and the program's line."""


class DeviceSpecError(UsageError):
    """A device string that does not parse (or a bad ``DeviceSpec`` field).

    A ``ValueError`` like TensorFlow's, so ``except ValueError`` catches it; the CLI exits 2.
    """


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_LIBRARY_ROOTS: list = []
_DEBUG_HINT = "(this is a bug in devtrace; DEVTRACE_DEBUG=1 shows the full traceback)"


def debugging(env=None) -> bool:
    """``DEVTRACE_DEBUG=1``: tracebacks keep devtrace's own frames."""
    return (os.environ if env is None else env).get("DEVTRACE_DEBUG", "") not in ("", "0")


def _library(path: str) -> bool:
    """Python's own modules and installed packages (NumPy …): code devtrace calls, not the user's."""
    if path.startswith("<frozen"):
        return True
    if not _LIBRARY_ROOTS:
        import sys
        import sysconfig

        roots = {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
        roots |= {p for p in sys.path if p.endswith("site-packages")}
        _LIBRARY_ROOTS.extend(os.path.abspath(root) + os.sep for root in roots if root)
    return path.startswith(tuple(_LIBRARY_ROOTS))


def is_internal(error: BaseException) -> bool:
    """Whether ``error`` is devtrace's own failure (a bug) rather than an error TensorFlow would
    raise: it escaped devtrace's code without devtrace raising it on purpose. TensorFlow's error
    classes and devtrace's own are never internal; any other exception is when the innermost frame
    that is devtrace's or the user's (Python's and NumPy's own do not count) is devtrace's and is
    not a ``raise`` statement there (an ``AttributeError`` on ``None``, a NumPy error)."""
    import linecache
    import re

    if not isinstance(error, Exception) or isinstance(error, (OpError, DevtraceError, OperatorNotAllowedInGraphError)):
        return False
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    for depth, (filename, lineno) in enumerate(reversed(frames)):
        path = filename if filename.startswith("<") else os.path.abspath(filename)
        if path.startswith(_PACKAGE):
            line = linecache.getline(filename, lineno).strip()
            return depth > 0 or not re.match(r"(.*[:;]\s*)?raise\b", line)
        if not _library(path):
            return False  # the user's code raised it (perhaps called back from devtrace's)
    return False


def internal_line(error: BaseException, debug: bool = False) -> str:
    """The last line of an internal error's report."""
    text = (str(error).strip().splitlines() or [""])[0]
    hint = "(this is a bug in devtrace)" if debug else _DEBUG_HINT
    return f"devtrace internal error: {type(error).__name__}" + (f": {text}" if text else "") + f" {hint}"


def install_excepthook() -> None:
    """A devtrace error that ends a plain ``python prog.py`` (a bad ``DEVTRACE_*`` variable, a
    bad machine file) prints the program's own frames and one line — not devtrace's frames. An
    internal error (:func:`is_internal`) prints the program's frames and the error, then a line
    saying it is devtrace's; ``DEVTRACE_DEBUG=1`` keeps every frame."""
    import sys
    import traceback

    previous = sys.excepthook
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep

    def hook(kind, value, tb):
        internal = is_internal(value)
        if not isinstance(value, DevtraceError) and not internal:
            return previous(kind, value, tb)
        if internal and debugging():
            previous(kind, value, tb)
            sys.stderr.write(internal_line(value, debug=True) + "\n")
            return None
        frames = [f for f in traceback.extract_tb(tb) if not os.path.abspath(f.filename).startswith(package)]
        if frames:
            sys.stderr.write("Traceback (most recent call last):\n" + "".join(traceback.format_list(frames)))
        if internal:
            sys.stderr.write("".join(traceback.format_exception_only(kind, value)) + internal_line(value) + "\n")
            return None
        sys.stderr.write(f"{kind.__module__}.{kind.__name__}: {value}\n")

    if getattr(previous, "__name__", "") != "hook":
        sys.excepthook = hook


def __getattr__(name):
    """``tf.errors.X`` that devtrace lacks says so, as every namespace does (:mod:`.util.namespace`:
    imported here, when a name is missing, so that this module stays a leaf for everything else)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .util.namespace import missing_name

    raise missing_name("errors", name)
