"""Keras 3's ``get(identifier)`` of its namespaces (``losses``, ``metrics``, ``initializers``,
``regularizers``, ``constraints``): ``None`` stays ``None``, a string is looked up in the
namespace's table (classes by name and by snake-case name, functions by name, aliases), a dict is
a serialized object, a class is made, any other callable is returned as it is."""

from __future__ import annotations

import inspect


def table(*objects, aliases=None, snake_classes=True) -> dict:
    """A namespace's ``ALL_OBJECTS_DICT``: each class or function by its ``__name__``, classes also
    by their snake-case name (``MaxNorm`` → ``max_norm``), then the aliases."""
    from .naming import snake

    found = {obj.__name__: obj for obj in objects}
    if snake_classes:
        found.update({snake(obj.__name__): obj for obj in objects if inspect.isclass(obj)})
    found.update(aliases or {})
    return found


def from_dict(config, objects: dict):
    """A serialized object whose class is the namespace's (or a registered custom one), else ``None``."""
    from . import serializable

    name = config.get("class_name")
    cls = serializable.get_registered_object(config.get("registered_name") or name) or objects.get(name)
    if not inspect.isclass(cls):
        return None
    return cls.from_config(config.get("config") or {})


def lookup(kind: str, identifier, objects: dict):
    """Keras's ``get``: the object for ``identifier``, or ``ValueError('Could not interpret <kind>
    identifier: …')``."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = from_dict(identifier, objects)
    elif isinstance(identifier, str):
        obj = objects.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret {kind} identifier: {identifier}")
