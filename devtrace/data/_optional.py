"""``tf.experimental.Optional`` as ``Iterator.get_next_as_optional`` returns it: a value or none."""

from __future__ import annotations

from ..errors import InvalidArgumentError
from ..polymorphic_function.function import TensorSpec
from ..runtime import dtypes
from ..runtime.tensor import Tensor
from ..runtime.values import constant, convert_to_tensor
from ..util.nest import map_structure


class Optional:
    def __init__(self, value, element_spec, has_value: bool):
        self._value, self._spec, self._has = value, element_spec, has_value

    @staticmethod
    def from_value(value):
        """An optional holding ``value`` (its tensors, the Python values converted)."""
        value = map_structure(lambda v: v if hasattr(type(v), "_nest_components") else convert_to_tensor(v), value)
        spec = map_structure(lambda v: TensorSpec.from_tensor(v) if isinstance(v, Tensor) else v._type_spec, value)
        return Optional(value, spec, True)

    @staticmethod
    def empty(element_spec):
        return Optional(None, element_spec, False)

    def has_value(self, name=None):
        return constant(self._has, dtypes.bool_)

    def get_value(self, name=None):
        if not self._has:
            raise InvalidArgumentError("The optional does not have a value")
        return self._value

    @property
    def element_spec(self):
        return self._spec
