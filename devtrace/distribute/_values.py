"""``tf.distribute``'s distributed values: one value per replica (``PerReplica``, ``Mirrored``),
and how per-replica arguments are picked and results regrouped (TensorFlow's ``values.py`` and
``distribute_utils.select_replica`` / ``regroup``)."""

from __future__ import annotations


class DistributedValues:
    """One value per replica; prints as TensorFlow's ``PerReplica:{ 0: …, 1: … }``."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self) -> tuple:
        return self._values

    def _listing(self, texts) -> str:
        body = ",\n".join(f"  {i}: {t}" for i, t in enumerate(texts))
        return f"{type(self).__name__}:{{\n{body}\n}}"

    def __repr__(self):
        return self._listing(map(repr, self._values))

    def __str__(self):
        return self._listing(map(str, self._values))


class _Composite:
    """What a tf.function traces as the composite of its tensors it is to TensorFlow (the protocol
    of extension types the function reads: ``_nest_flat``, ``_type_spec``); not a mirrored
    variable, which the function sees as a variable."""

    _tf_extension_type_fields = ()

    def _nest_flat(self) -> list:
        return list(self._values)

    _nest_components = _nest_flat

    @property
    def _type_spec(self):
        from ..polymorphic_function.function import TensorSpec

        return PerReplicaSpec(*[TensorSpec(v.shape, v.dtype) for v in self._values], value_type=type(self))


class PerReplica(_Composite, DistributedValues):
    """A different value on each replica: what ``run`` returns, and a per-replica input to it."""


class Mirrored(_Composite, DistributedValues):
    """The same value on each replica."""


class PerReplicaSpec:
    """The type of a ``PerReplica`` value: one spec per replica."""

    def __init__(self, *value_specs, value_type=None):
        self._value_specs = tuple(value_specs)
        self._value_type = value_type

    @property
    def value_type(self):
        return self._value_type or PerReplica

    def _key(self) -> tuple:
        return (self.value_type.__name__, tuple(s._key() for s in self._value_specs))

    def _flat_specs(self) -> list:
        return list(self._value_specs)

    def _from_flat(self, parts):
        return self.value_type(parts)

    def __eq__(self, other):
        return isinstance(other, PerReplicaSpec) and self._value_specs == other._value_specs

    __hash__ = None

    def __repr__(self):
        return f"PerReplicaSpec({', '.join(repr(s) for s in self._value_specs)})"


def select(i, value):
    """``distribute_utils.select_replica``: replica ``i``'s component of each per-replica value."""
    if isinstance(value, PerReplica):
        return value.values[i]
    if isinstance(value, (tuple, list)):
        return type(value)(select(i, v) for v in value)
    if isinstance(value, dict):
        return {k: select(i, v) for k, v in value.items()}
    return value


def regroup(values):
    """``distribute_utils.regroup``: per-replica results as ``PerReplica`` leaves (one result
    shared by every replica — e.g. with a single replica — comes back unwrapped)."""
    first = values[0]
    if all(v is first for v in values):
        return first
    if isinstance(first, (tuple, list)) and all(type(v) is type(first) and len(v) == len(first) for v in values):
        return type(first)(regroup([v[k] for v in values]) for k in range(len(first)))
    if isinstance(first, dict) and all(isinstance(v, dict) and v.keys() == first.keys() for v in values):
        return {k: regroup([v[k] for v in values]) for k in first}
    return PerReplica(values)
