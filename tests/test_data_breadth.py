"""tf.data's transformations beyond the basics, against what TensorFlow 2.21 gives for the same
pipelines (printed by a probe in the TensorFlow venv, /work/tfvenv, 2026-11-28)."""

import numpy as np
import pytest

import devtrace as tf


def values(dataset):
    return [np.asarray(v).tolist() for v in dataset.as_numpy_iterator()]


def test_interleave_cycles_blocks_and_refills_slots_as_tensorflow():
    ds = tf.data.Dataset.range(10)
    assert values(ds.interleave(lambda x: tf.data.Dataset.range(x, x + 3), cycle_length=3, block_length=2)
                  .take(12)) == [0, 1, 1, 2, 2, 3, 2, 3, 4, 3, 4, 4]
    assert values(ds.interleave(lambda x: tf.data.Dataset.range(x % 3), cycle_length=2)) == \
        [0, 0, 1, 0, 0, 1, 0, 0, 1]


def test_cardinalities_of_shard_and_concatenate():
    assert tf.data.Dataset.range(10).shard(3, 1).cardinality().numpy() == 3
    infinite = tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(2).repeat())
    assert infinite.cardinality().numpy() == tf.data.INFINITE_CARDINALITY


def test_group_by_window_flushes_partial_windows_by_key():
    grouped = tf.data.Dataset.range(6).group_by_window(lambda x: x % 3, lambda k, d: d.batch(4), window_size=4)
    assert values(grouped) == [[0, 3], [1, 4], [2, 5]]


def test_rebatch_with_a_list_of_sizes():
    assert values(tf.data.Dataset.range(5).batch(2).rebatch([3, 1])) == [[0, 1, 2], [3], [4]]


def test_errors_are_tensorflows():
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options."):
        tf.data.Options().foo = 1
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Number of shards must be greater than zero "
                                                             r"\(currently num_shards = 0\)"):
        tf.data.Dataset.range(3).shard(0, 0)
    with pytest.raises(TypeError, match="Two datasets to concatenate have different types"):
        tf.data.Dataset.range(3).concatenate(tf.data.Dataset.from_tensor_slices(["a"]))


def test_dataset_random_is_tensorflows_philox_stream():
    # TensorFlow 2.21: tf.data.Dataset.random(seed=4).take(4), with the global seed unset and set to 3
    assert values(tf.data.Dataset.random(seed=4).take(4)) == [3128586565, 2023892699, 452966358, 4293674553]
    tf.random.set_seed(3)
    assert values(tf.data.Dataset.random(seed=4).take(2)) == [1995848961, 2377083460]


def test_text_and_fixed_length_readers(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"one\r\ntwo\nthree")
    assert values(tf.data.TextLineDataset(str(tmp_path / "a.txt"))) == [b"one", b"two", b"three"]
    (tmp_path / "b.bin").write_bytes(b"HH012345F")
    fixed = tf.data.FixedLengthRecordDataset([str(tmp_path / "b.bin")], 3, header_bytes=2, footer_bytes=1)
    assert values(fixed) == [b"012", b"345"]
    (tmp_path / "c.bin").write_bytes(b"HH0123456F")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"has body length 7 bytes, which is not an exact "
                                                             r"multiple of the record length \(3 bytes\)"):
        values(tf.data.FixedLengthRecordDataset([str(tmp_path / "c.bin")], 3, header_bytes=2, footer_bytes=1))


def test_save_and_load_keep_the_structure(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices(({"a": [1, 2]}, ["x", "y"]))
    ds.save(str(tmp_path / "saved"))
    loaded = tf.data.Dataset.load(str(tmp_path / "saved"))
    assert loaded.element_spec == ds.element_spec
    assert [(e[0]["a"].item(), e[1]) for e in loaded.as_numpy_iterator()] == [(1, b"x"), (2, b"y")]
