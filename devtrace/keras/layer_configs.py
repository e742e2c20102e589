"""A built-in layer's config as Keras 3 writes it: Keras's ``get_config`` writes the layer's resolved
attributes (initializers, constraints and regularizers as serialized dicts, ``activation=None`` as
``"linear"``, a conv's ``kernel_size=3`` as ``(3, 3)``, ``data_format=None`` as ``"channels_last"``), every
key its class writes (defaults included), in its order; devtrace's layers remember their constructor's
arguments. ``as_keras`` turns the one into the other with Keras 3.15's table of configs."""

from __future__ import annotations

import random

from . import constraints, initializers, keywords, regularizers, serializable

_RESOLVE = (("_initializer", initializers), ("_constraint", constraints), ("_regularizer", regularizers))


def _object(module, value):
    """``module.get(value)`` serialized, without drawing a seed from Python's ``random`` (Keras's
    stored initializer drew its seed when the layer was made)."""
    state = random.getstate()
    try:
        obj = module.get(value)
    finally:
        random.setstate(state)
    return serializable.serialize(obj)


def _value(key, value, keras_value, config):
    if value is None and keras_value is not None:
        if key in ("activation", "recurrent_activation") and keras_value == "linear":
            return "linear"
        if key == "data_format":
            return keras_value
        if key == "strides" and "pool_size" in config:
            return config["pool_size"]
        if key == "value_dim" and "key_dim" in config:
            return config["key_dim"]
    if isinstance(value, str):
        for suffix, module in _RESOLVE:
            if key.endswith(suffix):
                try:
                    return _object(module, value)
                except (ValueError, TypeError):
                    return value
    if isinstance(keras_value, tuple) and all(type(v) is int for v in keras_value) and isinstance(value, (int, list)) and not isinstance(value, bool):
        return tuple(value) if isinstance(value, list) else (value,) * len(keras_value)
    return value


def _pairs(value) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(v, (list, tuple)) for v in value)


def as_keras(layer, config: dict) -> dict:
    """``config`` (devtrace's: name, trainable, dtype, the constructor's arguments) as Keras writes it."""
    from ..generated.keras_layer_configs import CONFIGS  # 7 ms of dicts: read at the first get_config, not at import

    table = CONFIGS.get(keywords.keras_class(layer))
    if table is None:
        return config
    keras = table[1]
    out = {k: config[k] for k in ("name", "trainable", "dtype") if k in config}
    for key, keras_value in keras.items():
        if key in out:
            continue
        own = getattr(layer, key, None)
        if _pairs(keras_value) and _pairs(own):  # ZeroPadding2D's padding: the layer's resolved pairs
            out[key] = tuple(tuple(int(v) for v in pair) for pair in own)
        elif key == "output_padding":  # a transposed convolution's, resolved per dimension
            out[key] = own
        elif _pairs(own) and len(own) == 1 and isinstance(keras_value, tuple):  # Cropping1D's (1, 1)
            out[key] = tuple(int(v) for v in own[0])
        else:
            out[key] = _value(key, config[key], keras_value, out) if key in config else keras_value
    return out
