"""``tf.experimental.Optional`` as ``Iterator.get_next_as_optional`` returns it: a value or none."""

from __future__ import annotations

from ..errors import InvalidArgumentError
from ..runtime import dtypes
from ..runtime.values import constant


class Optional:
    def __init__(self, value, element_spec, has_value: bool):
        self._value, self._spec, self._has = value, element_spec, has_value

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
