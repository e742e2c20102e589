"""``tf.data.experimental.DatasetInitializer``, ``table_from_dataset`` and ``index_table_from_dataset``:
``tf.lookup`` tables filled from a dataset of ``(key, value)`` scalars. TensorFlow initialises them with
its ``InitializeTableFromDataset`` op; devtrace reads the dataset and imports its pairs
(``LookupTableImportV2``), so the table holds the same entries."""

from __future__ import annotations

import numpy as np

from ..ops.lookup.lookup_ops import KeyValueTensorInitializer, StaticHashTable
from ..runtime import dtypes
from ..runtime.values import constant



def _check(element_spec):
    base = ("Datasets used to initialize lookup tables must produce elements in the form (key, value), where the "
            "keys and values are scalar tensors. ")
    if not isinstance(element_spec, (tuple, list, dict)):  # TensorFlow takes its len() first
        raise TypeError(f"object of type '{type(element_spec).__name__}' has no len()")
    if len(element_spec) != 2:
        raise ValueError(base + f"However, the given dataset produces {len(element_spec)} components instead of two "
                                f"(key, value) components. Full dataset element spec: {element_spec}.")
    for which, spec in zip(("key", "value"), element_spec):
        if spec.shape.rank not in (None, 0):
            raise ValueError(base + f"However, the given dataset produces non-scalar {which} Tensors of rank "
                                    f"{spec.shape.rank}.")


class DatasetInitializer(KeyValueTensorInitializer):
    """A table's contents: the ``(key, value)`` pairs a dataset produces."""

    def __init__(self, dataset):
        self.dataset = dataset
        spec = dataset.element_spec
        _check(spec)
        self._key_type, self._value_type = spec[0].dtype, spec[1].dtype
        keys, values = [], []
        for k, v in dataset:
            keys.append(k.numpy())
            values.append(v.numpy())
        super().__init__(constant(np.array(keys, dtype=self._key_type.np if self._key_type != dtypes.string
                                           else object), self._key_type),
                         constant(np.array(values, dtype=self._value_type.np if self._value_type != dtypes.string
                                           else object), self._value_type))


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None, hasher_spec=None,
                       key_dtype=dtypes.string, name=None):
    """A ``StaticHashTable`` of the dataset's ``(key, value)`` pairs (the first ``vocab_size``)."""
    spec = dataset.element_spec
    _check(spec)
    if default_value is None:
        default_value = -1
        if not (spec[1].dtype.is_integer or spec[1].dtype.is_floating):
            raise ValueError(f"`default_value` must be specified when creating a table from a dataset that produces "
                             f"values of type {spec[1].dtype}.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got {num_oov_buckets}.")
    if vocab_size is not None and not hasattr(vocab_size, "dtype") and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    key_dtype = dtypes.as_dtype(key_dtype)
    if not key_dtype.is_integer and key_dtype != dtypes.string:
        raise TypeError(f"`key_dtype` must be either an integer or string type, but got {key_dtype}")
    if num_oov_buckets:
        raise NotImplementedError("devtrace does not implement tf.data.experimental.table_from_dataset's "
                                  "num_oov_buckets yet")
    if vocab_size is not None:
        dataset = dataset.take(int(vocab_size))
    return StaticHashTable(DatasetInitializer(dataset), default_value)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=None,
                             key_dtype=dtypes.string, name=None):
    """A table of each element's index in the dataset (its values are the keys)."""
    return table_from_dataset(dataset.enumerate().map(lambda v, k: (k, v)), num_oov_buckets, vocab_size,
                              default_value, hasher_spec, key_dtype, name)
