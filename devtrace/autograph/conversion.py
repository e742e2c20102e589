"""Converting a function: its source through the transpiler into ``tf__<name>``, with the
``ag__`` operators; which functions are converted (the program's own, once each); and which
code objects belong to a conversion (the error rewriting marks their frames ``*``).
"""

from __future__ import annotations

import functools
import inspect
import os
import sysconfig
import types

from . import operators, statements, transpiler
from ..platform import tf_logging
from .unsupported import UnsupportedLanguageElementError

AG_MODULE = types.SimpleNamespace(**{name: getattr(module, name) for module, names in (
    (operators, ("Undefined", "UndefinedReturnValue", "ld", "ldu", "ConversionOptions", "STD", "FunctionScope",
                 "autograph_artifact", "with_function_scope", "not_", "and_", "or_", "if_exp", "converted_call")),
    (statements, ("if_stmt", "while_stmt", "for_stmt"))) for name in names})

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARY = tuple({os.path.abspath(p) for p in (sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
                                               sysconfig.get_paths()["platlib"])})
_CONVERTED_CALLS: dict = {}
_CONVERTED_CODE: dict = {}  # code object of a converted function (or of a function inside it) -> its name


def is_user_file(filename: str) -> bool:
    """The program's own code (AutoGraph leaves TensorFlow's and the libraries' alone)."""
    if filename.startswith("<"):
        return False
    path = os.path.abspath(filename)
    return not path.startswith(_PACKAGE + os.sep) and not path.startswith(_LIBRARY)


def converted_name(code) -> str | None:
    """The name of the function whose conversion ``code`` belongs to (``None``: not converted code)."""
    return _CONVERTED_CODE.get(code)


def _remember(code, name: str) -> None:
    _CONVERTED_CODE[code] = name
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _remember(const, name)


def _namespace(fn) -> dict:
    names = dict(fn.__globals__)
    names.update(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    return names


def converted_tree(fn, user_requested=True):
    """The converted definition of ``fn`` (``None``: its source is not available)."""
    if fn.__name__ == "<lambda>":
        node = transpiler.parse_lambda(fn)
        return None if node is None else transpiler.convert_lambda(node, _namespace(fn), user_requested)
    node = transpiler.parse(fn)
    if node is None:
        return None
    return transpiler.convert_tree(node, _namespace(fn), user_requested)


def _warn_unconverted(fn, error) -> None:
    report = "" if isinstance(error, UnsupportedLanguageElementError) else (
        "Please report this to the TensorFlow team. When filing the bug, set the verbosity to 10 (on Linux, "
        "`export AUTOGRAPH_VERBOSITY=10`) and attach the full output.\n")
    tf_logging.get_logger().warning("AutoGraph could not transform %s and will run it as-is.\n%sCause: %s\nTo silence "
                                    "this warning, decorate the function with "
                                    "@tf.autograph.experimental.do_not_convert", fn, report, error)


def convert(fn, user_requested=True):
    """``fn`` with its control flow converted (``fn`` itself when it can't be)."""
    if isinstance(fn, functools.partial):
        converted = convert(fn.func, user_requested)
        return fn if converted is fn.func else functools.partial(converted, *fn.args, **fn.keywords)
    if inspect.ismethod(fn):
        converted = convert(fn.__func__, user_requested)
        return converted if converted is fn.__func__ else types.MethodType(converted, fn.__self__)
    if not inspect.isfunction(fn) or getattr(fn, "__autograph_converted__", False):
        return fn
    try:
        node = converted_tree(fn, user_requested)
        if node is None:
            return fn
        converted = transpiler.compile_function(fn, node, AG_MODULE)
    except Exception as e:  # noqa: BLE001 (TensorFlow runs any function it cannot convert as it is)
        _warn_unconverted(fn, e)
        return fn
    _remember(converted.__code__, fn.__name__)
    converted.__kwdefaults__ = fn.__kwdefaults__
    converted.__autograph_converted__ = True
    functools.update_wrapper(converted, fn, assigned=("__module__", "__qualname__", "__doc__"), updated=())
    return converted


def for_call(fn):
    """What converted code calls for ``fn``: a function of the program's own, converted (once)."""
    if inspect.ismethod(fn):
        inner = for_call(fn.__func__)
        return fn if inner is fn.__func__ else types.MethodType(inner, fn.__self__)
    if not inspect.isfunction(fn) or getattr(fn, "__autograph_converted__", False) \
            or not is_user_file(fn.__code__.co_filename):
        return fn
    hit = _CONVERTED_CALLS.get(fn)
    if hit is None:
        hit = _CONVERTED_CALLS[fn] = convert(fn, user_requested=False)
    return hit


operators.CONVERT = for_call
