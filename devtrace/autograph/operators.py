"""The ``ag__`` operators converted code calls, besides the statements (``statements.py``):
variables (``ld``, ``Undefined``), the function scope, logical operators and conditional
expressions over tensors, and ``converted_call``, which converts the program's own functions
as they are called (``CONVERT`` is installed by ``conversion.py``).
"""

from __future__ import annotations

import sys

from ..runtime.tensor import Tensor

CONVERT = None  # conversion.for_call: what converted_call calls a function through


class Undefined:
    """A variable a statement may assign that had no value before it."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def read(self):
        raise UnboundLocalError(f"'{self.symbol_name}' is used before assignment")

    def __repr__(self):
        return self.symbol_name

    def __getattribute__(self, name):
        try:
            return object.__getattribute__(self, name)
        except AttributeError:
            return self

    def __getitem__(self, i):
        return self


class UndefinedReturnValue:
    """The return value of a function before a ``return`` ran."""


def ld(v):
    """A read of a variable: an undefined one raises ``UnboundLocalError``."""
    if isinstance(v, Undefined):
        return v.read()
    return v


def ldu(thunk, name):
    try:
        return thunk()
    except (UnboundLocalError, NameError):
        return Undefined(name)


class ConversionOptions:
    def __init__(self, recursive=False, user_requested=False, internal_convert_user_code=True,
                 optional_features=()):
        self.recursive = recursive
        self.user_requested = user_requested
        self.internal_convert_user_code = internal_convert_user_code
        self.optional_features = optional_features


STD = ConversionOptions(recursive=True)


class FunctionScope:
    """``with ag__.FunctionScope(...) as fscope``: the converted function's context."""

    def __init__(self, function_name, scope_name, options):
        self.name = scope_name
        self.function_name = function_name
        self.options = options

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def ret(value, did_return):
        return None if isinstance(value, UndefinedReturnValue) else value


def autograph_artifact(entity):
    """Code AutoGraph generated: already converted."""
    entity.__autograph_converted__ = True
    return entity


def with_function_scope(thunk, scope_name, options):
    with FunctionScope("lambda_", scope_name, options) as scope:
        return thunk(scope)


def _is_tensor(value) -> bool:
    return isinstance(value, Tensor)


def symbolic(value) -> bool:
    """A tensor of a graph being built (what makes a statement a TensorFlow one)."""
    return isinstance(value, Tensor) and value._device is None


def undefined(value) -> bool:
    return value is None or isinstance(value, (Undefined, UndefinedReturnValue))


def not_(a):
    if _is_tensor(a):
        from ..ops.math import math_ops

        return math_ops.logical_not(a)
    return not a


def and_(a, b):
    value = a()
    if _is_tensor(value):
        from ..ops.control_flow import control_flow_v2

        return control_flow_v2.cond(value, b, lambda: value)
    return value and b()


def or_(a, b):
    value = a()
    if _is_tensor(value):
        from ..ops.control_flow import control_flow_v2

        return control_flow_v2.cond(value, lambda: value, b)
    return value or b()


def if_exp(cond, if_true, if_false, expr_repr):
    if symbolic(cond):
        from ..ops.control_flow import control_flow_v2

        return control_flow_v2.cond(cond, if_true, if_false)
    return if_true() if cond else if_false()


def _range(*args):
    if any(_is_tensor(a) for a in args):
        from ..ops.array import array_ops

        return array_ops.range(*args)
    return range(*args)


def _len(s):
    """``len`` of a tensor in converted code: its first dimension (``tf.shape(s)[0]`` when unknown)."""
    if not symbolic(s):
        return len(s)
    from ..ops.array import array_ops

    dims = s.shape.as_list() if s.shape.rank is not None else None
    if dims and dims[0] is not None:
        return dims[0]
    shape = array_ops.shape(s)
    if dims == []:
        raise ValueError(f"len requires a non-scalar tensor, got one of shape {shape}")
    return shape[0]


def _cast_builtin(builtin, dtype):
    def overload(*args):
        if args and _is_tensor(args[0]):
            from ..ops.array import array_ops

            return array_ops.cast(args[0], dtype)
        return builtin(*args)
    return overload


def _abs(x):
    if _is_tensor(x):
        from ..ops.math import complex_ops

        return complex_ops.abs(x)
    return abs(x)


_OVERLOADS = {id(len): _len, id(int): _cast_builtin(int, "int32"), id(float): _cast_builtin(float, "float32"),
              id(abs): _abs, id(range): _range}


def _originating_frame(scope, innermost):
    """The frame of the converted function that opened ``scope`` (TensorFlow's lookup)."""
    frame, found = sys._getframe(2), None
    while frame is not None:
        if frame.f_locals.get(scope.name) is scope:
            found = frame
            if innermost:
                break
        frame = frame.f_back
    return found


def _in_original_context(f, args, scope):
    """``super()``, ``locals()`` and ``globals()`` as the converted function's own frame sees them."""
    if args or scope is None:
        return f(*args)
    frame = _originating_frame(scope, innermost=f is not super)
    if f is super:
        return super(frame.f_locals["__class__"], frame.f_locals[frame.f_code.co_varnames[0]])
    return frame.f_locals if f is locals else frame.f_globals


def converted_call(f, args, kwargs, caller_fn_scope=None, options=None):
    """A call in converted code: the program's own functions are converted first."""
    kwargs = kwargs or {}
    overload = _OVERLOADS.get(id(f))
    if overload is not None:
        return overload(*args, **kwargs)
    if f is super or f is locals or f is globals:
        return _in_original_context(f, args, caller_fn_scope)
    return CONVERT(f)(*args, **kwargs)
