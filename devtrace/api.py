"""Namespaces of the public API that group functions as TensorFlow does
(``devtrace.debugging``, ``devtrace.random`` …)."""

from __future__ import annotations

from types import SimpleNamespace

from .runtime import ops, placement

debugging = SimpleNamespace(set_log_device_placement=placement.set_log_device_placement,
                            get_log_device_placement=placement.get_log_device_placement)
random = SimpleNamespace(uniform=ops.uniform)
strings = SimpleNamespace(as_string=ops.as_string)


def __getattr__(name):
    if name == "compat":
        from .runtime import compat

        return compat
    if name == "distribute":
        from .runtime import distribute

        return distribute
    raise AttributeError(name)
