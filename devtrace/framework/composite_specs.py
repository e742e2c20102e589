"""The ``tf.TypeSpec``s of TensorFlow's composite values that are no tensor: ``tf.IndexedSlicesSpec``,
``tf.NoneTensorSpec``, ``tf.TensorArraySpec`` (``tf.OptionalSpec`` is ``data``'s). Each is its
constructor's fields, compared and printed as TensorFlow's (``_serialize``), compatible with a spec or
value whose fields are (shapes compatible, the rest equal)."""

from __future__ import annotations

from ..ops.control_flow.tensor_array_ops import TensorArray
from ..ops.sparse.indexed_slices import IndexedSlices
from ..runtime import dtypes
from ..runtime.tensor_shape import TensorShape
from .type_spec import TypeSpec


class CompositeSpec:
    """What the specs share: ``_serialize()`` (their fields, in TensorFlow's order) makes the rest."""

    def _serialize(self) -> tuple:
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(f) for f in self._serialize())})"

    def _key(self) -> tuple:
        return tuple((None if f.rank is None else tuple(f)) if isinstance(f, TensorShape) else f
                     for f in self._serialize())

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, self._key()))

    def is_compatible_with(self, spec_or_value) -> bool:
        other = spec_or_value if isinstance(spec_or_value, CompositeSpec) else self.from_value(spec_or_value)
        if type(other) is not type(self):
            return False
        for a, b in zip(self._serialize(), other._serialize()):
            if isinstance(a, TensorShape) and isinstance(b, TensorShape):
                if not a.is_compatible_with(b):
                    return False
            elif a != b:
                return False
        return True

    @classmethod
    def from_value(cls, value):
        raise NotImplementedError


class IndexedSlicesSpec(CompositeSpec):
    """``tf.IndexedSlicesSpec``."""

    value_type = IndexedSlices

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64, dense_shape_dtype=None,
                 indices_shape=None):
        self._shape = TensorShape(shape)
        self._values_dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape(indices_shape if indices_shape is not None else [None])

    def _serialize(self) -> tuple:
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype, self._indices_shape)

    @classmethod
    def from_value(cls, value):
        if not isinstance(value, IndexedSlices):
            return None
        dense = value.dense_shape
        return cls(value.shape, value.values.dtype, value.indices.dtype, None if dense is None else dense.dtype,
                   value.indices.shape)


class NoneTensor:
    """TensorFlow's ``NoneTensor``: ``None`` as a composite value (what ``NoneTensorSpec`` types)."""


class NoneTensorSpec(CompositeSpec):
    """``tf.NoneTensorSpec``: the type of ``None`` among composite values."""

    value_type = NoneTensor

    def _serialize(self) -> tuple:
        return ()

    @classmethod
    def from_value(cls, value):
        return cls() if value is None or isinstance(value, NoneTensor) else None


class TensorArraySpec(CompositeSpec):
    """``tf.TensorArraySpec``."""

    value_type = TensorArray

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False, infer_shape=True):
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    def _serialize(self) -> tuple:
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    @classmethod
    def from_value(cls, value):
        if not isinstance(value, TensorArray):
            return None
        return cls(value._shape_cell[0], value.dtype, value.dynamic_size, True)


for _spec in (IndexedSlicesSpec, NoneTensorSpec, TensorArraySpec):
    TypeSpec.register(_spec)
