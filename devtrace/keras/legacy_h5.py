"""Keras 2's weights files (``.h5``/``.hdf5`` not ending ``.weights.h5``, as the ImageNet weights of
``keras.applications`` are): a group per layer holding its weights (``conv1/conv1/kernel:0``); each
layer of the model that has weights takes its group's values, matched by the weights' names."""

from __future__ import annotations

from . import hdf5


def is_legacy(filepath: str) -> bool:
    return filepath.endswith((".h5", ".hdf5")) and not filepath.endswith(".weights.h5")


def _short(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(":", 1)[0]


def load(model, filepath: str) -> None:
    with open(filepath, "rb") as f:
        tree = hdf5.read(f.read())
    if "model_weights" in tree:  # a whole model saved by Keras 2: its weights under model_weights/
        tree = tree["model_weights"]
    layers = [layer for layer in model.layers if layer.weights]
    stored = [name for name, group in tree.items() if isinstance(group, dict) and hdf5.flatten(group)]
    if len(stored) != len(layers):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected {len(layers)} "
                         f"layers, found {len(stored)} saved layers.")
    for layer in layers:
        group = tree.get(layer.name)
        if not isinstance(group, dict):
            raise ValueError(f"The file {filepath} holds no weights for layer '{layer.name}'.")
        values = {_short(path): value for path, value in hdf5.flatten(group).items()}
        if len(values) != len(layer.weights):
            raise ValueError(f"Layer '{layer.name}' expected {len(layer.weights)} weights, but the saved weights "
                             f"have {len(values)} elements.")
        for weight in layer.weights:
            value = values.get(_short(weight.name))
            if value is None or tuple(value.shape) != tuple(weight.shape):
                raise ValueError(f"Shape mismatch in layer '{layer.name}' for weight {weight.name}: the file holds "
                                 f"{None if value is None else value.shape}, the weight is {tuple(weight.shape)}.")
            weight.assign(value)
