"""``keras.src``: Keras's source package, of which programs (and Keras's own docstrings) import the
public modules — ``from keras.src import dtype_policies`` — answered by devtrace's ``keras.X``.
Keras's private modules beneath them are not."""

from __future__ import annotations

import importlib

_PUBLIC = ("activations", "callbacks", "config", "datasets", "dtype_policies", "initializers", "layers", "losses",
           "metrics", "mixed_precision", "models", "ops", "optimizers", "random", "regularizers", "tree", "utils")


def __getattr__(name):
    if name in _PUBLIC:
        return importlib.import_module(f"devtrace.keras.{name}")
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"devtrace does not implement keras.src.{name} yet")
