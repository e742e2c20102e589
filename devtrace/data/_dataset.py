"""``tf.data.Dataset``: its sources (``range``, ``from_tensor_slices``, ``from_generator`` …, the file
readers) and the transformations built on host elements (``data._elements``); the others are the
``Transforms`` mixin's (``data._transforms``)."""

from __future__ import annotations

import collections
import itertools
import os

import numpy as np

from . import _extension as extension, _readers as readers, _saving as saving
from . import _experimental_more as data_more, _windows as data_windows, _resample as data_resample
from . import _ragged as data_ragged
from . import _deferred as deferred
from ._elements import (_END, _along, _as_args, _batch_unknown, _batched, _bound, _deferred_parts, _generated, _host,
                        _listless, _pack, _row, _pick, _rows, _shape_list, _spec, _spec_of_part, _stack, _tensor,
                        _unbatched, _Words, INFINITE, UNKNOWN, flatten, map_structure)
from ._ragged import HostRagged
from ._functions import DatasetFunction, opened_over
from ._iterators import DatasetSpec, NumpyIterator, OwnedIterator
from ._transforms import Transforms
from ..errors import InvalidArgumentError, OpError
from ..polymorphic_function.function import TensorSpec
from ..ops.ragged.ragged_tensor import RaggedTensorSpec
from ..ops.random.random_ops import get_seed
from ..ops.random.stateless_random_ops import multinomial_on_host
from ..runtime import dtypes
from ..runtime.tensor import Tensor
from ..runtime.graph.tensor import SymbolicTensor
from ..runtime.values import constant


def _placeholder(marker, spec):
    """A dataset component of an element (a window) as a traced function sees it: its datasets read
    the element's when they are made per element (data._deferred)."""
    return Dataset(lambda: deferred.value(marker)._source(), spec.element_spec, UNKNOWN, "_VariantDataset")


class Dataset(Transforms):
    """A re-iterable pipeline: ``source()`` yields element structures of host arrays."""

    def __init__(self, source, spec, cardinality, kind="_TensorSliceDataset"):
        self._source, self._spec, self._cardinality, self._kind = source, spec, cardinality, kind

    # -- what the mixin's transformations build on (data._transforms) --------------------------
    @staticmethod
    def _new(source, spec, cardinality, kind):
        return Dataset(source, spec, cardinality, kind)

    @staticmethod
    def _as_tensors(element):
        return extension.values(map_structure(_tensor, element))

    _as_args = staticmethod(_as_args)
    _placeholder = staticmethod(_placeholder)

    def _sample(self, *leading):
        """A user function's arguments for the first element (``leading``: a state before it); None if empty."""
        first = next(iter(self._source()), _END)
        return None if first is _END else leading + (first,)
    _listless = staticmethod(_listless)

    @staticmethod
    def _call(fn, element):
        args = extension.values(map_structure(_tensor, element))
        return fn(*args) if isinstance(args, tuple) else fn(args)

    @staticmethod
    def _to_host(value):
        return map_structure(_host, value)

    @staticmethod
    def _spec_of(element):
        return map_structure(_spec, element)

    @staticmethod
    def _rows_of(element):
        parts = map_structure(_rows, element)
        return [map_structure(lambda rows, i=i: rows[i], parts) for i in range(len(flatten(parts)[0]))]

    @staticmethod
    def _stacked(rows):
        return map_structure(_stack, *rows)

    @staticmethod
    def _scalar(value):
        return constant(np.asarray(value, np.int64), dtypes.int64)

    def _map_spec(self, fn):
        return map_structure(fn, self._spec)

    @property
    def variant_text(self) -> str:
        """What a variant tensor of this dataset prints (``tf.data.experimental.to_variant``)."""
        kind = self._kind.lstrip("_").removesuffix("V2").removesuffix("Dataset")
        return f"<{kind}DatasetOp{getattr(self, '_op_args', '')}::Dataset>"

    # -- sources ------------------------------------------------------------------------------
    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None):  # noqa: A003 (TensorFlow's name)
        np_type = dtypes.as_dtype(output_type).np
        if deferred.holds_symbolic(args):  # in a dataset function: its bounds are the element's
            deferred.made_of(args)

            def source():
                bounds = range(*[int(_bound(a)) for a in args])
                return (np.asarray(i, np_type) for i in bounds)
            return Dataset(source, TensorSpec((), dtypes.as_dtype(output_type)), UNKNOWN, "_RangeDataset")
        bounds = range(*[int(a) for a in args])
        out = Dataset(lambda: (np.asarray(i, np_type) for i in bounds), TensorSpec((), dtypes.as_dtype(output_type)),
                      len(bounds), "_RangeDataset")
        out._op_args = f"({bounds.start}, {bounds.stop}, {bounds.step})"
        return out

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):  # noqa: A003 (TensorFlow's name)
        """TensorFlow's stream: each element one uint32 word of Philox at ``(seed, seed2)``; with
        ``rerandomize_each_iteration`` each pass draws its own two seeds from that stream."""
        seeds = get_seed(seed)
        if seeds == (None, None):
            seeds = tuple(int.from_bytes(os.urandom(8), "little") for _ in range(2))
        generator = _Words(*seeds)

        def source():
            words = _Words(generator(), generator()) if rerandomize_each_iteration else _Words(*seeds)
            while True:
                yield np.asarray(words(), np.int64)
        return Dataset(source, TensorSpec((), dtypes.int64), INFINITE, "_RandomDataset")

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        dtype = dtypes.as_dtype(dtype)
        return Dataset(lambda: (np.asarray(start + k * step, dtype.np) for k in itertools.count()),
                       TensorSpec((), dtype), INFINITE, "_CounterDataset")

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        if deferred.holds_symbolic(tensors):  # in a dataset function: sliced from the element's values
            parts = _deferred_parts(tensors)
            first = flatten(parts)[0]
            n = first.shape[0] if isinstance(first, SymbolicTensor) and first.shape.rank else UNKNOWN

            def source():
                arrays = map_structure(_bound, parts)
                count = len(flatten(arrays)[0])
                return (map_structure(lambda a, i=i: _row(a, i), arrays) for i in range(count))
            return Dataset(source, map_structure(lambda a: _unbatched(_spec_of_part(a)), parts),
                           UNKNOWN if n is None else n)
        arrays = map_structure(_host, extension.records(tensors))
        leaves = flatten(arrays)
        n = len(leaves[0])
        for leaf in leaves[1:]:
            if len(leaf) != n:
                raise ValueError(f"Dimensions {n} and {len(leaf)} are not compatible")
        spec = map_structure(lambda a: _unbatched(_spec(a)), arrays)
        return Dataset(lambda: (map_structure(lambda a, i=i: _row(a, i), arrays) for i in range(n)), spec, n)

    @staticmethod
    def from_tensors(tensors, name=None):
        if deferred.holds_symbolic(tensors):  # in a dataset function: the element's values
            parts = _deferred_parts(tensors)
            return Dataset(lambda: iter([map_structure(_bound, parts)]), map_structure(_spec_of_part, parts), 1,
                           "_TensorDataset")
        arrays = map_structure(_host, extension.records(tensors))
        return Dataset(lambda: iter([arrays]), map_structure(_spec, arrays), 1, "_TensorDataset")

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None, name=None):
        spec = output_signature
        if spec is None:
            shapes = output_shapes if output_shapes is not None else map_structure(lambda _: None, output_types)
            spec = map_structure(lambda t, shape: TensorSpec(shape, t), output_types, shapes)

        def source():
            for element in data_windows.generated(generator, args):
                element = tuple(element) if isinstance(spec, tuple) else element
                yield map_structure(_generated, spec, element)
        return Dataset(source, spec, UNKNOWN, "_FlatMapDataset")

    @staticmethod
    def zip(*datasets, name=None):
        parts = datasets[0] if len(datasets) == 1 else datasets
        cards = [d._cardinality for d in flatten(parts)]
        finite = [c for c in cards if c >= 0]
        card = min(finite) if finite else INFINITE
        return Dataset(lambda: (_pack(parts, list(e)) for e in zip(*[d._source() for d in flatten(parts)])),
                       map_structure(lambda d: d._spec, parts), card, "_ZipDataset")

    # -- transformations ----------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        function = DatasetFunction(map_func, self._spec, "map", _as_args, sample=self._sample)

        def opened():
            run = function.opened()
            return lambda element: map_structure(_host, extension.records(_listless(run(element))))

        def source():
            inputs = self._source()
            first = next(inputs, _END)  # the input's functions are placed before this one, as TensorFlow's
            if first is _END:
                return
            apply = opened()
            yield apply(first)
            for element in inputs:
                yield apply(element)
        if function.traced:
            spec = function.output_spec()
        else:
            first_input = next(iter(self._source()), None)
            first = next(iter(source()), None)
            spec = function.static_specs(_batch_unknown(self._spec, first_input, map_structure(_spec, first))) \
                if first is not None else self._spec
        kind = "_MapDataset" if num_parallel_calls is None else "_ParallelMapDataset"
        out = Dataset(source, spec, self._cardinality, kind)
        out._mapped = (self, opened)  # what ignore_errors reruns element by element
        return out

    def ignore_errors(self, log_warning=False, name=None):
        """The elements whose computation raised no error (a map's failing elements dropped)."""
        mapped = getattr(self, "_mapped", None)

        def source():
            if mapped is None:
                it = self._source()
                while True:
                    try:
                        yield next(it)
                    except StopIteration:
                        return
                    except OpError:  # the source itself failed: nothing after it
                        return
            parent, opened = mapped
            apply = opened()
            for element in parent._source():
                try:
                    yield apply(element)
                except OpError:
                    continue
        return Dataset(source, self._spec, UNKNOWN, "_IgnoreErrorsDataset")

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Elements of ``datasets`` in the order ``choice_dataset``'s indices pick them."""
        datasets = list(datasets)

        def source():
            its = [d._source() for d in datasets]
            for choice in choice_dataset._source():
                try:
                    yield next(its[int(choice)])
                except StopIteration:
                    if stop_on_empty_dataset:
                        return
        return Dataset(source, datasets[0]._spec, UNKNOWN, "_DirectedInterleaveDataset")

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements of ``datasets`` drawn by ``weights`` as TensorFlow draws them: each choice a
        ``StatelessMultinomial`` of the weights' logs seeded by two words of ``Dataset.random(seed)``;
        an exhausted dataset is skipped (or ends it: ``stop_on_empty_dataset``)."""
        datasets = list(datasets)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        if isinstance(weights, Dataset):
            raise NotImplementedError("devtrace does not implement tf.data.Dataset.sample_from_datasets with "
                                      "weights that are a dataset yet")
        if weights is None:
            logits = np.ones((1, len(datasets)), np.float32)
        else:
            if not isinstance(weights, Tensor):
                if len(datasets) != len(weights):
                    raise ValueError(f"Invalid `weights`. `weights` should have the same length as `datasets` but "
                                     f"got `len(weights)={len(weights)}` vs. `len(datasets)={len(datasets)}`.")
                kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
                datasets, weights = ([d for d, _ in kept], [w for _, w in kept]) if kept else (
                    [datasets[0].take(0)], [1.0])
            weights = weights if isinstance(weights, Tensor) else constant(weights)
            if weights.dtype not in (dtypes.float32, dtypes.float64):
                raise TypeError(f"Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but "
                                f"is {weights.dtype}.")
            with np.errstate(divide="ignore"):
                logits = np.log(weights.numpy())[None]
        if len(datasets) == 1:
            return datasets[0]
        seeds = Dataset.random(seed, rerandomize_each_iteration).batch(2)

        def source():
            its, ended = [d._source() for d in datasets], set()
            for pair in seeds._source():
                if len(ended) == len(its):
                    return
                k = int(multinomial_on_host(logits, pair)[0, 0])
                if k in ended:
                    continue
                try:
                    yield next(its[k])
                except StopIteration:
                    if stop_on_empty_dataset:
                        return
                    ended.add(k)
        return Dataset(source, datasets[0]._spec, UNKNOWN, "_DirectedInterleaveDataset")

    def get_single_element(self, name=None):
        """The dataset's one element (TensorFlow's error for none or more)."""
        it = self._source()
        try:
            element = next(it)
        except StopIteration:
            raise InvalidArgumentError("Dataset was empty.") from None
        if next(it, None) is not None:
            raise InvalidArgumentError("Dataset had more than one element.")
        return extension.values(map_structure(_tensor, element))

    def filter(self, predicate, name=None):
        function = DatasetFunction(predicate, self._spec, "filter", _as_args, sample=self._sample)
        function.check_predicate()

        def source():
            keep, elements = opened_over(function, self._source())
            for element in elements:
                if bool(keep(element)):
                    yield element
        return Dataset(source, self._spec, UNKNOWN, "_FilterDataset")

    def _chunks(self, batch_size, drop_remainder):
        it = self._source()
        while True:
            chunk = list(itertools.islice(it, batch_size))
            if not chunk or (drop_remainder and len(chunk) < batch_size):
                return
            yield chunk

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        def source():
            return (map_structure(_stack, *chunk) for chunk in self._chunks(batch_size, drop_remainder))
        card = self._cardinality if self._cardinality < 0 else (
            self._cardinality // batch_size if drop_remainder else -(-self._cardinality // batch_size))
        size = batch_size if drop_remainder else None
        return Dataset(source, map_structure(lambda s: _batched(s, size), self._spec), card, "_BatchDataset")

    def sparse_batch(self, batch_size, row_shape, name=None):
        return data_more.sparse_batch(self, batch_size, row_shape)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64, name=None):
        """``batch``, each dense component whose shape is not fully known first made a RaggedTensor
        ragged up to its last unknown dimension (TensorFlow's ``_DenseToRaggedDataset``)."""
        def ragged_spec(s):
            if type(s) is not TensorSpec or s.shape.rank is None or s.shape.is_fully_defined():
                return s
            rank = max(k for k, d in enumerate(s.shape.as_list()) if d is None)
            return RaggedTensorSpec(s.shape, s.dtype, rank, row_splits_dtype)
        spec = map_structure(ragged_spec, self._spec)

        def source():
            for element in self._source():
                yield map_structure(lambda s, v: data_ragged.from_dense(v, s.ragged_rank, s.row_splits_dtype) if (
                    isinstance(s, RaggedTensorSpec) and not isinstance(v, HostRagged)) else v, spec, element)
        return Dataset(source, spec, self._cardinality, "_DenseToRaggedDataset").batch(batch_size, drop_remainder)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None, name=None):
        return data_resample.rejection_resample(self, class_func, target_dist, initial_dist, seed)

    def unbatch(self, name=None):
        def source():
            for element in self._source():
                parts = map_structure(_rows, element)
                yield from (map_structure(lambda rows, i=i: rows[i], parts) for i in range(len(flatten(parts)[0])))
        return Dataset(source, map_structure(_unbatched, self._spec), UNKNOWN, "_UnbatchDataset")

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        specs = flatten(self._spec)
        shapes = _along(self._spec, padded_shapes) if padded_shapes is not None else [None] * len(specs)
        shapes = [_shape_list(shape) for shape in shapes]
        values = _along(self._spec, padding_values) if padding_values is not None else [None] * len(specs)

        def source():
            for chunk in self._chunks(batch_size, drop_remainder):
                parts = [flatten(element) for element in chunk]
                yield _pack(self._spec, [data_windows.padded([p[k] for p in parts], shapes[k], data_windows.padding_value(
                    values[k], parts[0][k])) for k in range(len(specs))])
        size = batch_size if drop_remainder else None
        spec = [TensorSpec((size,) + tuple(None if d is None or d == -1 else int(d) for d in (
            shape if shape is not None else [None] * len(s.shape))), s.dtype) for s, shape in zip(specs, shapes)]
        return Dataset(source, _pack(self._spec, spec), UNKNOWN, "_PaddedBatchDataset")

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        def source():
            for chunk in data_windows.windows(self._source, size, size if shift is None else shift, stride,
                                              drop_remainder):
                yield map_structure(lambda spec, *xs: Dataset(lambda xs=xs: iter(xs), spec, len(xs), "_VariantDataset"),
                                    self._spec, *chunk)
        return Dataset(source, map_structure(DatasetSpec, self._spec), UNKNOWN, "_WindowDataset")

    def flat_map(self, map_func, name=None):
        function = DatasetFunction(map_func, self._spec, "flat_map", self._as_args, sample=self._sample,
                                   placeholder=self._placeholder)
        if function.template is not None:  # traced once: the dataset it makes, per element (data._deferred)
            template = function.template

            def expanded():
                run, elements = opened_over(function, self._source())
                for element in elements:
                    yield from deferred.iterate(template._source, function.binding(run(element), element=element))
            return Dataset(expanded, template._spec, UNKNOWN, "_FlatMapDataset")

        def apply(element):
            args = extension.values(map_structure(_tensor, element))
            return map_func(*args) if isinstance(args, tuple) else map_func(args)

        def source():
            for element in self._source():
                yield from apply(element)._source()
        first = next(iter(self._source()), None)
        return Dataset(source, apply(first)._spec if first is not None else self._spec, UNKNOWN, "_FlatMapDataset")

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        """TensorFlow's order for a seed: each iterator's two seeds drawn from a Philox stream of the
        dataset's ``(seed, seed2)`` (the same two every time without ``reshuffle_each_iteration``),
        then an element picked from the buffer by each of its own stream's words."""
        seeds = get_seed(seed)
        if seeds == (None, None):
            seeds = tuple(int.from_bytes(os.urandom(8), "little") for _ in range(2))
        generator = _Words(*seeds)

        def source():
            words = _Words(generator(), generator()) if reshuffle_each_iteration in (None, True) else _Words(*seeds)
            window = collections.deque()
            for element in self._source():
                window.append(element)
                if len(window) >= buffer_size:
                    yield _pick(window, words())
            while window:
                yield _pick(window, words())
        return Dataset(source, self._spec, self._cardinality, "_ShuffleDataset")

    def take(self, count, name=None):
        card = count if self._cardinality == INFINITE else min(count, self._cardinality) if count >= 0 else \
            self._cardinality
        return Dataset(lambda: itertools.islice(self._source(), count if count >= 0 else None), self._spec, card,
                       "_TakeDataset")

    def skip(self, count, name=None):
        card = self._cardinality if self._cardinality < 0 else max(self._cardinality - count, 0)
        return Dataset(lambda: itertools.islice(self._source(), count, None), self._spec, card, "_SkipDataset")

    def repeat(self, count=None, name=None):
        def source():
            for _ in itertools.count() if count is None or count < 0 else range(count):
                yield from self._source()
        card = INFINITE if count is None or count < 0 else self._cardinality * count
        return Dataset(source, self._spec, card, "_RepeatDataset")

    def enumerate(self, start=0, name=None):  # noqa: A003 (TensorFlow's name)
        return Dataset(lambda: ((np.asarray(i, np.int64), e) for i, e in enumerate(self._source(), start)),
                       (TensorSpec((), dtypes.int64), self._spec), self._cardinality, "_EnumerateDataset")

    def prefetch(self, buffer_size, name=None):
        return Dataset(self._source, self._spec, self._cardinality, "_PrefetchDataset")

    def cache(self, filename="", name=None):
        return Dataset(self._source, self._spec, self._cardinality, "CacheDataset")

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        if shard_func is not None or checkpoint_args is not None:
            raise NotImplementedError("devtrace does not implement tf.data.Dataset.save's shard_func and "
                                      "checkpoint_args yet")
        saving.save(self._source(), self._spec, flatten, os.fspath(path), compression)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        spec, records = saving.load(os.fspath(path), TensorSpec)
        spec = element_spec if element_spec is not None else spec
        leaves = flatten(spec)

        def source():
            it = records()
            while True:
                parts = []
                for leaf in leaves:
                    record = next(it, None)
                    if record is None:
                        return
                    parts.append(saving.parse(record, leaf.dtype))
                yield _pack(spec, parts)
        return Dataset(source, spec, UNKNOWN, "_LoadDataset")

    # -- consuming ----------------------------------------------------------------------------
    def __iter__(self):
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        return NumpyIterator(self)

    def reduce(self, initial_state, reduce_func, name=None):
        """The state's spec relaxed until the traced function gives it back (TensorFlow traces again,
        the dimensions that changed unknown)."""
        state = map_structure(lambda v: _host(v), extension.records(initial_state))
        function = DatasetFunction.with_state(reduce_func, self._spec, "reduce", _as_args, map_structure(_spec, state),
                                              sample=lambda: self._sample(state))
        inputs = self._source()
        first = next(inputs, _END)
        run = function.opened()
        tensors = _as_args(state)
        if first is _END:
            return tensors
        for element in itertools.chain((first,), inputs):
            tensors = _listless(run(tensors, element))
        return tensors

    def cardinality(self):
        return constant(self._cardinality, dtypes.int64)

    def __len__(self):
        if self._cardinality == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._cardinality < 0:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    @property
    def element_spec(self):
        return extension.specs(self._spec)

    def __repr__(self):
        return f"<{self._kind} element_spec={self._spec}>"


class TextLineDataset(Dataset):
    """``tf.data.TextLineDataset``: the lines of text files, without their line ends."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(readers.text_line_source(readers.filenames_of(filenames), compression_type),
                         TensorSpec((), dtypes.string), UNKNOWN, "TextLineDatasetV2")


class FixedLengthRecordDataset(Dataset):
    """``tf.data.FixedLengthRecordDataset``: records of ``record_bytes`` between a header and a footer."""

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None, name=None):
        super().__init__(readers.fixed_length_source(readers.filenames_of(filenames), int(record_bytes),
                                                     int(header_bytes or 0), int(footer_bytes or 0), compression_type),
                         TensorSpec((), dtypes.string), UNKNOWN, "FixedLengthRecordDatasetV2")


class TFRecordDataset(Dataset):
    """``tf.data.TFRecordDataset``: the records of TFRecord files, each CRC checked."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(readers.tfrecord_source(readers.filenames_of(filenames), compression_type),
                         TensorSpec((), dtypes.string), UNKNOWN, "TFRecordDatasetV2")


def _listed(elements):
    """``from_list``'s elements as ``from_tensor_slices``'s components (ragged lists padded by none:
    each row its own element)."""
    first = elements[0]
    if isinstance(first, tuple):
        return tuple(_listed([e[k] for e in elements]) for k in range(len(first)))
    if isinstance(first, dict):
        return {k: _listed([e[k] for e in elements]) for k in first}
    return list(elements)


def _from_list(elements):
    """``tf.data.experimental.from_list``: each element as it is; a component's spec the elements'
    common shape (a dimension that differs None: ``[[1], [2, 3]]`` gives ``shape=(None,)``)."""
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty. If you want an empty dataset, use "
                         "`tf.data.Dataset.range(0)`.")
    try:
        sliced = Dataset.from_tensor_slices(_listed(elements))
    except ValueError:
        sliced = None
    if sliced is not None:
        return Dataset(sliced._source, sliced._spec, sliced._cardinality, "_ListDataset")
    hosts = [map_structure(_host, extension.records(e)) for e in elements]

    def common(*specs):
        shapes = [s.shape.as_list() for s in specs]
        if any(len(shape) != len(shapes[0]) for shape in shapes):
            raise ValueError("devtrace does not implement tf.data.experimental.from_list of components whose "
                             "ranks differ yet")
        return TensorSpec([d if all(o[k] == d for o in shapes) else None for k, d in enumerate(shapes[0])],
                          specs[0].dtype)
    spec = map_structure(common, *[map_structure(_spec, h) for h in hosts])
    return Dataset(lambda: iter(hosts), spec, len(hosts), "_ListDataset")
