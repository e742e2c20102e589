"""A ``MirroredStrategy``'s inputs: ``experimental_distribute_dataset`` (each global batch split
across the replicas, as evenly as TensorFlow's rebatching splits it, the first replicas taking
the remainder), ``distribute_datasets_from_function`` (consecutive per-replica batches, an empty
batch for a replica the last round leaves without one) and
``experimental_distribute_values_from_function``. Every replica's part arrives on its device
(one ``_EagerConst`` there; in a ``tf.function``, an ``IteratorGetNext`` on the CPU and an
``Identity`` onto each device); TensorFlow's multi-device iterator ops are not modelled."""

from __future__ import annotations

import numpy as np

from ._devices import host
from ._values import regroup
from ..ops import iterator_ops
from ..ops.array import array_ops
from ..util.nest import flatten, map_structure, pack_sequence_as
from ..runtime.context import context
from ..runtime.scopes import device
from ..runtime.values import constant


class InputContext:
    """``tf.distribute.InputContext``: what ``distribute_datasets_from_function`` passes."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size) -> int:
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size!r} is not divisible by "
                             f"`num_replicas_in_sync` {self.num_replicas_in_sync!r} ")
        return global_batch_size // self.num_replicas_in_sync


class ValueContext:
    """``tf.distribute.experimental.ValueContext``: replica ``i`` of ``n``."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync


class PerReplicaSpec:
    """The type of a ``PerReplica`` value: one spec per replica."""

    def __init__(self, *value_specs):
        self._value_specs = tuple(value_specs)

    def __eq__(self, other):
        return isinstance(other, PerReplicaSpec) and self._value_specs == other._value_specs

    __hash__ = None

    def __repr__(self):
        return f"PerReplicaSpec({', '.join(repr(s) for s in self._value_specs)})"


def replica_spec(element_spec, n: int):
    """A distributed dataset's element spec: each tensor's spec per replica, its batch dim unknown
    (a global batch splits unevenly at the end); one replica's values are plain."""
    def per_replica(spec):
        shape = None if spec.shape.rank is None else (None,) + tuple(spec.shape)[1:]
        one = type(spec)(shape, spec.dtype)
        return one if n == 1 else PerReplicaSpec(*[one] * n)
    return map_structure(per_replica, element_spec)


class DistributedDataset:
    """What ``experimental_distribute_dataset`` returns: iterating gives one ``PerReplica`` (or
    a structure of them) per step."""

    def __init__(self, devices, rounds, element_spec=None):
        self._devices = devices
        self._rounds = rounds  # () -> iterator of [one element (numpy structure) per replica]
        self.element_spec = element_spec

    def __iter__(self):
        return DistributedIterator(self._devices, self._rounds(), self.element_spec)


class DistributedIterator:
    """Eagerly, each ``next`` is a step's values on the replicas' devices; in a ``tf.function``,
    one ``IteratorGetNext`` node (every replica's part of the step, on the CPU, taken when the
    function runs) and an ``Identity`` of each part onto its replica's device. The round the trace
    looked at (its shapes and dtypes) is the first one a run takes."""

    def __init__(self, devices, rounds, element_spec=None):
        self._devices = devices
        self._rounds = rounds
        self.element_spec = element_spec
        self._peeked = None
        self._traced = not context().eager  # made while a tf.function traces: its rounds are the trace's

    def _take(self):
        parts, self._peeked = self._peeked, None
        return parts if parts is not None else next(self._rounds)

    def _next_in_graph(self):
        if self._peeked is None:
            self._peeked = next(self._rounds)
        parts = self._peeked
        specs = []
        for part in parts:
            for leaf in flatten(part):
                leaf = np.asarray(leaf)
                specs.append((leaf.dtype.name, (None,) + leaf.shape[1:] if leaf.ndim else ()))

        def source():
            return [np.asarray(leaf) for part in self._take() for leaf in flatten(part)]
        with device(host()):
            leaves = list(iterator_ops.get_next(source, specs))
        values = []
        for d, part in zip(self._devices, parts):
            mine, leaves = leaves[:len(flatten(part))], leaves[len(flatten(part)):]
            with device(d):
                values.append(pack_sequence_as(part, [array_ops.identity(t) for t in mine]))
        return regroup(values)

    def get_next_as_optional(self):
        """The next step's values as an optional (empty at the end of the dataset)."""
        from ..data._optional import Optional

        try:
            return Optional(next(self), self.element_spec, True)
        except StopIteration:
            return Optional.empty(self.element_spec)

    def __iter__(self):
        """Itself; a Python ``for`` over it while a tf.function traces takes every round then."""
        return self if context().eager else self._unrolled()

    def _unrolled(self):
        while True:
            try:
                yield self._eager_next()
            except StopIteration:
                return

    def __next__(self):
        if not context().eager and not self._traced:
            return self._next_in_graph()
        return self._eager_next()

    def _eager_next(self):
        parts = self._take()
        values = []
        for d, part in zip(self._devices, parts):
            with device(d):
                values.append(map_structure(constant, part))
        return regroup(values)

    def get_next(self):
        return next(self)


def split_batches(dataset, n: int):
    """Each global batch, split along its first axis into ``n`` parts (NumPy's array_split sizes)."""
    def rounds():
        for element in dataset._source():
            leaves = [np.array_split(np.asarray(leaf), n) for leaf in flatten(element)]
            yield [pack_sequence_as(element, [pieces[i] for pieces in leaves]) for i in range(n)]
    return rounds


_END = object()


def consecutive_batches(dataset, n: int):
    """``n`` consecutive elements per round; a replica left without one gets an empty batch."""
    def rounds():
        source = iter(dataset._source())
        for first in source:
            group = [first]
            while len(group) < n:
                element = next(source, _END)
                if element is _END:
                    break
                group.append(element)
            empty = map_structure(lambda a: np.asarray(a)[:0], first)
            yield group + [empty] * (n - len(group))
    return rounds


def values_from_function(devices, value_fn) -> list:
    """``experimental_distribute_values_from_function``: ``value_fn`` once per replica, on its device."""
    values = []
    for i, d in enumerate(devices):
        with device(d):
            values.append(value_fn(ValueContext(i, len(devices))))
    return values
