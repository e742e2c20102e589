"""``tf.Module`` and ``tf.name_scope``: modules track the variables and submodules reachable
from their attributes, as TensorFlow's ``module.py`` does (leaves of a module in sorted
attribute order, then each submodule in turn, each object once)."""

from __future__ import annotations

import functools
import re

from ..runtime.context import context
from ..runtime.eager.variables import Variable
from ..util.reprs import shown_as

_CAMEL = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")


class name_scope:  # noqa: N801 (TensorFlow's name)
    """``with tf.name_scope("outer"):`` — variables created inside are named ``outer/…``. In a
    TF1 graph, the graph's name scope (node names). Eagerly TensorFlow checks no name (``'_x'``,
    ``'a b'`` are fine); a graph checks it on entering (the graph's ``name_scope``)."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match the following "
                             f"pattern: ^[A-Za-z0-9_.\\\\/>-]*$")
        self._name = name
        self._exit = None

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        ctx = context()
        if not ctx.eager:
            self._exit = ctx.graph_builder.name_scope(self._name)
            return self._exit.__enter__()
        self._saved = ctx.name_scope
        scope = self._name if self._name.endswith("/") else (ctx.name_scope + self._name + "/" if self._name else "")
        ctx.name_scope = scope
        return scope

    def __exit__(self, *exc):
        if self._exit is not None:
            scope, self._exit = self._exit, None
            return scope.__exit__(*exc)
        context().name_scope = self._saved
        return False


def _camel_to_snake(name: str) -> str:
    return _CAMEL.sub(r"_\1", name).lower()


def _is_module(obj) -> bool:
    return isinstance(obj, Module)


def _leaves(value):
    """The leaves of a nested attribute value (lists, tuples, dicts by sorted key), as tf.nest."""
    if isinstance(value, dict):
        for key in sorted(value, key=str):
            yield from _leaves(value[key])
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _flatten(module, predicate, recursive=True, seen=None):
    seen = set() if seen is None else seen
    submodules = []
    attributes = vars(module)
    for key in sorted(attributes):
        if key in Module._IGNORED:
            continue
        for leaf in _leaves(attributes[key]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield leaf
            if recursive and _is_module(leaf):
                submodules.append(leaf)
    for submodule in submodules:
        yield from _flatten(submodule, predicate, recursive, seen)


class Module:
    """``tf.Module``: a named container whose variables and submodules are found by walking its
    attributes."""

    _IGNORED = frozenset(("_name", "_scope_name"))

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"'{name}' is not a valid module name. Module names must be valid Python identifiers "
                             f"(e.g. a valid class name).")
        self._name = name
        ctx = context()
        outer = ctx.name_scope if ctx.eager else ""  # TensorFlow's: made inside the name scope it was made in
        self._scope_name = outer + name + "/"

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self) -> name_scope:
        return name_scope(self._scope_name)

    @property
    def variables(self) -> tuple:
        return tuple(_flatten(self, lambda x: isinstance(x, Variable)))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(_flatten(self, lambda x: isinstance(x, Variable) and x.trainable))

    @property
    def non_trainable_variables(self) -> tuple:
        return tuple(_flatten(self, lambda x: isinstance(x, Variable) and not x.trainable))

    @property
    def submodules(self) -> tuple:
        return tuple(_flatten(self, _is_module))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None, with_path=False,
                 expand_composites=False):
        """The values under this module's attributes that ``predicate`` takes (all by default), as
        the TensorFlow guide's ``module._flatten(predicate=...)``."""
        if attribute_traversal_key is not None or with_path or expand_composites:
            raise NotImplementedError("devtrace does not implement tf.Module._flatten(attribute_traversal_key=..., "
                                      "with_path=..., expand_composites=...) yet")
        return _flatten(self, predicate or (lambda _: True), recursive)

    @classmethod
    def with_name_scope(cls, method):
        """Decorate a method to run inside its module's name scope."""
        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped


__all__ = ["Module", "name_scope"]

shown_as(Module, "tensorflow.python.module.module.Module")
