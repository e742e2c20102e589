"""``import keras`` answered by devtrace (under ``devtrace run``, or after
``devtrace.as_tensorflow.install()``): Keras 3 with its TensorFlow backend is what TensorFlow 2.21's
``tf.keras`` is, so ``keras.X`` is devtrace's ``tf.keras.X`` — the same objects
(``keras.layers.Dense is tf.keras.layers.Dense``) — whether or not the real Keras is installed.

The namespaces Keras and ``tf.keras`` serve from different modules keep their differences
(``keras_api_names``: ``keras.losses`` has no ``mse``, ``tf.keras.layers`` has ``ThresholdedReLU``,
only ``keras`` has ``saving``). The backend is read as Keras reads it (``KERAS_BACKEND``, else
``backend`` in ``$KERAS_HOME/keras.json``, ``~/.keras`` by default); any but ``tensorflow`` stops
the import in one line.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import types

from .home import backend, config_path
from ..generated.keras_api_names import NAMES, VERSION

NAME = "keras"


class BackendError(ImportError):
    """``import keras`` with a backend devtrace does not answer."""


def check_backend() -> None:
    chosen = backend()
    if chosen != "tensorflow":
        where = "KERAS_BACKEND" if os.environ.get("KERAS_BACKEND") else config_path()
        raise BackendError(f"devtrace answers only Keras's TensorFlow backend; this program asks for "
                           f"backend '{chosen}' ({where})")


class View(types.ModuleType):
    """A Keras namespace whose module differs from ``tf.keras``'s: devtrace's names, as far as
    standalone Keras has them."""

    def __init__(self, path: str, namespace):
        module, names = NAMES[path]
        super().__init__(module, getattr(namespace, "__doc__", None))
        self.__path__ = []
        self.__devtrace__ = namespace
        self._path, self._names = path, frozenset(names.split())

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if attr not in self._names:
            raise AttributeError(f"module '{self.__name__}' has no attribute '{attr}'")
        child = f"{self._path}.{attr}" if self._path else attr
        try:
            value = _only_standalone(child) or getattr(self.__devtrace__, attr)
        except AttributeError:
            if child not in NAMES:
                raise AttributeError(f"devtrace does not implement keras.{child} yet") from None
            value = types.SimpleNamespace()
        if child in NAMES:
            value = View(child, value)
        self.__dict__[attr] = value
        return value

    def __dir__(self):
        return sorted(self._names)


def _only_standalone(child: str):
    """A namespace only standalone Keras has (``keras.saving``; ``tf.keras`` has none): its module."""
    if child == "saving":
        from . import saving_lib

        return saving_lib
    return None


def top():
    """The ``keras`` module (one per process: ``import keras`` twice is the same object)."""
    import devtrace.keras

    view = View("", devtrace.keras)
    view.__version__ = VERSION
    return view


def resolve(fullname: str, root):
    """``keras.X.Y``'s module: ``root``'s attributes followed (a name devtrace lacks, or a module
    Keras does not have, raises ``ModuleNotFoundError`` saying which)."""
    value = root
    for part in fullname.split(".")[1:]:
        try:
            value = getattr(value, part)
        except AttributeError as e:
            text = str(e)
            if text.startswith("devtrace does not implement"):
                raise ModuleNotFoundError(f"devtrace does not implement {fullname} yet", name=fullname) from None
            raise ModuleNotFoundError(f"No module named '{fullname}'", name=fullname) from None
    return value


def spec(fullname: str, loader_for):
    """The import spec of ``keras`` or ``keras.X.Y`` (``loader_for(value)`` wraps what it answers)."""
    import sys

    if fullname == NAME:
        check_backend()
        return importlib.util.spec_from_loader(fullname, _ViewLoader(top()))
    root = sys.modules.get(NAME)
    if not isinstance(root, View):
        root = top()
    value = resolve(fullname, root)
    loader = _ViewLoader(value) if isinstance(value, View) else loader_for(value)
    return importlib.util.spec_from_loader(fullname, loader)


class _ViewLoader(importlib.abc.Loader):
    def __init__(self, view):
        self.view = view

    def create_module(self, spec):
        return self.view

    def exec_module(self, module):
        return None
