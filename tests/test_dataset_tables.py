"""tf.data.experimental.DatasetInitializer, table_from_dataset, index_table_from_dataset (issue 28):
tables filled from datasets, with the lookups and error tensorflow-cpu 2.21 printed for the same calls."""

from __future__ import annotations

import pytest

import devtrace as tf
from devtrace.runtime.context import reset_context


def test_tables_from_datasets():
    reset_context()
    ds = tf.data.Dataset.range(10).map(lambda x: tf.strings.as_string(x * 2))
    table = tf.data.experimental.index_table_from_dataset(ds, key_dtype=tf.string)
    assert table.lookup(tf.constant(["0", "2", "4", "zz"])).numpy().tolist() == [0, 1, 2, -1]
    pairs = tf.data.Dataset.zip((tf.data.Dataset.range(5), tf.data.Dataset.range(5).map(lambda x: x * 10)))
    table = tf.data.experimental.table_from_dataset(pairs, vocab_size=3, key_dtype=tf.int64)
    assert table.lookup(tf.constant([0, 2, 3], tf.int64)).numpy().tolist() == [0, 20, -1] and int(table.size()) == 3
    init = tf.data.experimental.DatasetInitializer(pairs)
    assert tf.lookup.StaticHashTable(init, -5).lookup(tf.constant([4, 9], tf.int64)).numpy().tolist() == [40, -5]


def test_a_dataset_of_one_component_fails_as_in_tensorflow():
    reset_context()
    with pytest.raises(TypeError, match=r"^object of type 'TensorSpec' has no len\(\)$"):
        tf.data.experimental.DatasetInitializer(tf.data.Dataset.range(3))
