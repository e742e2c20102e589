"""``tf.SparseTensor``: ``indices``, ``values`` and ``dense_shape``, as three tensors (its ops:
``ragged_ops``, ``sparse_ops``)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.tensor import TensorShape
from ...runtime.values import constant
from ...runtime.graph.tensor import SymbolicTensor
from .. import static_values
from ..declare import as_tensor, public


def _int64(value):
    """An int64 part: a graph's tensor as it is (a parse op's outputs in a tf.function), else a constant."""
    if isinstance(value, SymbolicTensor) and value.dtype == dtypes.int64:
        return value
    return constant(np.asarray(value, np.int64), dtypes.int64)


class _TensorFlowClass(type):
    """A class that shows itself by TensorFlow's module path, as ``type(x)`` and specs' ``value_type`` print."""

    def __repr__(cls):
        return f"<class '{cls._tf_path}'>"


@public("sparse.SparseTensor", "SparseTensor")
class SparseTensor(metaclass=_TensorFlowClass):
    _tf_path = "tensorflow.python.framework.sparse_tensor.SparseTensor"

    def __init__(self, indices, values, dense_shape):
        self.indices = _int64(indices)
        self.values = as_tensor(values)
        self.dense_shape = _int64(dense_shape)

    dtype = property(lambda self: self.values.dtype)

    @property
    def shape(self):
        """The dense shape; in a graph what the graph knows of it (a parsed ``VarLenFeature``: ``[None]``)."""
        if isinstance(self.dense_shape, SymbolicTensor):
            known = static_values.constant_value_as_shape(self.dense_shape)
            if known is None:
                n = self.dense_shape.shape[0] if self.dense_shape.shape.rank == 1 else None
                return TensorShape(None if n is None else [None] * int(n))
            return TensorShape(list(known))
        return TensorShape(self.dense_shape.numpy().tolist())

    def _nest_components(self) -> list:
        """``tf.nest``'s view with ``expand_composites=True``: indices, values, dense shape."""
        return [self.indices, self.values, self.dense_shape]

    def _nest_rebuild(self, parts: list):
        return SparseTensor(*parts)

    def __repr__(self):
        return f"SparseTensor(indices={self.indices!s}, values={self.values!s}, dense_shape={self.dense_shape!s})"

    __str__ = __repr__
