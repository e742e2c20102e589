"""TensorFlow's Python logging: ``tf.get_logger()`` (the ``tensorflow`` logger with TensorFlow's
stderr handler, ``WARNING:tensorflow:…``) and the deprecation warnings of deprecated functions,
printed through it once per function as ``deprecation.deprecated`` prints them."""

from __future__ import annotations

import functools
import logging
import os
import sys

from ..util.namespace import Namespace

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_warned: set = set()


def get_logger() -> logging.Logger:
    """``tf.get_logger()``: the ``tensorflow`` logger; like TensorFlow, it gets a stderr handler
    in ``LEVEL:tensorflow:message`` form when the root logger has none."""
    logger = logging.getLogger("tensorflow")
    if not logger.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    return logger


def logger_enabled(level: str) -> bool:
    """Whether the ``tensorflow`` logger lets ``level`` (``INFO``, ``WARNING``, ``ERROR``) through:
    ``tf.get_logger().setLevel('INFO')`` shows ``INFO:tensorflow:`` lines, ``'ERROR'`` hides warnings."""
    value = logging.getLevelName(level)
    return not isinstance(value, int) or logging.getLogger("tensorflow").isEnabledFor(value)


def _call_location() -> str:
    """``file:line`` of the program's call (the innermost frame outside devtrace), as
    TensorFlow's ``_call_location`` prints it."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return "<unknown>:0"
    filename = frame.f_code.co_filename  # absolute, as a script's own is since Python 3.9
    return f"{filename if filename.startswith('<') else os.path.abspath(filename)}:{frame.f_lineno}"


def deprecated(module: str, instructions: str):
    """``deprecation.deprecated(None, instructions)``: the first call of the function logs
    ``From FILE:LINE: NAME (from MODULE) is deprecated …``; ``module`` is TensorFlow's."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if fn not in _warned:
                _warned.add(fn)
                get_logger().warning("From %s: %s (from %s) is deprecated and will be removed in a future version.\n"
                                     "Instructions for updating:\n%s", _call_location(), fn.__name__, module,
                                     instructions)
            return fn(*args, **kwargs)
        return wrapper
    return decorate


def _log(level: int):
    return lambda msg, *args, **kwargs: get_logger().log(level, msg, *args, **kwargs)


def get_verbosity() -> int:
    return get_logger().getEffectiveLevel()


def set_verbosity(v) -> None:
    get_logger().setLevel(v)


def vlog(level, msg, *args, **kwargs) -> None:
    get_logger().log(level, msg, *args, **kwargs)


def log_if(level, msg, condition, *args) -> None:
    if condition:
        vlog(level, msg, *args)


_counts: dict = {}  # (file, line) of a log_first_n / log_every_n call -> calls so far


def _next_count() -> int:
    """How many times this token logged before. TensorFlow's token is the file and line of the
    first frame, above the caller, whose file differs from the caller's — ``('<unknown>', 0)``
    for every call made from a program's own file, which share one count."""
    frame = sys._getframe(2)
    own = frame.f_code.co_filename
    while frame is not None and frame.f_code.co_filename == own:
        frame = frame.f_back
    token = ("<unknown>", 0) if frame is None else (frame.f_code.co_filename, frame.f_lineno)
    _counts[token] = _counts.get(token, -1) + 1
    return _counts[token]


def log_first_n(level, msg, n, *args) -> None:
    log_if(level, msg, _next_count() < n, *args)


def log_every_n(level, msg, n, *args) -> None:
    log_if(level, msg, not _next_count() % n, *args)


def flush() -> None:
    raise NotImplementedError()  # as TensorFlow's


def _namespace() -> Namespace:
    return Namespace(_prefix="compat.v1.logging", DEBUG=logging.DEBUG, INFO=logging.INFO, WARN=logging.WARN,
                     ERROR=logging.ERROR, FATAL=logging.FATAL, debug=_log(logging.DEBUG), info=_log(logging.INFO),
                     warn=_log(logging.WARNING), warning=_log(logging.WARNING), error=_log(logging.ERROR),
                     fatal=_log(logging.FATAL), log=vlog, vlog=vlog, log_if=log_if, log_first_n=log_first_n,
                     log_every_n=log_every_n, TaskLevelStatusMessage=_log(logging.ERROR),
                     get_verbosity=get_verbosity, set_verbosity=set_verbosity, flush=flush)


compat_v1_logging = _namespace()
