"""``tf.nest``: nested structures of lists, tuples and dicts (dicts in sorted key order, as
TensorFlow's ``nest`` walks them)."""

from __future__ import annotations

from .namespace import Namespace


def flatten(structure) -> list:
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in flatten(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [x for item in structure for x in flatten(item)]
    return [structure]


def pack_sequence_as(structure, flat_sequence):
    """``flat_sequence`` in the shape of ``structure``."""
    it = iter(flat_sequence)

    def build(s):
        if isinstance(s, dict):  # filled in sorted key order, keys in the structure's order
            built = {k: build(s[k]) for k in sorted(s)}
            return {k: built[k] for k in s}
        if isinstance(s, (list, tuple)):
            items = [build(x) for x in s]
            return items if isinstance(s, list) else tuple(items)
        return next(it)

    return build(structure)


def map_structure(fn, structure):
    return pack_sequence_as(structure, [fn(x) for x in flatten(structure)])


namespace = Namespace(_prefix="nest", flatten=flatten, pack_sequence_as=pack_sequence_as,
                      map_structure=map_structure)
