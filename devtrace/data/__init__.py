"""``tf.data``: ``Dataset`` basics as an eager Python pipeline — ``range``, ``from_tensor_slices``,
``from_tensors``, ``map``, ``filter``, ``batch``, ``shuffle``, ``take``, ``skip``, ``repeat``,
``enumerate``, ``zip``, ``prefetch``, ``cache``, iteration and ``reduce``. Elements are host
arrays until a step hands them out: iteration gives eager tensors (each an ``_EagerConst`` on the
device in scope, where TensorFlow runs ``IteratorGetNext`` on the CPU); ``as_numpy_iterator``
gives NumPy values. A seeded ``shuffle`` gives TensorFlow's order (its Philox words). The user
functions of ``map``, ``filter``, ``reduce`` … are traced once and run as graphs (``_functions``)."""

from __future__ import annotations

import numpy as np

from . import _lookup
from . import _experimental as data_experimental, _experimental_more as data_more
from ._optional import Optional
from ._options import (AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions, ExternalStatePolicy,
                       OptimizationOptions, Options, ServiceOptions, SHARD_HINT, ThreadingOptions)
from ._csv import csv_dataset, make_csv_dataset, sql_dataset
from ._dataset import Dataset, FixedLengthRecordDataset, TextLineDataset, TFRecordDataset, _from_list
from ._elements import AUTOTUNE, INFINITE, UNKNOWN, flatten, map_structure
from ._iterators import DatasetSpec, IteratorSpec, NumpyIterator, OwnedIterator
from ..runtime import dtypes
from ..runtime.tensor import Tensor
from ..runtime.values import constant
from ..util.namespace import Namespace, missing

INFINITE_CARDINALITY, UNKNOWN_CARDINALITY = INFINITE, UNKNOWN
DatasetV2 = Dataset
Iterator = OwnedIterator

experimental = Namespace(
    _prefix="data.experimental", AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE, UNKNOWN_CARDINALITY=UNKNOWN,
    Counter=Dataset.counter, Optional=Optional, RandomDataset=Dataset.random,
    cardinality=data_experimental.cardinality, get_structure=data_experimental.get_structure,
    assert_cardinality=data_experimental.assert_cardinality,
    bucket_by_sequence_length=data_experimental.bucket_by_sequence_length,
    group_by_window=data_experimental.group_by_window, scan=data_experimental.scan,
    unique=data_experimental.unique, take_while=data_experimental.take_while,
    enumerate_dataset=data_experimental.method_apply("enumerate"),
    shuffle_and_repeat=data_experimental.shuffle_and_repeat,
    prefetch_to_device=data_experimental.prefetch_to_device,
    save=lambda dataset, path, compression=None, shard_func=None, checkpoint_args=None: dataset.save(
        path, compression, shard_func, checkpoint_args),
    load=lambda path, element_spec=None, compression=None, reader_func=None: Dataset.load(
        path, element_spec, compression, reader_func),
    from_list=lambda elements, name=None: _from_list(elements),
    rejection_resample=lambda class_func, target_dist, initial_dist=None, seed=None: lambda dataset: (
        dataset.rejection_resample(class_func, target_dist, initial_dist, seed)),
    AutoShardPolicy=AutoShardPolicy, AutotuneAlgorithm=AutotuneAlgorithm, AutotuneOptions=AutotuneOptions,
    DistributeOptions=DistributeOptions, ExternalStatePolicy=ExternalStatePolicy,
    OptimizationOptions=OptimizationOptions, ServiceOptions=ServiceOptions, ThreadingOptions=ThreadingOptions,
    SHARD_HINT=SHARD_HINT,
    CsvDataset=lambda *args, **kwargs: csv_dataset(Dataset, *args, **kwargs),
    make_csv_dataset=lambda *args, **kwargs: make_csv_dataset(Dataset, *args, **kwargs),
    SqlDataset=lambda *args, **kwargs: sql_dataset(Dataset, *args, **kwargs),
    make_batched_features_dataset=lambda *args, **kwargs: _batched_features(*args, **kwargs),
    DatasetInitializer=_lookup.DatasetInitializer, table_from_dataset=_lookup.table_from_dataset,
    index_table_from_dataset=_lookup.index_table_from_dataset,
    **{name: getattr(data_experimental, name) for name in (
        "choose_from_datasets", "sample_from_datasets", "get_single_element", "ignore_errors", "unbatch",
        "map_and_batch", "parallel_interleave", "snapshot", "copy_to_device", "at", "get_next_as_optional",
        "enable_debug_mode", "Reducer", "group_by_reducer", "parse_example_dataset", "TFRecordWriter",
        "pad_to_cardinality")},
    **{name: getattr(data_more, name) for name in (
        "dense_to_sparse_batch", "dense_to_ragged_batch", "distributed_save", "make_saveable_from_iterator",
        "get_model_proto")})


def to_variant(dataset):
    """``tf.data.experimental.to_variant``: the dataset as a scalar variant tensor (placed as a
    constant; its value then the dataset itself)."""
    out = constant(np.array("", object), dtypes.variant)
    holder = np.empty((), object)
    holder[()] = dataset
    out._value = holder
    return out


def from_variant(variant, structure):
    """``tf.data.experimental.from_variant``: the dataset a variant tensor holds, its elements of
    ``structure``."""
    dataset = np.asarray(variant._value)[()] if isinstance(variant, Tensor) else None
    if not isinstance(dataset, Dataset):
        raise NotImplementedError("devtrace does not implement tf.data.experimental.from_variant of a variant "
                                  "that is not a dataset's yet")
    return Dataset(dataset._source, structure, dataset._cardinality, "_VariantDataset")


experimental.to_variant, experimental.from_variant = to_variant, from_variant


def _batched_features(file_pattern, batch_size, features, reader=None, label_key=None, reader_args=None,
                      num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                      prefetch_buffer_size=None, reader_num_threads=None, parser_num_threads=None,
                      sloppy_ordering=False, drop_final_batch=False):
    """``tf.data.experimental.make_batched_features_dataset``: batches of parsed ``tf.train.Example``s."""
    from ..ops.io.parsing_ops import parse_example
    from ..platform import gfile

    files = gfile.glob(file_pattern) if isinstance(file_pattern, str) else file_pattern
    dataset = (reader or TFRecordDataset)(files, *(reader_args or ()))
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)

    def parse(serialized):
        parsed = parse_example(serialized, features)
        return parsed if label_key is None else (parsed, parsed.pop(label_key))
    return dataset.batch(batch_size, drop_final_batch).map(parse)


ThreadingOptions = ThreadingOptions  # tf.data.ThreadingOptions


__getattr__ = missing("data")  # a name devtrace lacks says so (util.namespace)
