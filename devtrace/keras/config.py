"""``keras.config``: the backend (always TensorFlow here), ``epsilon`` (read by the losses), and
``floatx``/``image_data_format``/the dtype policy. ``floatx`` and ``image_data_format`` take any value
Keras takes; devtrace's layers keep Keras's defaults (``float32``, ``channels_last``), so a layer
made while another is set fails naming the setting (``check_layer``), never silently ignoring it."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

from ..generated.keras_layer_args import ARGS

_DEFAULTS = {"epsilon": 1e-7, "floatx": "float32", "image_data_format": "channels_last"}
_state = dict(_DEFAULTS)
_traceback_filtering = [True]


def reset() -> None:
    """Keras's defaults, as a new process has them (no dtype policy set)."""
    _state.clear()
    _state.update(_DEFAULTS)
    _traceback_filtering[0] = True


def backend():
    return "tensorflow"


def epsilon():
    return _state["epsilon"]


def set_epsilon(value):
    _state["epsilon"] = float(value)


def floatx():
    return _state["floatx"]


def set_floatx(value):
    accepted = {"bfloat16", "float16", "float32", "float64"}
    if value not in accepted:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {accepted}")
    _state["floatx"] = str(value)


def image_data_format():
    return _state["image_data_format"]


def set_image_data_format(data_format):
    data_format = str(data_format).lower()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    _state["image_data_format"] = data_format


def enable_traceback_filtering():
    _traceback_filtering[0] = True


def disable_traceback_filtering():
    """Keras then leaves a layer's error as raised (no "Exception encountered when calling" text)."""
    _traceback_filtering[0] = False


def is_traceback_filtering_enabled():
    return _traceback_filtering[0]


def check_layer(layer, arguments: dict) -> None:
    """A layer made under a ``floatx`` or ``image_data_format`` devtrace's layers do not follow."""
    name = type(layer).__name__
    if _state["floatx"] != "float32" and arguments.get("dtype") is None:
        raise NotImplementedError(f"devtrace does not implement keras.layers.{name} under "
                                  f"keras.config.set_floatx({_state['floatx']!r}) yet")
    if _state["image_data_format"] != "channels_last" and arguments.get("data_format") is None \
            and "data_format" in ARGS.get(name, ()):  # Keras's layer reads the setting (its data_format=None)
        raise NotImplementedError(f"devtrace does not implement keras.layers.{name} under "
                                  f"keras.config.set_image_data_format({_state['image_data_format']!r}) yet")


_policy_class: list = []  # dtype_policies.DTypePolicy, registered as that module loads (it imports this one)


def register_policy_class(cls) -> None:
    _policy_class[:] = [cls]


def set_dtype_policy(policy):
    """The global dtype policy: a ``DTypePolicy`` or its name (``"mixed_float16"``)."""
    cls = _policy_class[0]
    if not isinstance(policy, cls):
        if not isinstance(policy, str):
            raise ValueError(f"Invalid `policy` argument. Expected the string name of a policy (such as "
                             f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy} "
                             f"(of type {type(policy)})")
        policy = cls(policy)
    _state["dtype_policy"] = policy


def dtype_policy():
    """The global dtype policy: the one set, else ``floatx``'s as it is at the first call (Keras's)."""
    if _state.get("dtype_policy") is None:
        _state["dtype_policy"] = _policy_class[0](floatx())
    return _state["dtype_policy"]


__all__ = ["backend", "disable_traceback_filtering", "dtype_policy", "enable_traceback_filtering", "epsilon", "floatx",
           "image_data_format", "is_traceback_filtering_enabled", "set_dtype_policy", "set_epsilon", "set_floatx",
           "set_image_data_format"]
__getattr__ = _missing("keras.config")
