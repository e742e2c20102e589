"""``tf.OptionalSpec``: the type of a ``tf.experimental.Optional``, its element's spec."""

from __future__ import annotations

from ..framework.composite_specs import CompositeSpec
from ..framework.type_spec import TypeSpec
from ._optional import Optional


class OptionalSpec(CompositeSpec):
    """``tf.OptionalSpec``."""

    value_type = Optional

    def __init__(self, element_spec):
        self._element_spec = element_spec

    def _serialize(self) -> tuple:
        return (self._element_spec,)

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"

    @classmethod
    def from_value(cls, value):
        return cls(value.element_spec) if isinstance(value, Optional) else None


TypeSpec.register(OptionalSpec)
