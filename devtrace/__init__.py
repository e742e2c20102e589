"""devtrace: TensorFlow's device model — devices, placement, copies and device memory — in
Python, without TensorFlow. ``import devtrace as tf`` runs the guide's programs.

Attributes load lazily, so the CLI's start-up never pays for NumPy.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_OPS = ("constant", "convert_to_tensor", "add", "subtract", "multiply", "divide", "negative", "square",
        "identity", "matmul", "add_n", "cast", "reshape", "fill", "zeros", "ones", "range", "reduce_sum",
        "less", "less_equal", "greater", "greater_equal", "register_op")
_DTYPES = ("float16", "float32", "float64", "half", "double", "int32", "int64", "string", "DType", "as_dtype")

_LAZY = {name: ("devtrace.runtime.ops", name) for name in _OPS}
_LAZY.update({name: ("devtrace.runtime.dtypes", name) for name in _DTYPES})
_LAZY.update({
    "bool": ("devtrace.runtime.dtypes", "bool_"),
    "Tensor": ("devtrace.runtime.tensor", "Tensor"),
    "TensorShape": ("devtrace.runtime.tensor", "TensorShape"),
    "Variable": ("devtrace.runtime.variables", "Variable"),
    "device": ("devtrace.runtime.placement", "device"),
    "executing_eagerly": ("devtrace.runtime.placement", "executing_eagerly"),
    "DeviceSpec": ("devtrace.devices.spec", "DeviceSpec"),
    "config": ("devtrace.runtime.config", None),
    "debugging": ("devtrace.api", "debugging"),
    "random": ("devtrace.api", "random"),
    "strings": ("devtrace.api", "strings"),
    "compat": ("devtrace.api", "compat"),
    "distribute": ("devtrace.api", "distribute"),
    "errors": ("devtrace.errors", None),
})


def __getattr__(name):
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'devtrace' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
