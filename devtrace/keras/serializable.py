"""Keras objects' configs: each object remembers the arguments it was constructed with (Keras 3's
``Layer.__new__`` auto-config does the same), which ``get_config`` returns (with the name,
``trainable`` and dtype policy Keras adds) and ``from_config`` passes back to the constructor.
``serialize``/``deserialize`` are ``keras.saving.serialize_keras_object`` and its inverse, with
Keras's registry of custom objects (``register_keras_serializable``, ``custom_object_scope``)."""

from __future__ import annotations

import importlib
import inspect
import threading
import types

import numpy as np

import devtrace as tf

_GLOBAL: dict = {}  # registered name ("package>Name") -> class or function
_NAMES: dict = {}  # class or function -> registered name
_SCOPE = threading.local()


class Configurable:
    """A mixin: ``__new__`` keeps the constructor's arguments for ``get_config``."""

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        object.__setattr__(obj, "_init_arguments", (args, dict(kwargs)))
        return obj

    def get_config(self) -> dict:
        return init_config(self)

    @classmethod
    def from_config(cls, config):
        """``cls(**config)``; a key the constructor does not take is dropped when it is ``None``
        (a newer Keras's config names options at their defaults), and fails naming itself otherwise."""
        params = inspect.signature(cls.__init__).parameters
        takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
        config = {k: v for k, v in config.items() if takes_any or k in params or v is not None}
        return cls(**{k: deserialize(v) if is_serialized(v) else v for k, v in config.items()})


def record(obj, args, kwargs):
    object.__setattr__(obj, "_init_arguments", (args, dict(kwargs)))
    return obj


def init_config(obj) -> dict:
    """The constructor's arguments by name (its defaults filled in), serialized."""
    args, kwargs = obj.__dict__.get("_init_arguments", ((), {}))
    init = type(obj).__init__
    try:
        signature = inspect.signature(init)
        bound = signature.bind(obj, *args, **kwargs)
    except (TypeError, ValueError):
        return {k: serialize(v) for k, v in kwargs.items()}
    bound.apply_defaults()
    config = {}
    for name, param in list(signature.parameters.items())[1:]:
        if param.kind is param.VAR_KEYWORD:
            config.update(bound.arguments.get(name, {}))
        elif param.kind is not param.VAR_POSITIONAL:
            config[name] = bound.arguments[name]
    return {k: serialize(v) for k, v in config.items()}


def is_serialized(value) -> bool:
    return isinstance(value, dict) and "class_name" in value and "config" in value


# -- the registry ---------------------------------------------------------------------------------
def register_keras_serializable(package="Custom", name=None):
    """The decorator: the class or function known as ``package>name`` to ``deserialize``."""

    def decorator(arg):
        class_name = name if name is not None else arg.__name__
        registered = f"{package}>{class_name}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _GLOBAL[registered] = arg
        _NAMES[arg] = registered
        return arg

    return decorator


def get_registered_name(obj) -> str:
    return _NAMES.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name, custom_objects=None, module_objects=None):
    for table in (_scoped(), _GLOBAL, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


def get_custom_objects() -> dict:
    """The global registry (a dict a program may add to, as Keras's)."""
    return _GLOBAL


def _scoped() -> dict:
    merged: dict = {}
    for scope in getattr(_SCOPE, "stack", []):
        merged.update(scope)
    return merged


class CustomObjectScope:
    """``with custom_object_scope({"name": obj}):`` — names ``deserialize`` resolves inside."""

    def __init__(self, custom_objects):
        self.custom_objects = custom_objects or {}

    def __enter__(self):
        _SCOPE.__dict__.setdefault("stack", []).append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _SCOPE.stack.pop()


custom_object_scope = CustomObjectScope


# -- serialize ------------------------------------------------------------------------------------
def _builtin_module(obj) -> str | None:
    """Keras's public module of a devtrace Keras object (``keras.layers``), else None (a custom one)."""
    module = getattr(obj, "__module__", "") or ""
    if not module.startswith("devtrace.keras"):
        return None
    part = module.split(".")[2] if module.count(".") >= 2 else ""
    if part.startswith("layers") or part in ("engine",):
        return "keras.layers"
    if part in ("models", "training", "tf_trainer"):
        return "keras.models"
    return {"initializers": "keras.initializers", "regularizers": "keras.regularizers", "losses": "keras.losses",
            "metrics": "keras.metrics", "optimizers": "keras.optimizers", "activations": "keras.activations",
            "callbacks": "keras.callbacks", "schedules": "keras.optimizers.schedules",
            "constraints": "keras.constraints"}.get(part, "keras")


_AS_KERAS = {"Sequential": ("keras", None), "Functional": ("keras.src.models.functional", "Functional")}


def serialize(obj):
    """``keras.saving.serialize_keras_object``: plain values as they are, objects as
    ``{"module", "class_name", "config", "registered_name"}`` (layers with their ``build_config``)."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (list, tuple)):
        return type(obj)(serialize(v) for v in obj) if type(obj) in (list, tuple) else [serialize(v) for v in obj]
    if isinstance(obj, dict):
        return {k: serialize(v) for k, v in obj.items()}
    if isinstance(obj, tf.DType):
        return obj.name
    if isinstance(obj, np.ndarray):
        return {"class_name": "__numpy__", "config": {"value": obj.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
        registered = _NAMES.get(obj)
        if registered is None and _builtin_module(obj) is not None:
            return obj.__name__
        return {"module": "builtins", "class_name": "function", "config": registered or obj.__name__,
                "registered_name": "function"}  # Keras 3.15: a registered function's name in its config
    if inspect.isclass(obj):
        return {"class_name": "__type__", "config": {"value": obj.__name__}}
    module = _builtin_module(type(obj))
    registered = _NAMES.get(type(obj))
    registered = registered if registered else (None if module else type(obj).__name__)
    if module is not None and type(obj).__name__ in _AS_KERAS:  # where Keras's own files say these live
        module, registered = _AS_KERAS[type(obj).__name__]
    out = {"module": module, "class_name": type(obj).__name__, "config": obj.get_config(),
           "registered_name": registered}
    build = getattr(obj, "_build_shape", None)
    if getattr(obj, "built", False) and build is not None and not _is_input_layer(obj):
        out["build_config"] = {"input_shape": serialize(_batchless(build))}
    return out


def _is_input_layer(obj) -> bool:
    return type(obj).__name__ == "InputLayer"


def _batchless(shape):
    if isinstance(shape, list):
        return [_batchless(s) for s in shape]
    return [None] + list(shape[1:]) if shape else shape


# -- deserialize ----------------------------------------------------------------------------------
def _keras_module(name):
    """A devtrace Keras module by name, looked up when a config is read (these modules import this one)."""
    return importlib.import_module(f"devtrace.keras.{name}")


_SEARCHED = {"keras.layers": ["layers", "models"], "keras.models": ["models", "layers"],
             "keras.initializers": ["initializers"], "keras.regularizers": ["regularizers"], "keras.losses": ["losses"],
             "keras.metrics": ["metrics"], "keras.optimizers": ["optimizers"], "keras.activations": ["activations"],
             "keras.callbacks": ["callbacks"], "keras.optimizers.schedules": ["schedules"],
             "keras.constraints": ["constraints"]}


def _builtin(class_name, module):
    for name in _SEARCHED.get(module, []) + ["layers", "models", "optimizers", "losses", "metrics", "initializers",
                                             "regularizers", "activations", "constraints"]:
        found = _keras_module(name).__dict__.get(class_name)
        if found is not None:
            return found
    return None


def _could_not_locate(name, config):
    return TypeError(f"Could not locate class '{name}'. Make sure custom classes and functions are decorated with "
                     "`@keras.saving.register_keras_serializable()`. If they are already decorated, make sure they "
                     "are all imported so that the decorator is run before trying to load them. Full object config: "
                     f"{config}")


def deserialize(config, custom_objects=None, safe_mode=True):
    """``keras.saving.deserialize_keras_object``."""
    custom_objects = custom_objects or {}
    if config is None or isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, (list, tuple)):
        return [deserialize(v, custom_objects) for v in config]
    if isinstance(config, str):
        found = get_registered_object(config, custom_objects)
        if found is not None:
            return found
        for name in ("activations", "losses"):
            fn = _keras_module(name).__dict__.get(config)
            if callable(fn) and not inspect.isclass(fn):
                return fn
        return config
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if not is_serialized(config):
        return {k: deserialize(v, custom_objects) for k, v in config.items()}
    class_name, inner = config["class_name"], config["config"]
    if class_name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "function":
        name = config.get("registered_name") or inner
        fn = get_registered_object(name, custom_objects) or get_registered_object(inner, custom_objects)
        if fn is None:
            fn = deserialize(inner, custom_objects)
            if isinstance(fn, str):
                raise _could_not_locate(inner, config)
        return fn
    if class_name == "DTypePolicy":
        return inner.get("name", "float32")
    registered = config.get("registered_name")
    cls = (get_registered_object(registered, custom_objects) if registered else None) \
        or get_registered_object(class_name, custom_objects)
    if cls is None and config.get("module") is not None:
        cls = _builtin(class_name, config.get("module"))
    if cls is None:
        raise _could_not_locate(registered or class_name, config)
    with CustomObjectScope(custom_objects):
        obj = cls.from_config(inner)
    build = config.get("build_config")
    if build is not None and not getattr(obj, "built", True):
        build_from_config(obj, build)
    return obj


def build_from_config(obj, build_config) -> None:
    """A layer built for ``input_shape`` (so its weights exist to be loaded): a model by a call on
    zeros, other layers by ``build``."""
    shape = build_config.get("input_shape")
    if shape is None:
        return
    if hasattr(obj, "compile"):  # a model: built by a call
        obj(_zeros(shape))
        return
    shape = tuple(shape) if not (shape and isinstance(shape[0], list)) else [tuple(s) for s in shape]
    obj._maybe_build(shape)


def _zeros(shape):
    if shape and isinstance(shape[0], (list, tuple)):
        return [_zeros(s) for s in shape]
    return tf.zeros([1 if d is None else d for d in shape])


def dtype_policy(name="float32") -> dict:
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": name}, "registered_name": None}
