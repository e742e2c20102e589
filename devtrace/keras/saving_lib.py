"""``keras.saving``: ``model.save("x.keras")`` / ``load_model``, ``save_weights`` / ``load_weights``.

A ``.keras`` file is Keras 3's zip (stored, not compressed): ``metadata.json`` (Keras's version and
the date), ``config.json`` (the model's serialized config, with its ``compile_config``) and the
weights. Keras writes the weights as HDF5 (``model.weights.h5``) through h5py, which devtrace does
not depend on: devtrace writes them as NumPy's ``.npz`` (``model.weights.npz`` in the zip; a
``.weights.h5`` file of ``save_weights`` holds the same ``.npz`` under the name Keras requires),
keyed by Keras's paths (``layers/dense/vars/0``, ``optimizer/vars/1``). A weights file Keras wrote
(HDF5) fails to load in one line saying so."""

from __future__ import annotations

import datetime
import io
import json
import os
import zipfile

import numpy as np

from devtrace.util.namespace import missing as _missing

from .serializable import (CustomObjectScope, custom_object_scope, deserialize as deserialize_keras_object,  # noqa: F401
                           get_custom_objects, get_registered_name, get_registered_object,
                           register_keras_serializable, serialize as serialize_keras_object)

KERAS_VERSION = "3.15.1"
WEIGHTS_NAME = "model.weights.npz"
_HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"


# -- the weights and their paths --------------------------------------------------------------------
def _layer_variables(layer, prefix, out) -> None:
    """Keras's ``_save_state`` walk: a layer's own variables under ``vars``, its sublayers under
    ``layers/<snake class name>`` (``dense``, ``dense_1`` … in order)."""
    from .engine import snake

    own = list(getattr(layer, "_layer_weights", ()))
    for i, v in enumerate(own):
        out[f"{prefix}vars/{i}"] = v
    used: dict = {}
    for sub in _sublayers(layer):
        name = snake(type(sub).__name__)
        used[name] = used.get(name, -1) + 1
        key = name if used[name] == 0 else f"{name}_{used[name]}"
        _layer_variables(sub, f"{prefix}layers/{key}/", out)


def _sublayers(layer) -> list:
    from .engine import InputLayer

    if hasattr(layer, "_stack") or getattr(layer, "_operations", None):
        return [x for x in layer.layers if not isinstance(x, InputLayer)]
    from .engine import Layer

    return [v for v in vars(layer).values() if isinstance(v, Layer) and v is not layer]


def weight_paths(model, with_optimizer=False) -> dict:
    out: dict = {}
    _layer_variables(model, "", out)
    optimizer = getattr(model, "optimizer", None)
    if with_optimizer and optimizer is not None and getattr(optimizer, "built", False):
        for i, v in enumerate(optimizer.variables):
            out[f"optimizer/vars/{i}"] = v
    return out


def _write_weights(model, f, with_optimizer) -> None:
    np.savez(f, **{path: v.numpy() for path, v in weight_paths(model, with_optimizer).items()})


def _not_hdf5(data: bytes, where: str) -> None:
    if data[:8] == _HDF5_MAGIC:
        raise NotImplementedError(f"devtrace does not implement reading HDF5 weights ({where}, written by Keras "
                                  "through h5py) yet: it reads the weights devtrace writes")


def _read_weights(model, data: bytes, where: str, with_optimizer=False) -> None:
    _not_hdf5(data, where)
    with np.load(io.BytesIO(data)) as stored:
        values = {k: stored[k] for k in stored.files}
    if values and all(k.startswith("arr_") for k in values):  # devtrace's earlier files: the weights in order
        model.set_weights([values[f"arr_{i}"] for i in range(len(values))])
        return
    if with_optimizer and any(k.startswith("optimizer/") for k in values) and model.optimizer is not None:
        model.optimizer.build(model.trainable_weights)
    failed = []
    for path, var in weight_paths(model, with_optimizer).items():
        if path not in values:
            continue
        value = values[path]
        if tuple(var.shape) != value.shape:
            failed.append((path, "The shape of the target variable and the shape of the target value in "
                                 "`variable.assign(value)` must match. "
                                 f"variable.shape={tuple(var.shape)}, Received: value.shape={value.shape}. "
                                 f"Target variable: {var!r}"))
            continue
        var.assign(value.astype(var.dtype.np))
    if failed:
        owners = []
        for path, _ in failed:
            owner = _owner(model, path)
            if all(owner is not o for o in owners):
                owners.append(owner)
        raise ValueError(f"A total of {len(owners)} objects could not be loaded. Example error message for object "
                         f"{owners[0]!r}:\n\n{failed[0][1]}\n\nList of objects that could not be loaded:\n{owners}")


def _owner(model, path):
    """The layer a weight path belongs to."""
    layer = model
    parts = path.split("/")
    while parts and parts[0] == "layers":
        key = parts[1]
        from .engine import snake

        used: dict = {}
        for sub in _sublayers(layer):
            name = snake(type(sub).__name__)
            used[name] = used.get(name, -1) + 1
            if (name if used[name] == 0 else f"{name}_{used[name]}") == key:
                layer = sub
                break
        parts = parts[2:]
    return layer


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
        _write_weights(model, f, with_optimizer=True)


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
    metrics = model._compile_metrics._identifiers if model._compile_metrics is not None else None
    return {"optimizer": serialize_keras_object(model.optimizer), "loss": serialize_keras_object(model._compiled_loss),
            "loss_weights": None, "metrics": serialize_keras_object(metrics), "weighted_metrics": None,
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
    weights = io.BytesIO()
    _write_weights(model, weights, with_optimizer=True)
    with zipfile.ZipFile(filepath, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr("metadata.json", json.dumps(metadata))
        z.writestr("config.json", json.dumps(model_config(model)))
        z.writestr(WEIGHTS_NAME, weights.getvalue())


def _zip_weights(z, filepath) -> bytes:
    names = z.namelist()
    if WEIGHTS_NAME in names:
        return z.read(WEIGHTS_NAME)
    if "model.weights.h5" in names:
        _not_hdf5(z.read("model.weights.h5")[:8], f"model.weights.h5 in {filepath}")
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
