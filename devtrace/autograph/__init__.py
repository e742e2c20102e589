"""AutoGraph, as TensorFlow 2.21's: inside ``tf.function``, Python ``if`` / ``while`` / ``for``
(with ``break``, ``continue`` and ``return``), ``and`` / ``or`` / ``not`` and conditional
expressions over tensors become ``tf.cond`` / ``tf.while_loop``; the functions a converted
function calls are converted too.

The conversion is an AST transform through TensorFlow's converters, in its order (functions,
break, continue, return, call trees, control flow, conditional and logical expressions,
variables), and writes the code TensorFlow writes: ``tf.autograph.to_code`` prints it. The
operators it calls (``ag__.if_stmt`` …) decide at trace time: a symbolic tensor builds the node,
anything else runs plain Python. A function whose source is not available (or a lambda) stays as
it is.
"""

from __future__ import annotations

import inspect
import textwrap
import enum
import types

from . import transpiler
from .conversion import convert, converted_name, converted_tree, is_user_file
from .directives import set_loop_options
from ..util.namespace import missing

__all__ = ["convert", "converted_name", "is_user_file", "to_code", "to_graph", "trace", "experimental",
           "set_verbosity"]


def to_code(fn, recursive=True, experimental_optional_features=None) -> str:
    """``tf.autograph.to_code``: the source of the converted function, as TensorFlow prints it."""
    node = converted_tree(getattr(fn, "_python_function", fn))
    if node is None:
        return textwrap.dedent(inspect.getsource(fn))
    return transpiler.source(node)


def _do_not_convert(func=None):
    """``tf.autograph.experimental.do_not_convert``: tracing calls ``func`` as written."""
    def mark(f):
        f.__autograph_converted__ = True
        return f
    return mark if func is None else mark(func)


class Feature(enum.Enum):
    """``tf.autograph.experimental.Feature``: AutoGraph's optional conversions, by name (TensorFlow's
    ``experimental_autograph_options`` and ``experimental_optional_features`` take them)."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


experimental = types.SimpleNamespace(do_not_convert=_do_not_convert, set_loop_options=set_loop_options,
                                     Feature=Feature)


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """``tf.autograph.to_graph``: the converted function (``tf__<name>``)."""
    return convert(entity)


def trace(*args) -> None:
    """``tf.autograph.trace``: prints its arguments (while tracing, in converted code)."""
    print(*args)


def set_verbosity(level, alsologtostdout=False) -> None:
    """``tf.autograph.set_verbosity``: devtrace's conversion logs nothing, at any level."""
    return None


__getattr__ = missing("autograph")  # a name devtrace lacks says so (util.namespace)
