"""``keras.saving``: ``model.save("x.keras")`` / ``load_model``, ``save_weights`` / ``load_weights``.

A ``.keras`` file is Keras 3's zip (stored, not compressed): ``metadata.json`` (Keras's version and
the date), ``config.json`` (the model's serialized config, with its ``compile_config``) and
``model.weights.h5``; a ``.weights.h5`` file is that HDF5 file alone. Keras writes them with h5py;
devtrace, without it, writes and reads the part of HDF5 they use (``hdf5``), at Keras's paths
(``layers/dense/vars/0``, ``optimizer/vars/1``), so that Keras reads devtrace's files and devtrace
reads Keras's. The ``.npz`` weights devtrace wrote before are still read."""

from __future__ import annotations

import datetime
import io
import json
import os
import warnings
import zipfile

import numpy as np

from devtrace.util.namespace import missing as _missing

from . import hdf5, legacy_h5
from .serializable import (CustomObjectScope, custom_object_scope, deserialize as deserialize_keras_object,  # noqa: F401
                           get_custom_objects, get_registered_name, get_registered_object,
                           register_keras_serializable, serialize as serialize_keras_object)

KERAS_VERSION = "3.15.1"
WEIGHTS_NAME = "model.weights.h5"
LEGACY_WEIGHTS_NAME = "model.weights.npz"  # what devtrace wrote before it wrote HDF5


# -- the weights and their paths: Keras's ``_save_state`` walk ----------------------------------------
class _Walk:
    """Each object's variables at Keras's path: a layer's own under ``<path>/vars/<i>`` (trainable
    first), a Sequential's or functional model's layers under ``layers/<snake class name>``
    (``dense``, ``dense_1`` …), other objects under the attribute that holds them (sorted, private
    ones last), the optimizer's under ``optimizer/vars``; each object once."""

    def __init__(self, with_optimizer: bool):
        self.variables: dict = {}  # path -> variable
        self.owners: dict = {}  # the "<path>/vars" of each object -> the object
        self.with_optimizer, self.seen = with_optimizer, set()

    def layer(self, layer, prefix: str) -> None:
        from .engine import InputLayer

        if id(layer) in self.seen:
            return
        self.seen.add(id(layer))
        own = list(getattr(layer, "_layer_weights", ()))
        for i, v in enumerate([v for v in own if v.trainable] + [v for v in own if not v.trainable]):
            self.variables[f"{prefix}vars/{i}"] = v
        self.owners[f"{prefix}vars"] = layer
        if hasattr(layer, "_stack") or getattr(layer, "_operations", None):
            self.container([x for x in layer.layers if not isinstance(x, InputLayer)], f"{prefix}layers/")
        for name in sorted(vars(layer), key=lambda n: f"~{n}" if n.startswith("_") else n):
            self.child(getattr(layer, name, None), f"{prefix}{name}/")

    def child(self, value, prefix: str) -> None:
        from .engine import Layer
        from .optimizers import Optimizer

        if isinstance(value, Layer):
            self.layer(value, prefix)
        elif isinstance(value, Optimizer):
            if self.with_optimizer and value.built and id(value) not in self.seen:
                self.seen.add(id(value))
                for i, v in enumerate(value.variables):
                    self.variables[f"{prefix}vars/{i}"] = v
                self.owners[f"{prefix}vars"] = value
        elif isinstance(value, (list, tuple, dict)):
            items = list(value.values()) if isinstance(value, dict) else list(value)
            if any(isinstance(v, Layer) and id(v) not in self.seen for v in items):
                self.container(items, prefix)

    def container(self, items, prefix: str) -> None:
        from .engine import Layer, snake

        used: dict = {}
        for item in items:
            if not isinstance(item, Layer) or id(item) in self.seen:
                continue
            name = snake(type(item).__name__)
            used[name] = used.get(name, -1) + 1
            self.layer(item, f"{prefix}{name if used[name] == 0 else f'{name}_{used[name]}'}/")


def _walk(model, with_optimizer) -> _Walk:
    walk = _Walk(with_optimizer)
    walk.layer(model, "")
    return walk


def weight_paths(model, with_optimizer=False) -> dict:
    return _walk(model, with_optimizer).variables


def _weights_file(model, with_optimizer) -> bytes:
    """The weights as Keras writes them: an HDF5 file of ``<path>/vars/<i>`` datasets, each
    ``vars`` group named after its object."""
    walk = _walk(model, with_optimizer)
    flat = {path: v.numpy() for path, v in walk.variables.items()}
    tree = hdf5.nest(flat)
    for group in walk.owners:
        node = tree
        for part in group.split("/"):
            node = node.setdefault(part, {})
    attrs = {group: {"name": owner.name} for group, owner in walk.owners.items()}
    return hdf5.write(tree, attrs)


def _stored(data: bytes, where: str) -> dict:
    """``{path: array}`` of a weights file: HDF5 (Keras's or devtrace's), or the ``.npz`` devtrace
    wrote before."""
    if data[:8] == hdf5.SIGNATURE:
        try:
            return hdf5.flatten(hdf5.read(data))
        except hdf5.HDF5Error as e:
            raise NotImplementedError(f"{e} ({where})") from None
    with np.load(io.BytesIO(data)) as stored:
        return {k: stored[k] for k in stored.files}


def _read_weights(model, data: bytes, where: str, with_optimizer=False) -> None:
    values = _stored(data, where)
    if values and all(k.startswith("arr_") for k in values):  # devtrace's first files: the weights in order
        model.set_weights([values[f"arr_{i}"] for i in range(len(values))])
        return
    optimizer = getattr(model, "optimizer", None)
    if with_optimizer and optimizer is not None and any(k.startswith("optimizer/") for k in values):
        optimizer.build(model.trainable_weights)
    walk = _walk(model, with_optimizer)
    failed = []
    for group, owner in walk.owners.items():
        expected = [p for p in walk.variables if p.rsplit("/", 1)[0] == group]
        given = [k for k in values if k.rsplit("/", 1)[0] == group]
        if len(expected) != len(given) and (expected or given) and not (owner is optimizer and not given):
            if owner is optimizer:  # Keras's optimizer warns and keeps its state (a LossScaleOptimizer's saved)
                warnings.warn(f"Skipping variable loading for optimizer '{owner.name}', because it has "
                              f"{len(expected)} variables whereas the saved optimizer has {len(given)} variables. ",
                              stacklevel=2)
                continue
            failed.append((owner, f"Layer '{owner.name}' expected {len(expected)} variables, but received "
                                  f"{len(given)} variables during loading. Expected: "
                                  f"{[getattr(walk.variables[p], 'name', p) for p in expected]}"))
            continue
        for path in expected:
            var, value = walk.variables[path], values.get(path)
            if value is None:
                continue
            if tuple(var.shape) != value.shape:
                failed.append((owner, "The shape of the target variable and the shape of the target value in "
                                      "`variable.assign(value)` must match. "
                                      f"variable.shape={tuple(var.shape)}, Received: value.shape={value.shape}. "
                                      f"Target variable: {var!r}"))
                break
            var.assign(value.astype(var.dtype.np))
    if failed:
        owners = []
        for owner, _ in failed:
            if all(owner is not o for o in owners):
                owners.append(owner)
        raise ValueError(f"A total of {len(owners)} objects could not be loaded. Example error message for object "
                         f"{owners[0]!r}:\n\n{failed[0][1]}\n\nList of objects that could not be loaded:\n{owners}")


def _check_weights_path(filepath) -> None:
    if not str(filepath).endswith(".weights.h5"):
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")


def save_weights(model, filepath, overwrite=True, max_shard_size=None):
    _check_weights_path(filepath)
    if max_shard_size is not None:
        raise NotImplementedError("devtrace does not implement Model.save_weights(max_shard_size=...) yet")
    if not overwrite and os.path.exists(filepath):
        raise NotImplementedError("devtrace does not implement Model.save_weights(overwrite=False) yet")
    with open(filepath, "wb") as f:
        f.write(_weights_file(model, with_optimizer=True))


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    from . import keywords

    objects_to_skip, by_name = kwargs.pop("objects_to_skip", None), kwargs.pop("by_name", None)
    if kwargs:
        raise ValueError(f"Invalid keyword arguments: {kwargs}")
    filepath = str(filepath)
    if filepath.endswith(".keras"):
        with zipfile.ZipFile(filepath) as z:
            _read_weights(model, _zip_weights(z, filepath), filepath)
        return
    if legacy_h5.is_legacy(filepath) and not by_name and not skip_mismatch:
        legacy_h5.load(model, filepath)
        return
    _check_weights_path(filepath)
    if by_name is not None:
        raise ValueError(f"`by_name` only supports loading legacy '.h5' or '.hdf5' files. Received: {filepath}")
    keywords.unimplemented("Model.load_weights", skip_mismatch=(skip_mismatch, False),
                           objects_to_skip=(objects_to_skip, None))
    with open(filepath, "rb") as f:
        _read_weights(model, f.read(), filepath, with_optimizer=True)


# -- the whole model ---------------------------------------------------------------------------------
def compile_config(model) -> dict:
    if not getattr(model, "compiled", False):
        return {}
    compiled = model._compile_metrics
    metrics, weighted = (compiled._identifiers, compiled._weighted_identifiers) if compiled is not None else (None, None)
    optimizer = getattr(model, "_compiled_optimizer", model.optimizer)  # compile's argument (before its wrapping)
    return {"optimizer": serialize_keras_object(optimizer), "loss": serialize_keras_object(model._compiled_loss),
            "loss_weights": serialize_keras_object(getattr(model, "_compiled_loss_weights", None)),
            "metrics": serialize_keras_object(metrics),
            "weighted_metrics": serialize_keras_object(weighted),
            "run_eagerly": model.run_eagerly, "steps_per_execution": 1, "jit_compile": False}


def model_config(model) -> dict:
    config = serialize_keras_object(model)
    config["compile_config"] = compile_config(model)
    return config


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    filepath = str(filepath)
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs)}")
    if filepath.endswith((".h5", ".hdf5")):
        raise NotImplementedError("devtrace does not implement saving to the legacy HDF5 format ('.h5') yet: "
                                  "save to a '.keras' file")
    if not filepath.endswith(".keras"):
        raise ValueError("Invalid filepath extension for saving. Please add either a `.keras` extension for the "
                         "native Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if "
                         "you want to export a SavedModel for use with TFLite/TFServing/etc. "
                         f"Received: filepath={filepath}.")
    if zipped is False:
        raise NotImplementedError("devtrace does not implement Model.save(zipped=False) yet")
    if not overwrite and os.path.exists(filepath):
        raise NotImplementedError("devtrace does not implement Model.save(overwrite=False) yet")
    metadata = {"keras_version": KERAS_VERSION, "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    weights = _weights_file(model, with_optimizer=True)
    with zipfile.ZipFile(filepath, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr("metadata.json", json.dumps(metadata))
        z.writestr("config.json", json.dumps(model_config(model)))
        z.writestr(WEIGHTS_NAME, weights)


def _zip_weights(z, filepath) -> bytes:
    names = z.namelist()
    for name in (WEIGHTS_NAME, LEGACY_WEIGHTS_NAME):
        if name in names:
            return z.read(name)
    raise ValueError(f"No weights in {filepath}")


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002 (Keras's keyword)
    filepath = str(filepath)
    if filepath.endswith((".h5", ".hdf5")) and os.path.exists(filepath):
        raise NotImplementedError("devtrace does not implement loading the legacy HDF5 format ('.h5') yet")
    if not filepath.endswith(".keras"):
        raise ValueError(f"File format not supported: filepath={filepath}. Keras 3 only supports V3 `.keras` files, "
                         "legacy H5 format files (`.h5` extension). Note that the legacy SavedModel format is not "
                         "supported by `load_model()` in Keras 3. In order to reload a TensorFlow SavedModel as an "
                         "inference-only layer in Keras 3, use `keras.layers.TFSMLayer("
                         f"{filepath}, call_endpoint='serving_default')` (note that your `call_endpoint` might have "
                         "a different name).")
    if not zipfile.is_zipfile(filepath):
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an accessible `.keras` "
                         "zip file.")
    with zipfile.ZipFile(filepath) as z:
        config = json.loads(z.read("config.json"))
        weights = _zip_weights(z, filepath)
    model = from_model_config(config, custom_objects, compile)
    _read_weights(model, weights, filepath, with_optimizer=compile and getattr(model, "compiled", False))
    return model


def from_model_config(config, custom_objects=None, compile=True):  # noqa: A002
    compiled = config.pop("compile_config", None) if isinstance(config, dict) else None
    with CustomObjectScope(custom_objects or {}):
        try:
            model = deserialize_keras_object(config, custom_objects)
        except TypeError as e:
            if str(e).startswith("Could not locate") or "could not be deserialized properly" in str(e):
                raise TypeError(f"<class '{_class_path(config)}'> could not be deserialized properly. Please ensure "
                                "that components that are Python object instances (layers, models, etc.) returned "
                                "by `get_config()` are explicitly deserialized in the model's `from_config()` "
                                f"method.\n\nconfig={config}.\n\nException encountered: {e}") from None
            raise
        if compile and compiled:
            model.compile(optimizer=_objects(compiled["optimizer"]), loss=_objects(compiled["loss"]),
                          metrics=_objects(compiled["metrics"]),
                          weighted_metrics=_objects(compiled.get("weighted_metrics")),
                          run_eagerly=compiled.get("run_eagerly", False))
    return model


def _objects(value):
    """A compile argument: names stay names (``compile`` resolves them), serialized objects are made."""
    if isinstance(value, list):
        return [_objects(v) for v in value]
    return deserialize_keras_object(value) if isinstance(value, dict) else value


def _class_path(config) -> str:
    name = config.get("class_name", "Model")
    return {"Sequential": "keras.src.models.sequential.Sequential",
            "Functional": "keras.src.models.functional.Functional"}.get(name, name)


def to_json(model, **kwargs) -> str:
    return json.dumps(serialize_keras_object(model), **kwargs)


def model_from_json(json_string, custom_objects=None):
    return from_model_config(json.loads(json_string), custom_objects, compile=False)


__all__ = ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object", "get_custom_objects",
           "get_registered_name", "get_registered_object", "load_model", "load_weights",
           "register_keras_serializable", "save_model", "save_weights", "serialize_keras_object"]
__getattr__ = _missing("keras.saving")  # standalone Keras's keras.saving (tf.keras has none)
