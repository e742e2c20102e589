"""``tf.data.Dataset``'s transformations beyond the basics, as a mixin of ``data.Dataset``:
``apply``, ``concatenate``, ``shard``, ``take_while``, ``scan``, ``unique``, ``interleave``,
``rebatch``, ``group_by_window``, ``bucket_by_sequence_length``, ``with_options``/``options``.
Each wraps its input's element source (structures of host arrays) in a new one, as the basics do;
the dataset class gives ``_new`` (a dataset of the same kind), ``_call`` (a user function applied
to an element as tensors) and ``_to_host`` (a function's result back to host arrays)."""

from __future__ import annotations

import bisect
import itertools

import numpy as np

from ..errors import InvalidArgumentError
from . import _deferred as deferred
from ._functions import DatasetFunction, opened_over
from ..polymorphic_function.function import TensorSpec
from ..runtime import dtypes

INFINITE, UNKNOWN = -1, -2


def _structure_types(spec):
    """The dtypes of an element spec as TensorFlow's error messages print them."""
    if isinstance(spec, dict):
        return {k: _structure_types(v) for k, v in spec.items()}
    if isinstance(spec, tuple):
        return tuple(_structure_types(s) for s in spec)
    return spec.dtype


def _same_structure(a, b) -> bool:
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and sorted(a) == sorted(b) and all(
            _same_structure(a[k], b[k]) for k in a)
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(
            _same_structure(x, y) for x, y in zip(a, b))
    return a == b


def _key(element) -> tuple:
    return tuple(np.asarray(a).tobytes() + str(np.asarray(a).dtype).encode() for a in _leaves(element))


def _leaves(element) -> list:
    if isinstance(element, dict):
        return [leaf for k in sorted(element) for leaf in _leaves(element[k])]
    if isinstance(element, tuple):
        return [leaf for part in element for leaf in _leaves(part)]
    return [element]


class Transforms:
    """The mixin: every method returns a new dataset over ``self``'s elements."""

    def apply(self, transformation_func):
        return transformation_func(self)

    def concatenate(self, dataset, name=None):
        mine, theirs = _structure_types(self._spec), _structure_types(dataset._spec)
        if not _same_structure(mine, theirs):
            raise TypeError(f"Two datasets to concatenate have different types\n{mine} and {theirs}")

        def source():
            yield from self._source()
            yield from dataset._source()
        cards = (self._cardinality, dataset._cardinality)
        card = INFINITE if INFINITE in cards else UNKNOWN if UNKNOWN in cards else sum(cards)
        return self._new(source, self._spec, card, "_ConcatenateDataset")

    def shard(self, num_shards, index, name=None):
        num_shards, index = int(num_shards), int(index)
        if num_shards <= 0:
            raise InvalidArgumentError(f"Number of shards must be greater than zero (currently num_shards = "
                                       f"{num_shards}). [Op:ShardDataset] name: ")
        if not 0 <= index < num_shards:
            raise InvalidArgumentError(f"Index must be between 0 and {num_shards - 1} (currently index = {index})."
                                       f" [Op:ShardDataset] name: ")
        card = self._cardinality if self._cardinality < 0 else (
            self._cardinality // num_shards + (1 if index < self._cardinality % num_shards else 0))
        return self._new(lambda: itertools.islice(self._source(), index, None, num_shards), self._spec, card,
                         "_ShardDataset")

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        """The elements as they are: devtrace recomputes a pipeline rather than reading a snapshot
        (TensorFlow's dataset prints as a ``_MapDataset``: its reader's)."""
        return self._new(self._source, self._spec, self._cardinality, "_MapDataset")

    def take_while(self, predicate, name=None):
        function = DatasetFunction(predicate, self._spec, "take_while", self._as_args, sample=self._sample)
        function.check_predicate("")

        def source():
            keep, elements = opened_over(function, self._source())
            for element in elements:
                if not bool(keep(element)):
                    return
                yield element
        return self._new(source, self._spec, UNKNOWN, "_TakeWhileDataset")

    def scan(self, initial_state, scan_func, name=None):
        state = self._to_host(initial_state)
        function = DatasetFunction.with_state(scan_func, self._spec, "scan", self._as_args, self._spec_of(state),
                                              lambda out: out[0] if isinstance(out, tuple) and len(out) == 2 else None,
                                              lambda: self._sample(state))

        def source():
            run, elements = opened_over(function, self._source())
            tensors = self._as_args(state)
            for element in elements:
                tensors, out = self._listless(run(tensors, element))
                yield self._to_host(out)
        if function.traced and isinstance(function.output_spec(), tuple) and len(function.output_spec()) == 2:
            spec = function.output_spec()[1]
        else:
            first = next(iter(source()), None)
            spec = self._spec_of(first) if first is not None else self._spec
        return self._new(source, spec, self._cardinality, "_ScanDataset")

    def unique(self, name=None):
        for leaf in _leaves(self._spec):
            if leaf.dtype not in (dtypes.int32, dtypes.int64, dtypes.string) or leaf.shape.rank != 0:
                raise TypeError(f"`tf.data.Dataset.unique` does not support type {self._spec}.")

        def source():
            seen = set()
            for element in self._source():
                key = _key(element)
                if key not in seen:
                    seen.add(key)
                    yield element
        return self._new(source, self._spec, UNKNOWN, "_UniqueDataset")

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        """TensorFlow's order: ``cycle_length`` datasets open at once, ``block_length`` elements from
        each in turn; an exhausted one is replaced by the next input's dataset in its slot."""
        block = 1 if block_length is None else int(block_length)
        function = DatasetFunction(map_func, self._spec, "interleave", self._as_args, sample=self._sample,
                                   placeholder=getattr(self, "_placeholder", None))
        template = function.template  # traced once: the dataset it makes, per element (data._deferred)

        def open_one(run, element):
            if template is None:
                return self._call(map_func, element)._source()
            return deferred.iterate(template._source, function.binding(run(element), element=element))

        def source():
            run, inputs = opened_over(function, self._source()) if template is not None else (None, self._source())
            inputs = iter(inputs)
            cycle = int(cycle_length) if cycle_length not in (None, -1) else 16
            slots = [None] * cycle
            exhausted = False
            while True:
                active = False
                for k in range(cycle):
                    if slots[k] is None and not exhausted:
                        try:
                            slots[k] = open_one(run, next(inputs))
                        except StopIteration:
                            exhausted = True
                    if slots[k] is None:
                        continue
                    active = True
                    for _ in range(block):
                        try:
                            yield next(slots[k])
                        except StopIteration:
                            slots[k] = None
                            break
                if not active and exhausted:
                    return
        if template is not None:
            return self._new(source, template._spec, UNKNOWN, "_InterleaveDataset")
        first = next(iter(self._source()), None)
        spec = self._call(map_func, first)._spec if first is not None else self._spec
        return self._new(source, spec, UNKNOWN, "_InterleaveDataset")

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """The input's batches split and joined again into batches of ``batch_size`` (a list: the
        sizes in turn, repeated)."""
        sizes = [int(s) for s in np.atleast_1d(np.asarray(batch_size))]

        def source():
            rows, turn = [], itertools.cycle(sizes)
            want = next(turn)
            for element in self._source():
                rows.extend(self._rows_of(element))
                while len(rows) >= want:
                    yield self._stacked(rows[:want])
                    del rows[:want]
                    want = next(turn)
            if rows and not drop_remainder:
                yield self._stacked(rows)
        size = sizes[0] if drop_remainder and len(set(sizes)) == 1 else None
        return self._new(source, self._map_spec(lambda s: type(s)((size,) + tuple(s.shape)[1:], s.dtype)), UNKNOWN, "_RebatchDataset")

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        """Elements grouped by ``key_func``; a group of ``window_size`` becomes ``reduce_func(key,
        dataset)``'s elements; at the end the partial groups, in increasing key order."""
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")

        def size_of(key):
            return int(window_size) if window_size is not None else int(window_size_func(self._scalar(key)))

        reducer = DatasetFunction(reduce_func, TensorSpec((), dtypes.int64), "group_by_window", self._as_args,
                                  window=lambda marker: self._new(lambda: deferred.value(marker)._source(), self._spec,
                                                                  UNKNOWN, "_VariantDataset"))
        template, reducing = reducer.template, []  # traced once: the dataset it makes, per window (data._deferred)

        def reduce(key, rows):
            window = self._new(lambda rows=rows: iter(rows), self._spec, len(rows), "_VariantDataset")
            if template is None:
                return reduce_func(self._scalar(key), window)._source()
            if not reducing:
                reducing.append(reducer.opened())
            values = reducing[0](np.asarray(key, np.int64))
            return deferred.iterate(template._source, reducer.binding(values, window))

        function = DatasetFunction(key_func, self._spec, "group_by_window", self._as_args, sample=self._sample)

        def source():
            groups = {}
            key_of, elements = opened_over(function, self._source())
            for element in elements:
                key = int(key_of(element))
                groups.setdefault(key, []).append(element)
                if len(groups[key]) >= size_of(key):
                    yield from reduce(key, groups.pop(key))
            for key in sorted(groups):
                yield from reduce(key, groups[key])
        if template is not None:
            return self._new(source, template._spec, UNKNOWN, "_GroupByWindowDataset")
        first = next(iter(self._source()), None)
        spec = reduce_func(self._scalar(0), self._new(lambda: iter([first]), self._spec, 1, "_VariantDataset"))._spec \
            if first is not None else self._spec
        return self._new(source, spec, UNKNOWN, "_GroupByWindowDataset")

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        boundaries, sizes = [int(b) for b in bucket_boundaries], [int(s) for s in bucket_batch_sizes]
        if len(sizes) != len(boundaries) + 1:
            raise ValueError(f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 but "
                             f"len(bucket_batch_sizes)={len(sizes)} and len(bucket_boundaries)={len(boundaries)}")

        def key_func(*element):
            return bisect.bisect_right(boundaries, int(element_length_func(*element)))

        def reduce_func(key, window):
            bucket = int(key)
            if no_padding:
                return window.batch(sizes[bucket], drop_remainder=drop_remainder)
            shapes = padded_shapes
            if pad_to_bucket_boundary:
                bound = boundaries[bucket] - 1 if bucket < len(boundaries) else None
                shapes = self._map_spec(lambda s: (bound,) + tuple(s.shape)[1:])
            return window.padded_batch(sizes[bucket], padded_shapes=shapes, padding_values=padding_values,
                                       drop_remainder=drop_remainder)
        return self.group_by_window(key_func, reduce_func, window_size_func=lambda key: sizes[int(key)])

    def with_options(self, options, name=None):
        out = self._new(self._source, self._spec, self._cardinality, "_OptionsDataset")
        out._options = options
        return out

    def options(self):
        from ._options import Options

        return getattr(self, "_options", None) or Options()
