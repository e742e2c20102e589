"""Optional ops (TensorFlow's optional_ops): a ``variant`` tensor that holds one value or none.

The gradient of a ``tf.cond`` in a function reads the intermediates of the branch that ran
through them: the forward ``If`` outputs ``OptionalFromValue`` of each in the branch that made
it and ``OptionalNone`` in the others, its gradient's branches ``OptionalGetValue`` of them
(``devtrace/backprop/cond_grad.py``). The value is a ``dtypes.ListValue`` of zero or one item.
"""

from __future__ import annotations

from ...runtime import dtypes
from ...runtime.dtypes import ListValue
from ...runtime.registry import ALL_TYPES, CPU, GPU
from ..declare import op

_TYPES = {CPU: ALL_TYPES, GPU: ALL_TYPES}


def _variant(name, shapes, attrs, dtype):
    return dtypes.variant, ()


def _get_value(xp, optional, output_types=("float32",), output_shapes=(None,)):
    items = list(optional[()])
    if not items:
        raise ValueError("The optional does not have a value")  # the step makes it InvalidArgumentError
    return items[0].copy()


def _value_shape(name, shapes, attrs, dtype):
    return dtypes.as_dtype(attrs["output_types"][0]), attrs["output_shapes"][0]


op("OptionalFromValue", lambda xp, value, **attrs: ListValue.of([value]), _TYPES, shape=_variant, mixed_dtypes=True)
op("OptionalNone", lambda xp: ListValue.of([]), _TYPES, shape=_variant)
op("OptionalGetValue", _get_value, _TYPES, shape=_value_shape, mixed_dtypes=True)
