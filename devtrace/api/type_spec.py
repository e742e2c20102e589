"""``tf.type_spec_from_value``: the spec of a tensor (``TensorSpec``), RaggedTensor
(``RaggedTensorSpec``), SparseTensor (``SparseTensorSpec``) or extension type (its ``Spec``)."""

from __future__ import annotations

from ..data.optional_spec import OptionalSpec
from ..framework.composite_specs import IndexedSlicesSpec, TensorArraySpec
from ..framework.extension_type import ExtensionType
from ..ops.declare import as_tensor
from ..ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from ..polymorphic_function.function import TensorSpec


def type_spec_from_value(value):
    if isinstance(value, ExtensionType):
        return value._type_spec
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.shape, value.dtype)
    for spec in (IndexedSlicesSpec, TensorArraySpec, OptionalSpec):
        found = spec.from_value(value)
        if found is not None:
            return found
    x = as_tensor(value)
    return TensorSpec(x.shape, x.dtype)
