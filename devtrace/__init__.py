"""devtrace: TensorFlow's device model — devices, placement, copies and device memory — in
Python, without TensorFlow. ``import devtrace as tf`` runs the guide's programs.

Attributes load lazily, so the CLI's start-up never pays for NumPy. Op functions come from the
op declarations (``devtrace.ops.API``); the rest from the modules named in ``_LAZY``.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
import warnings

from . import hooks

# ``tf.__version__`` is the TensorFlow API level devtrace implements, so that programs' version
# checks take TensorFlow 2.21's branch; devtrace's own version is ``__devtrace_version__``.
__version__ = "2.21.0"
__devtrace_version__ = "0.1.0"

_DTYPES = ("float16", "float32", "float64", "half", "double", "int32", "int64", "string", "resource", "DType",
           "int8", "int16", "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "variant",
           "bfloat16", "qint8", "quint8", "qint16", "quint16", "qint32")

_LAZY = {name: ("devtrace.runtime.dtypes", name) for name in _DTYPES}
_LAZY.update({
    "bool": ("devtrace.runtime.dtypes", "bool_"),
    "as_dtype": ("devtrace.runtime.dtypes", "as_dtype_public"),
    "dtypes": ("devtrace.api", "dtypes"),
    "is_tensor": ("devtrace.api", "is_tensor"),
    "Tensor": ("devtrace.runtime.tensor", "Tensor"),
    "TensorShape": ("devtrace.runtime.tensor_shape", "TensorShape"),
    "Variable": ("devtrace.runtime.eager.variables", "Variable"),
    "VariableSynchronization": ("devtrace.runtime.eager.variables", "VariableSynchronization"),
    "VariableAggregation": ("devtrace.runtime.eager.variables", "VariableAggregationV2"),
    "device": ("devtrace.runtime.scopes", "device"),
    "executing_eagerly": ("devtrace.runtime.scopes", "executing_eagerly"),
    "DeviceSpec": ("devtrace.devices.device_spec", "DeviceSpecV2"),
    "config": ("devtrace.config", None),
    "debugging": ("devtrace.api", "debugging"),
    "random": ("devtrace.api", "random"),
    "strings": ("devtrace.api", "strings"),
    "signal": ("devtrace.api", "signal"),
    "experimental": ("devtrace.api", "experimental"),
    "math": ("devtrace.api", "math"),
    "linalg": ("devtrace.api", "linalg"),
    "compat": ("devtrace.compat", None),
    "distribute": ("devtrace.distribute", None),
    "errors": ("devtrace.errors", None),
    "GradientTape": ("devtrace.backprop", "GradientTape"),
    "Module": ("devtrace.module", "Module"),
    "function": ("devtrace.function", "function"),
    "TensorSpec": ("devtrace.function", "TensorSpec"),
    "name_scope": ("devtrace.module", "name_scope"),
    "train": ("devtrace.train", None),
    "saved_model": ("devtrace.saved_model", None),
    "init_scope": ("devtrace.runtime.graph.graph", "init_scope"),
    "version": ("devtrace.api", "version"),
    "newaxis": ("devtrace.ops.indexing_ops", "newaxis"),
    "nn": ("devtrace.api", "nn"),
    "nest": ("devtrace.nest", "namespace"),
    "UnconnectedGradients": ("devtrace.backprop", "UnconnectedGradients"),
    "custom_gradient": ("devtrace.backprop", "custom_gradient"),
    "recompute_grad": ("devtrace.backprop", "recompute_grad"),
    "Graph": ("devtrace.runtime.graph.variables", "Graph"),  # with graph variables (tf.Variable in a graph)
    "get_logger": ("devtrace.tf_logging", "get_logger"),
    "autograph": ("devtrace.autograph", None),
    "data": ("devtrace.data", None),
    "keras": ("devtrace.keras", None),
    "test": ("devtrace.device_lib", "test"),
    "python": ("devtrace.device_lib", "python"),
    "sysconfig": ("devtrace.device_lib", "sysconfig"),
    "ragged": ("devtrace.api", "ragged"),
    "sparse": ("devtrace.api", "sparse"),
    "bitwise": ("devtrace.api", "bitwise"),
    "io": ("devtrace.api", "io"),
    "raw_ops": ("devtrace.api", "raw_ops"),
    "control_dependencies": ("devtrace.api", "control_dependencies"),
    "inside_function": ("devtrace.api", "inside_function"),
    "autodiff": ("devtrace.autodiff", None),
    "zeros_initializer": ("devtrace.init_ops", "Zeros"),
    "ones_initializer": ("devtrace.init_ops", "Ones"),
    "constant_initializer": ("devtrace.init_ops", "Constant"),
    "random_uniform_initializer": ("devtrace.init_ops", "RandomUniform"),
    "random_normal_initializer": ("devtrace.init_ops", "RandomNormal"),
})


def _attach_console(ctx) -> None:
    """Every runtime context prints warnings and the live placement log through the console, and
    Ctrl-C stops the program even when it lands in a tensor's finalizer."""
    from . import interrupts
    from .console import attach

    attach(ctx)
    interrupts.install()


hooks.CONTEXT_CREATED.append(_attach_console)
errors_module = importlib.import_module("devtrace.errors")
errors_module.install_excepthook()
del errors_module
# TensorFlow's kernels return inf and nan silently: NumPy's RuntimeWarnings from devtrace's kernels
# (a division by zero, log(0)) are not shown
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"devtrace\.")
hooks.LOAD_OPS.append(lambda: importlib.import_module("devtrace.ops"))


_HERE = os.path.dirname(os.path.abspath(__file__))


def _own_module(name: str) -> bool:
    """``from devtrace import output`` asks this module's __getattr__ first: for devtrace's own
    modules it must say no without loading the ops (and NumPy)."""
    return os.path.exists(os.path.join(_HERE, name + ".py")) or os.path.isdir(os.path.join(_HERE, name))


def __getattr__(name):
    spec = _LAZY.get(name)
    if spec is None:
        if name.startswith("__") or _own_module(name):
            raise AttributeError(f"module 'devtrace' has no attribute {name!r}")
        from .ops import API

        if name not in API:
            from .namespace import missing_name

            raise missing_name("", name)
        value = API[name]
    else:
        module_name, attr = spec
        module = importlib.import_module(module_name)
        value = module if attr is None else getattr(module, attr)
        if attr is None:
            _as_namespace(name, module)
    globals()[name] = value
    return value


class _Package(types.ModuleType):
    """``tf.function`` and ``tf.nest`` share their names with devtrace's modules: the import system
    sets a package attribute when it first imports a submodule (``devtrace.data`` imports
    ``devtrace.function``), which must not replace the public name with the module."""

    def __setattr__(self, name, value):
        spec = _LAZY.get(name)
        if spec is not None and spec[1] is None and isinstance(value, types.ModuleType):
            _as_namespace(name, value)
        if isinstance(value, types.ModuleType) and spec is not None and spec[1] is not None \
                and value.__name__ == f"{__name__}.{name}":
            return
        super().__setattr__(name, value)


def _as_namespace(name: str, module) -> None:
    """A module that is a TensorFlow namespace (``tf.errors``, ``tf.data``) answers a missing name
    as the namespaces do (:mod:`.namespace`)."""
    if "__getattr__" not in vars(module):
        from .namespace import missing

        module.__getattr__ = missing(name)


sys.modules[__name__].__class__ = _Package
_as_namespace("errors", sys.modules["devtrace.errors"])


def __dir__():
    from .ops import API

    return sorted(set(globals()) | set(_LAZY) | {name for name in API if "." not in name})
