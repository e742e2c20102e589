"""``keras.optimizers.OptimizerMap``: which optimizer updates a variable, by its path — an exact
key first, else the one pattern that matches the whole path (``re.fullmatch``), else the default."""

from __future__ import annotations

import re
from collections.abc import MutableMapping

from . import serializable
from .optimizers import LossScaleOptimizer, Optimizer


class OptimizerMap(MutableMapping):
    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(f"default_optimizer must be a Keras Optimizer instance. Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. Received: {optimizer_map}")
        self._default_optimizer, self._optimizer_map = default_optimizer, dict(optimizer_map or {})

    @property
    def default_optimizer(self):
        return self._default_optimizer

    def __getitem__(self, key):
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matching = [pattern for pattern in self._optimizer_map if re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Multiple optimizers assigned to variable {key}.")
        return self._optimizer_map[matching[0]] if matching else self._default_optimizer

    def __setitem__(self, key, optimizer):
        if key in self._optimizer_map:
            raise ValueError(f"'{key}' already exists in the OptimizerMap with value {self._optimizer_map[key]}. "
                             "Please make sure to not use duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        if not isinstance(optimizer, Optimizer):
            raise ValueError(f"optimizer must be a Keras Optimizer instance. Received: {optimizer}")
        if isinstance(optimizer, LossScaleOptimizer):
            raise ValueError("optimizer cannot be LossScaleOptimizer.")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        return self[variable.path]

    def get_config(self) -> dict:
        return {"default_optimizer": serializable.serialize(self._default_optimizer),
                "optimizer_map": {k: serializable.serialize(v) for k, v in self._optimizer_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(serializable.deserialize(config["default_optimizer"], custom_objects),
                   {k: serializable.deserialize(v, custom_objects) for k, v in config["optimizer_map"].items()})
