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


def map_structure_up_to(shallow_structure, func, *structures):
    """``func`` on the subtrees of ``structures`` at the leaves of ``shallow_structure`` (Keras's
    optree form: a ``None`` in ``shallow_structure`` is not taken for a leaf there, so it fails as
    Keras 3.15 fails: "Structures don't have the same nested structure.")."""
    if not structures:
        raise ValueError("Must provide at least one structure")

    def walk(shallow, subtrees):
        if not nest.is_nested(shallow):
            if shallow is None:
                raise ValueError("Structures don't have the same nested structure.")
            return func(*subtrees)
        for sub in subtrees:
            if isinstance(shallow, dict):
                if not isinstance(sub, dict):
                    raise ValueError(f"Expected an instance of dict, got {sub!r}.")
                if set(sub) != set(shallow):
                    expected, got = sorted(shallow), sorted(sub)
                    raise ValueError(f"dictionary key mismatch; expected key(s): {expected}, got key(s): {got}, "
                                     f"missing key(s): {sorted(set(shallow) - set(sub))}, extra key(s): "
                                     f"{sorted(set(sub) - set(shallow))}; dict: {sub!r}.")
            elif type(sub) is not type(shallow):
                raise ValueError(f"Expected an instance of {type(shallow).__name__}, got {sub!r}.")
            elif len(sub) != len(shallow):
                raise ValueError(f"{type(shallow).__name__} arity mismatch; expected: {len(shallow)}, got: "
                                 f"{len(sub)}; {type(shallow).__name__}: {sub!r}.")
        if isinstance(shallow, dict):
            done = {k: walk(shallow[k], [sub[k] for sub in subtrees]) for k in sorted(shallow)}
            return type(shallow)((k, done[k]) for k in shallow)
        parts = [walk(child, [sub[i] for sub in subtrees]) for i, child in enumerate(shallow)]
        return type(shallow)(*parts) if hasattr(shallow, "_fields") else type(shallow)(parts)
    return walk(shallow_structure, structures)


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


__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "map_structure_up_to", "pack_sequence_as",
           "traverse"]
__getattr__ = _missing("keras.tree")
