"""``tf.keras`` on devtrace: layers, models, optimizers, losses, activations and initializers —
a first slice of Keras (issue 12), its ops placed, logged and accounted like any others."""

from __future__ import annotations

from ..util.namespace import missing

from . import (activations, backend, callbacks, config, datasets, initializers, layers, losses, metrics, models, ops, optimizers,
               regularizers, tree, utils)
from .engine import KerasTensor
from .layers import Input, Layer
from .models import Model, Sequential
from .variables import Variable

__getattr__ = missing("keras")

__all__ = ["Input", "KerasTensor", "Layer", "Model", "Sequential", "Variable", "activations", "backend", "callbacks", "config", "datasets", "initializers", "layers", "losses",
           "metrics", "models", "ops", "optimizers", "regularizers", "tree", "utils"]
