"""``tf.SparseTensor``: ``indices``, ``values`` and ``dense_shape``, as three tensors (its ops:
``ragged_ops``, ``sparse_ops``)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.tensor import TensorShape
from ...runtime.values import constant
from ..declare import as_tensor, public


class _TensorFlowClass(type):
    """A class that shows itself by TensorFlow's module path, as ``type(x)`` and specs' ``value_type`` print."""

    def __repr__(cls):
        return f"<class '{cls._tf_path}'>"


@public("sparse.SparseTensor", "SparseTensor")
class SparseTensor(metaclass=_TensorFlowClass):
    _tf_path = "tensorflow.python.framework.sparse_tensor.SparseTensor"

    def __init__(self, indices, values, dense_shape):
        self.indices = constant(np.asarray(indices, np.int64), dtypes.int64)
        self.values = as_tensor(values)
        self.dense_shape = constant(np.asarray(dense_shape, np.int64), dtypes.int64)

    dtype = property(lambda self: self.values.dtype)
    shape = property(lambda self: TensorShape(self.dense_shape.numpy().tolist()))

    def _nest_components(self) -> list:
        """``tf.nest``'s view with ``expand_composites=True``: indices, values, dense shape."""
        return [self.indices, self.values, self.dense_shape]

    def _nest_rebuild(self, parts: list):
        return SparseTensor(*parts)

    def __repr__(self):
        return f"SparseTensor(indices={self.indices!s}, values={self.values!s}, dense_shape={self.dense_shape!s})"

    __str__ = __repr__
