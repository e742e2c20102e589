"""Extension type values (``tf.experimental.ExtensionType``) in a pipeline.

A pipeline's elements are structures of host arrays that ``tf.nest`` walks; an extension type
value is carried as a *record*: a mapping of its tensors (``_nest_components``' order) whose type
remembers the value it came from, so ``nest`` slices, stacks and converts its tensors as any
others, and the value is rebuilt (its other fields the original's) where a program sees it: the
iterator's elements, the arguments of ``map``/``filter``'s functions, ``element_spec``."""

from __future__ import annotations

from collections.abc import Mapping


class Record(dict):
    """The tensors of one extension type value; ``_template``: that value (a subclass per value)."""

    _template = None


def _extension(value) -> bool:
    return hasattr(type(value), "_tf_extension_type_fields")


def records(value):
    """``value`` with its extension type values as records."""
    if _extension(value):
        kind = type("Record", (Record,), {"_template": value})
        return kind((f"{i:06d}", records(part)) for i, part in enumerate(value._nest_components()))
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return type(value)(*[records(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(records(v) for v in value)
    if isinstance(value, Mapping) and not isinstance(value, Record):
        return type(value)((k, records(v)) for k, v in value.items())
    return value


def values(value):
    """``records``' inverse: each record rebuilt as its extension type (its tensors now these)."""
    if isinstance(value, Record):
        return _shaped(value._template, value._template._nest_rebuild([values(value[k]) for k in sorted(value)]))
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return type(value)(*[values(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(values(v) for v in value)
    if isinstance(value, Mapping):
        return type(value)((k, values(v)) for k, v in value.items())
    return value


def _shaped(template, value):
    """A batchable value's ``TensorShape`` fields after its tensors were sliced or stacked (a batch
    element of a ``shape=(2,)`` value has ``shape=()``, as TensorFlow's batch encoder gives)."""
    if not hasattr(template, "_with_shapes"):
        return value
    before = next((p for p in template._nest_components() if hasattr(p, "shape")), None)
    after = next((p for p in value._nest_components() if hasattr(p, "shape")), None)
    if before is None or after is None or before.shape.rank is None or after.shape.rank is None:
        return value
    lost = before.shape.rank - after.shape.rank
    if lost > 0:
        return template._with_shapes(value, lambda dims: dims[lost:])
    if lost < 0:
        return template._with_shapes(value, lambda dims: list(after.shape.as_list()[:-lost]) + dims)
    return value


def specs(value):
    """An element spec with each record as its extension type's ``Spec``."""
    if isinstance(value, Record):
        return _shaped(value._template, value._template._nest_rebuild([specs(value[k]) for k in sorted(value)]))._type_spec
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return type(value)(*[specs(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(specs(v) for v in value)
    if isinstance(value, Mapping):
        return type(value)((k, specs(v)) for k, v in value.items())
    return value
