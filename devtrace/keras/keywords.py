"""Keyword arguments are never swallowed: one Keras takes and devtrace does not implement fails
naming it (``devtrace does not implement Model.compile(jit_compile=...) yet``) — unless it is given
its default, which changes nothing — and one Keras itself rejects fails with Keras's text
(``Unrecognized keyword arguments passed to Dense: {'foo': 1}``; ``keras_layer_args`` holds
Keras 3.15's layer keywords)."""

from __future__ import annotations

from ..generated.keras_layer_args import ARGS, OBJECT, REQUIRED


def _is_default(value, defaults) -> bool:
    for default in defaults if isinstance(defaults, tuple) and defaults != () else (defaults,):
        if value is default:
            return True
        try:
            if type(value) is type(default) and bool(value == default):
                return True
        except (TypeError, ValueError):  # an array: not a default
            continue
    return False


def unimplemented(where: str, **given) -> None:
    """``given``: ``{keyword: (value, its default or a tuple of defaults)}``."""
    for name, (value, defaults) in given.items():
        if not _is_default(value, defaults):
            raise NotImplementedError(f"devtrace does not implement {where}({name}=...) yet")


def keras_class(layer) -> str:
    """The Keras layer class a layer is (or derives from): its constructor's keywords are Keras's."""
    for cls in type(layer).__mro__:
        if cls.__module__.startswith("devtrace.keras") and cls.__name__ in ARGS:
            return cls.__name__
    return "Layer"


_SAME = {"data_format": ("channels_last",)}  # what a Keras default of None means, in devtrace's layers


def _layer_default(name, value, default) -> bool:
    if default is REQUIRED or default is OBJECT:
        return False
    if isinstance(default, int) and isinstance(value, (tuple, list)) and value and all(v == default for v in value):
        return True  # dilation_rate=(1, 1) is dilation_rate=1
    return _is_default(value, (default,) + _SAME.get(name, ()))


def check_layer(layer, kwargs: dict) -> None:
    """The keywords a layer's constructor passed on to ``Layer.__init__`` without using them."""
    known = ARGS[keras_class(layer)]
    unknown = {k: v for k, v in kwargs.items() if k not in known}
    if unknown:
        raise ValueError(f"Unrecognized keyword arguments passed to {type(layer).__name__}: {unknown}")
    for name, value in kwargs.items():
        if not _layer_default(name, value, known[name]):
            raise NotImplementedError(f"devtrace does not implement keras.layers.{keras_class(layer)}({name}=...) yet")
