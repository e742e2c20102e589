"""``keras.tree``: nested structures (lists, tuples, dicts by sorted key, ``None`` a leaf) on
devtrace's ``tf.nest``, and ``traverse``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

from ..util import nest


def is_nested(structure):
    return nest.is_nested(structure)


def flatten(structure):
    return nest.flatten(structure)


def map_structure(func, *structures, none_is_leaf=True):
    return nest.map_structure(func, *structures)


def pack_sequence_as(structure, flat_sequence, sequence_fn=None):
    return nest.pack_sequence_as(structure, flat_sequence)


def assert_same_structure(a, b, check_types=None):
    nest.assert_same_structure(a, b)


def _children(node, visit):
    if isinstance(node, dict):
        done = {k: visit(node[k]) for k in sorted(node)}
        return type(node)((k, done[k]) for k in node)
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        return type(node)(*[visit(c) for c in node])
    return type(node)(visit(c) for c in node)


def traverse(func, structure, top_down=True):
    """``func`` on every node: top down, a node for which it returns a value is replaced by it and
    not entered; bottom up, it sees each node with its children already traversed."""
    def visit(node):
        if top_down:
            replaced = func(node)
            if replaced is not None:
                return replaced
            return _children(node, visit) if nest.is_nested(node) else node
        if nest.is_nested(node):
            node = _children(node, visit)
        replaced = func(node)
        return node if replaced is None else replaced

    return visit(structure)


__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as", "traverse"]
__getattr__ = _missing("keras.tree")
