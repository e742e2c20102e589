"""``tf.TypeSpec``: the type of a tensor-like value. The specs devtrace defines elsewhere
(``TensorSpec``, ``RaggedTensorSpec``, ``SparseTensorSpec``) are registered as its subclasses,
so ``isinstance(spec, tf.TypeSpec)`` answers as TensorFlow's does."""

from __future__ import annotations

import abc

from ..ops.ragged.ragged_tensor import RaggedTensorSpec
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..polymorphic_function.function import TensorSpec


class TypeSpec(abc.ABC):  # noqa: B024 (an ABC for isinstance: it declares no abstract methods)
    """``tf.TypeSpec``."""

    value_type = None


for _spec in (TensorSpec, RaggedTensorSpec, SparseTensorSpec):
    TypeSpec.register(_spec)
