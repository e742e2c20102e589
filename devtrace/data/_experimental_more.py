"""More of ``tf.data.experimental``: the batching transformations TensorFlow 2.21 keeps as
deprecated aliases (``dense_to_sparse_batch``, ``dense_to_ragged_batch``) and the names that need
something devtrace does not have — a tf.data service, TF1's savers, the autotuner's model — which
fail as TensorFlow 2.21 does where it fails (eagerly), else in one line."""

from __future__ import annotations

import numpy as np

from ._sparse import HostSparse
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..runtime import dtypes


def sparse_batch(dataset, batch_size, row_shape):
    """``Dataset.sparse_batch``: each element (of rank ``len(row_shape)``) as the rows of one
    SparseTensor batch, every position of it a value, the dense shape ``[batch, *row_shape]``."""
    row_shape = [int(d) for d in row_shape]
    spec = dataset._spec
    if not hasattr(spec, "dtype") or isinstance(spec, SparseTensorSpec):
        raise NotImplementedError("devtrace does not implement Dataset.sparse_batch of structured elements yet")

    def source():
        for chunk in dataset._chunks(batch_size, False):
            indices, values = [], []
            for k, element in enumerate(chunk):
                element = np.asarray(element)
                if element.ndim != len(row_shape):
                    raise ValueError(f"Input element rank {element.ndim} does not match row_shape rank "
                                     f"{len(row_shape)}")
                for position in np.ndindex(*element.shape):
                    indices.append((k,) + position)
                    values.append(element[position])
            yield HostSparse(np.array(indices, np.int64).reshape(-1, 1 + len(row_shape)),
                             np.array(values, element.dtype), [len(chunk)] + row_shape)
    card = dataset._cardinality if dataset._cardinality < 0 else -(-dataset._cardinality // batch_size)
    return dataset._new(source, SparseTensorSpec([None] + row_shape, spec.dtype), card, "_DenseToSparseBatchDataset")


def dense_to_sparse_batch(batch_size, row_shape):
    return lambda dataset: sparse_batch(dataset, batch_size, row_shape)


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


def _lacks(name, why):
    def fail(*args, **kwargs):
        raise NotImplementedError(f"devtrace does not implement tf.data.experimental.{name} yet ({why})")
    fail.__name__ = name
    return fail


distributed_save = _lacks("distributed_save", "it needs a tf.data service dispatcher, which TensorFlow waits for")


def make_saveable_from_iterator(iterator, external_state_policy=None):
    """TF1's ``tf.compat.v1.Saver`` helper: eagerly, TensorFlow 2.21 fails reading the iterator's
    resource name."""
    raise AttributeError("Tensor.name is undefined when eager execution is enabled.")


def get_model_proto(iterator):
    """The autotuner's model of an iterator's pipeline (a ``ModelProto``), which devtrace has no
    autotuner to give; TensorFlow's ``ValueError`` for anything but an iterator."""
    if not callable(getattr(iterator, "get_next", None)):  # a tf.data.Iterator
        raise ValueError("Only supports `tf.data.Iterator`-typed `iterator`.")
    raise NotImplementedError("devtrace does not implement tf.data.experimental.get_model_proto yet (it has no "
                              "autotuner whose model it could give)")
