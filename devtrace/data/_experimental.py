"""``tf.data.experimental``'s functions over datasets: the transformations it offers as
``dataset.apply(fn)`` arguments and the queries (``cardinality``, ``get_structure``). They reach
datasets through their methods only; ``data`` assembles the namespace."""

from __future__ import annotations


def cardinality(dataset):
    return dataset.cardinality()


def get_structure(dataset_or_iterator):
    return dataset_or_iterator.element_spec


def assert_cardinality(expected_cardinality):
    def apply(dataset):
        out = dataset._new(dataset._source, dataset._spec, int(expected_cardinality), "_AssertCardinalityDataset")
        return out
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
