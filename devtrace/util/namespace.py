"""``tf.X`` namespaces: attribute bags whose missing names say that devtrace lacks them.

A name TensorFlow 2.21 has and devtrace does not implement raises ``AttributeError("devtrace does
not implement tf.math.X yet")``, so a program learns what is missing and ``hasattr`` checks keep
working; a name TensorFlow does not have either raises TensorFlow's own error (``module
'tensorflow._api.v2.math' has no attribute 'X'``). TensorFlow's names are in ``tf_api_names``.
"""

from types import SimpleNamespace

_INDEX: dict = {}  # namespace → (its TensorFlow module's name, frozenset of its names), built on first use


def _tensorflow_names(prefix: str):
    """``(module name, names)`` of TensorFlow's namespace ``prefix`` (``""``: ``tf``), or ``None``.
    A namespace that is another's module again (``keras``, ``compat.v1.keras``) reads the first's."""
    from ..generated.tf_api_names import NAMES

    if not _INDEX:
        _INDEX.update({path: (module, frozenset(names.split())) for path, (module, names) in NAMES.items() if names})
        _INDEX["<paths>"] = {module: path for path, (module, names) in NAMES.items() if names}
    parts = prefix.split(".")
    for i in range(len(parts), 0, -1):
        head = ".".join(parts[:i])
        if head in NAMES and NAMES[head][1] is None:  # an alias: its module's first path
            prefix = ".".join([_INDEX["<paths>"][NAMES[head][0]]] + parts[i:])
            break
    return _INDEX.get(prefix)


def missing_name(prefix: str, name: str) -> AttributeError:
    """The error ``tf.<prefix>.<name>`` raises when devtrace has no such name."""
    known = _tensorflow_names(prefix)
    if known is not None and name not in known[1]:
        return AttributeError(f"module '{known[0]}' has no attribute '{name}'")
    return AttributeError(f"devtrace does not implement tf.{prefix + '.' if prefix else ''}{name} yet")


# TensorFlow 2.21's tensor and variable attributes devtrace does not implement yet (tests/test_missing_names.py
# checks them against tf_api_names): raising properties, so that the classes keep no __getattr__
# (CPython's attribute reads stay specialised)
LACKING = {"Tensor": ("OVERLOADABLE_OPERATORS", "consumers", "is_packed", "value_index"),
           "Variable": ("SaveSliceInfo", "batch_scatter_update", "create", "eval", "from_proto", "initialized_value",
                        "initializer", "is_initialized", "load", "read_value_no_copy", "set_shape",
                        "to_proto")}


def lacking(kind: str, name: str) -> property:
    """``tf.<kind>.<name>``, which devtrace lacks: reading it says so (``hasattr`` says False)."""
    def fail(self):
        raise AttributeError(f"devtrace does not implement tf.{kind}.{name} yet")
    return property(fail)


def install_lacking(cls, kind: str) -> None:
    for name in LACKING[kind]:
        if name not in vars(cls):
            setattr(cls, name, lacking(kind, name))


_NAMESPACES: list = []  # every namespace made, for ``replace``


class Namespace(SimpleNamespace):
    """``_extras``: devtrace's own names, reachable but left out of ``dir()`` (which lists
    TensorFlow's)."""

    def __init__(self, **names):
        super().__init__(**names)
        _NAMESPACES.append(self)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        extras = self.__dict__.get("_extras", {})
        if name in extras:
            return extras[name]
        raise missing_name(self.__dict__.get("_prefix", "?"), name)


def missing(prefix: str):
    """A module's ``__getattr__`` (PEP 562) with the same message."""
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(f"module {prefix!r} has no attribute {name!r}")
        raise missing_name(prefix, name)
    return __getattr__


def replace(old, new) -> None:
    """Every namespace's ``old`` is ``new`` from now on (an API that dispatch now wraps)."""
    for namespace in _NAMESPACES:
        for name, value in list(vars(namespace).items()):
            if value is old:
                setattr(namespace, name, new)
