"""``tf.keras.backend``: the session helpers and configuration Keras 3 keeps there
(``clear_session``, ``floatx``, ``epsilon``, ``get_uid`` …); its legacy tensor functions are
not implemented (each fails naming itself)."""

from __future__ import annotations

import gc

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from . import engine
from .config import epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format  # noqa: F401


def backend() -> str:
    return "tensorflow"


def clear_session(free_memory=True):
    """Keras's: the layer-name counters start again (``dense``, ``dense_1`` …) and TensorFlow's
    default graph is new."""
    engine._UIDS.clear()
    tf.compat.v1.reset_default_graph()
    if free_memory:
        gc.collect()


def get_uid(prefix=""):
    """The next number for ``prefix``: 1, 2, … (Keras's ``backend.get_uid``)."""
    name = engine.unique(prefix)
    return 1 if name == prefix else int(name.rsplit("_", 1)[1]) + 1


def is_keras_tensor(x) -> bool:
    return isinstance(x, engine.KerasTensor)


def standardize_dtype(dtype) -> str:
    if dtype is None:
        return floatx()
    if hasattr(dtype, "name") and not isinstance(dtype, str):
        return dtype.name
    return {"float": "float32", "int": "int64", "double": "float64"}.get(str(dtype), str(dtype))


def is_float_dtype(dtype) -> bool:
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype) -> bool:
    return standardize_dtype(dtype).startswith(("int", "uint"))


def int_shape(x):
    return tuple(x.shape) if isinstance(x, engine.KerasTensor) else tuple(tf.convert_to_tensor(x).shape)


__getattr__ = _missing("keras.backend")
