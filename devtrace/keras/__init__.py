"""``tf.keras`` on devtrace: layers, models, optimizers, losses, activations and initializers —
a first slice of Keras (issue 12), its ops placed, logged and accounted like any others."""

from __future__ import annotations

from ..util.namespace import missing

from . import (activations, backend, callbacks, config, constraints, dtype_policies, initializers, layers, losses,
               metrics, mixed_precision, models, ops, optimizers, preprocessing, quantizers, random, regularizers, src,
               symbolic_ops, tree, utils)
from .dtype_policies import DTypePolicy, FloatDTypePolicy
from .engine import KerasTensor
from .layers import Input, Layer
from .models import Model, Sequential
from .variables import Variable

from . import reprs as _reprs

_reprs.install({"optimizers": optimizers, "callbacks": callbacks, "initializers": initializers,
                "regularizers": regularizers})

_missing = missing("keras")
_LAZY = ("applications", "datasets", "export")  # imported on first use: a program that never loads data or a zoo model pays nothing


def __getattr__(name):
    if name in _LAZY:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    return _missing(name)

__all__ = ["DTypePolicy", "FloatDTypePolicy", "Input", "KerasTensor", "Layer", "Model", "Sequential", "Variable",
           "activations", "applications", "backend", "callbacks", "config", "constraints", "datasets", "dtype_policies",
           "initializers", "layers", "losses", "metrics", "mixed_precision", "models", "ops", "optimizers",
           "preprocessing", "quantizers", "random", "regularizers", "src", "tree", "utils"]
