"""``tf.data.experimental``'s functions over datasets: the transformations it offers as
``dataset.apply(fn)`` arguments and the queries (``cardinality``, ``get_structure``). They reach
datasets through their methods only; ``data`` assembles the namespace."""

from __future__ import annotations

import numpy as np

from ..errors import FailedPreconditionError, OutOfRangeError
from ..ops.io.parsing_ops import parse_example
from ..ops.io.tfrecord import TFRecordOptions, TFRecordWriter as _Writer
from ..polymorphic_function.function import TensorSpec
from ..runtime import dtypes
from ..util import nest as _nest
from ..util.nest import map_structure


def cardinality(dataset):
    return dataset.cardinality()


def get_structure(dataset_or_iterator):
    return dataset_or_iterator.element_spec


def _cardinality_error(expected, seen, spec) -> FailedPreconditionError:
    """TensorFlow's error when an iterator finds the count wrong (its wrapped ``IteratorGetNext``)."""
    count = f"only {seen}" if seen < expected else f"at least {seen}"
    return FailedPreconditionError(
        f"{{{{function_node __wrapped__IteratorGetNext_output_types_{len(_nest.flatten(spec))}_device_/job:localhost/"
        f"replica:0/task:0/device:CPU:0}}}} Input dataset was expected to contain {expected} elements but contained "
        f"{count} elements. [Op:IteratorGetNext] name: ")


def assert_cardinality(expected_cardinality):
    """The dataset's cardinality taken as ``expected_cardinality``; iterating it checks the count."""
    expected = int(expected_cardinality)

    def apply(dataset):
        def source():
            seen = 0
            for element in dataset._source():
                seen += 1
                if expected >= 0 and seen > expected:
                    raise _cardinality_error(expected, seen, dataset._spec)
                yield element
            if expected >= 0 and seen < expected:
                raise _cardinality_error(expected, seen, dataset._spec)
        return dataset._new(source, dataset._spec, expected, "_AssertCardinalityDataset")
    return apply


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=padded_shapes,
        padding_values=padding_values, pad_to_bucket_boundary=pad_to_bucket_boundary, no_padding=no_padding,
        drop_remainder=drop_remainder)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


def scan(initial_state, scan_func):
    return lambda dataset: dataset.scan(initial_state, scan_func)


def unique():
    return lambda dataset: dataset.unique()


def take_while(predicate):
    return lambda dataset: dataset.take_while(predicate)


def method_apply(name):
    """A transformation's ``apply`` form by its method name (``enumerate_dataset`` → ``enumerate``)."""
    def make(*args, **kwargs):
        return lambda dataset: getattr(dataset, name)(*args, **kwargs)
    return make


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def prefetch_to_device(device, buffer_size=None):
    """Elements arrive on the device in scope where iteration runs (CPU here, as TensorFlow's
    ``prefetch_to_device`` to the CPU does)."""
    return lambda dataset: dataset


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    return type(choice_dataset).choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    return type(datasets[0]).sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


def get_single_element(dataset):
    return dataset.get_single_element()


def ignore_errors(log_warning=False):
    return lambda dataset: dataset.ignore_errors(log_warning)


def unbatch():
    return lambda dataset: dataset.unbatch()


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """The elements as they are (devtrace's pipelines are recomputed, not snapshotted)."""
    return lambda dataset: dataset


def copy_to_device(target_device, source_device="/cpu:0"):
    return lambda dataset: dataset


def at(dataset, index):
    """The element at ``index`` (TensorFlow's error out of range)."""
    for i, element in enumerate(dataset):
        if i == int(index):
            return element
    raise OutOfRangeError(f"Index {int(index)} is out of range.")


def get_next_as_optional(iterator):
    return iterator.get_next_as_optional()


def enable_debug_mode():
    """Nothing to change: devtrace's pipelines already run in order, one element at a time."""


class Reducer:
    """``tf.data.experimental.Reducer``: how ``group_by_reducer`` folds a group's elements."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self.init_func, self.reduce_func, self.finalize_func = init_func, reduce_func, finalize_func


def group_by_reducer(key_func, reducer):
    """Each key's elements folded by ``reducer``, one element per key in the order keys appear."""
    def apply(dataset):
        states, order = {}, []
        for element in dataset:
            key = key_func(*element) if isinstance(element, tuple) else key_func(element)
            k = key.numpy().item()
            if k not in states:
                states[k] = reducer.init_func(key)
                order.append((k, key))
            states[k] = reducer.reduce_func(states[k], element)
        finals = [reducer.finalize_func(key, states[k]) for k, key in order]
        return type(dataset).from_tensor_slices(_stacked(finals)) if finals else dataset.take(0)
    return apply


def _stacked(values: list):
    return map_structure(lambda *xs: np.stack([x.numpy() if hasattr(x, "numpy") else np.asarray(x) for x in xs]),
                         *values)


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    return lambda dataset: dataset.map(lambda serialized: parse_example(serialized, features))


class TFRecordWriter:
    """``tf.data.experimental.TFRecordWriter(filename, compression_type)``: ``write(dataset)``
    writes a dataset of strings as one TFRecord file."""

    def __init__(self, filename, compression_type=None):
        self._filename, self._compression = filename, compression_type

    def write(self, dataset):
        with _Writer(self._filename, TFRecordOptions(compression_type=self._compression or "")) as writer:
            for record in dataset:
                writer.write(record.numpy())


def pad_to_cardinality(cardinality, mask_key="valid"):
    """Dict elements padded with zeros up to ``cardinality``, ``mask_key`` telling the real ones."""
    def apply(dataset):
        if not isinstance(dataset._spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        have = dataset._cardinality
        if have < 0 or have > cardinality:
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a cardinalty less than the "
                             f"target cardinality ({cardinality}), but has cardinality {have}")
        spec = dataset._spec

        def source():
            for element in dataset._source():
                yield {**element, mask_key: np.asarray(True)}
            for _ in range(cardinality - have):
                padding = {k: np.zeros(tuple(s.shape), object if s.dtype.name == "string" else s.dtype.np)
                           for k, s in spec.items()}
                yield {**padding, mask_key: np.asarray(False)}
        return dataset._new(source, {**spec, mask_key: TensorSpec((), dtypes.bool_)}, cardinality,
                            "_PadToCardinalityDataset")
    return apply
