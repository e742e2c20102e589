"""``import tensorflow`` answered by devtrace, so a TensorFlow program runs unchanged under
``devtrace run`` (or after ``devtrace.as_tensorflow.install()``).

A meta-path finder maps ``tensorflow`` to ``devtrace`` and ``tensorflow.X.Y`` to the namespace
``devtrace.X.Y`` (``tensorflow.compat.v1``, ``tensorflow.keras.layers`` …), so both ``import
tensorflow.compat.v1 as tf1`` and ``from tensorflow.keras import layers`` work. A module devtrace
lacks (``tensorflow.python.client``) raises ``ModuleNotFoundError`` saying so.

Once the program imports ``tensorflow``, the classes whose module path TensorFlow programs see
(``type(tf.float32)``, an error's ``__module__``) carry TensorFlow's (``_INTERNAL``), and those
module paths import (pickle finds the classes there).

While devtrace plays TensorFlow (and only then: ``import devtrace`` changes no process-wide
state) a devtrace error that ends the program prints the program's frames and one line
(``errors.install_excepthook``), and NumPy's RuntimeWarnings attributed to devtrace's modules are
not shown, as TensorFlow's kernels return inf and nan silently (the kernels that warn most are
also quiet on their own, ``ops.declare.quiet``, for ``import devtrace as tf``).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import types
import warnings

_NAME = "tensorflow"
# TensorFlow's module → (devtrace's module, the classes it holds there)
_INTERNAL = {
    "tensorflow.python.framework.dtypes": ("devtrace.runtime.dtypes", ("DType",)),
    "tensorflow.python.framework.errors_impl": ("devtrace.errors", (
        "OpError", "CancelledError", "UnknownError", "InvalidArgumentError", "NotFoundError",
        "ResourceExhaustedError", "FailedPreconditionError", "UnimplementedError", "OutOfRangeError",
        "InternalError", "DeadlineExceededError", "AlreadyExistsError", "PermissionDeniedError", "AbortedError",
        "UnavailableError", "DataLossError", "UnauthenticatedError")),
}
_PACKAGES = ("tensorflow.python", "tensorflow.python.framework")
_RENAMED: dict = {}  # class → its own __module__, while it carries TensorFlow's
_PROCESS: list = []  # while devtrace plays TensorFlow: the excepthook before devtrace's, devtrace's warnings filter


class _Loader(importlib.abc.Loader):
    def __init__(self, value):
        self.value = value

    def create_module(self, spec):
        return _as_module(spec.name, self.value)

    def exec_module(self, module):
        return None


def _as_module(name: str, namespace) -> types.ModuleType:
    """``tensorflow.X``: a module whose attributes are those of devtrace's ``X`` (a module or a
    namespace object), and a package, so that ``tensorflow.X.Y`` imports too."""
    module = types.ModuleType(name, getattr(namespace, "__doc__", None))

    def __getattr__(attr):  # noqa: N807 (PEP 562); kept in the module once found: tf.add in a loop is a dict hit
        value = getattr(namespace, attr)
        module.__dict__[attr] = value
        return value

    module.__getattr__ = __getattr__
    module.__dir__ = lambda: dir(namespace)
    module.__path__ = []
    module.__devtrace__ = namespace
    return module


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == "keras" or fullname.startswith("keras."):  # Keras 3 is tf.keras: devtrace's
            from ..keras import standalone

            return standalone.spec(fullname, _Loader)
        if fullname != _NAME and not fullname.startswith(_NAME + "."):
            return None
        import devtrace

        if fullname == _NAME:
            _rename()
        if fullname in _INTERNAL or fullname in _PACKAGES:
            value = importlib.import_module(_INTERNAL[fullname][0]) if fullname in _INTERNAL else types.SimpleNamespace()
            return importlib.util.spec_from_loader(fullname, _Loader(value))
        value = devtrace
        for part in fullname.split(".")[1:]:
            try:
                value = getattr(value, part)
            except AttributeError:
                # under the internal packages devtrace serves, ``from … import ops`` says so too (an
                # error named after the module would be taken for "no such submodule")
                internal = fullname.rpartition(".")[0] in _PACKAGES
                raise ModuleNotFoundError(f"devtrace does not implement {fullname} yet",
                                          name=None if internal else fullname) from None
        return importlib.util.spec_from_loader(fullname, _Loader(value))


_FINDER = _Finder()


def install() -> None:
    """From now on ``import tensorflow`` gives devtrace (a real TensorFlow, if imported already,
    stays in ``sys.modules`` untouched)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    if not _PROCESS:
        from .. import errors

        _PROCESS.append(sys.excepthook)
        errors.install_excepthook()
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"devtrace\.")
        _PROCESS.append(warnings.filters[0])


def _rename() -> None:
    for internal, (module, names) in _INTERNAL.items():
        for name in names:
            cls = getattr(importlib.import_module(module), name)
            _RENAMED.setdefault(cls, cls.__module__)
            cls.__module__ = internal


def uninstall() -> None:
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    if _PROCESS:
        hook, entry = _PROCESS
        _PROCESS.clear()
        if getattr(sys.excepthook, "__name__", "") == "hook":  # still devtrace's: the one before it again
            sys.excepthook = hook
        if entry in warnings.filters:
            warnings.filters.remove(entry)
    for cls, module in _RENAMED.items():
        cls.__module__ = module
    _RENAMED.clear()
    for name in [n for n in list(sys.modules) if n in (_NAME, "keras") or n.startswith((_NAME + ".", "keras."))]:
        if hasattr(sys.modules[name], "__devtrace__"):
            del sys.modules[name]
