"""``keras.config``: the backend (always TensorFlow here), ``epsilon`` (read by the losses), and
``floatx``/``image_data_format``/the dtype policy, which devtrace's layers keep at Keras's defaults
(``float32``, ``channels_last``): setting another value fails naming it."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

from . import keywords

_DEFAULTS = {"epsilon": 1e-7}
_state = dict(_DEFAULTS)


def reset() -> None:
    """Keras's defaults, as a new process has them."""
    _state.clear()
    _state.update(_DEFAULTS)


def backend():
    return "tensorflow"


def epsilon():
    return _state["epsilon"]


def set_epsilon(value):
    _state["epsilon"] = float(value)


def floatx():
    return "float32"


def set_floatx(value):
    keywords.unimplemented("keras.config.set_floatx", value=(value, "float32"))


def image_data_format():
    return "channels_last"


def set_image_data_format(data_format):
    keywords.unimplemented("keras.config.set_image_data_format", data_format=(data_format, "channels_last"))


def set_dtype_policy(policy):
    keywords.unimplemented("keras.config.set_dtype_policy", policy=(policy, "float32"))


__all__ = ["backend", "epsilon", "floatx", "image_data_format", "set_dtype_policy", "set_epsilon", "set_floatx",
           "set_image_data_format"]
__getattr__ = _missing("keras.config")
