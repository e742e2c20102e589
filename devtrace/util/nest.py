"""``tf.nest``: nested structures of lists, tuples (namedtuples too) and mappings (walked in
sorted key order, as TensorFlow's ``nest`` walks them). With ``expand_composites=True`` a
``RaggedTensor`` is its flat values and row splits, a ``SparseTensor`` its indices, values and
dense shape. Mismatched structures raise TensorFlow's errors (``ValueError``, or ``TypeError``
when only the sequence types differ), with its messages.
"""

from __future__ import annotations

from collections.abc import Mapping

from .namespace import Namespace


def _composite(x) -> bool:
    """A composite tensor (``RaggedTensor``, ``SparseTensor``) says how it splits into tensors
    (TensorFlow's ``CompositeTensor`` protocol), so ``nest`` needs none of the ops."""
    return hasattr(type(x), "_nest_components")


def _components(x) -> list:
    return x._nest_components()


def _rebuild(x, parts: list):
    return x._nest_rebuild(parts)


def _is_namedtuple(s) -> bool:
    return isinstance(s, tuple) and hasattr(type(s), "_fields")


def _nested(s, composites=False) -> bool:
    return isinstance(s, (Mapping, list, tuple)) or composites and _composite(s)


def _children(s, composites=False) -> list:
    if isinstance(s, Mapping):
        return [s[k] for k in sorted(s)]
    if composites and _composite(s):
        return _components(s)
    return list(s)


def is_nested(seq) -> bool:
    return _nested(seq)


def flatten(structure, expand_composites=False) -> list:
    if _nested(structure, expand_composites):
        return [x for child in _children(structure, expand_composites) for x in flatten(child, expand_composites)]
    return [structure]


def _count(structure, composites) -> int:
    if _nested(structure, composites):
        return sum(_count(c, composites) for c in _children(structure, composites))
    return 1


def _same_kind(s, items: list):
    """A structure of ``s``'s type holding ``items`` (in ``_children``'s order)."""
    if isinstance(s, Mapping):
        by_key = dict(zip(sorted(s), items))
        pairs = [(k, by_key[k]) for k in s]
        try:
            return dict(pairs) if type(s) is dict else type(s)(pairs)
        except TypeError:  # a mapping type that is not built from pairs
            return dict(pairs)
    if _is_namedtuple(s):
        return type(s)(*items)
    if isinstance(s, (list, tuple)):
        return type(s)(items) if type(s) in (list, tuple) else items if isinstance(s, list) else tuple(items)
    return _rebuild(s, items)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """``flat_sequence`` in the shape of ``structure``."""
    flat_sequence = list(flat_sequence)
    if not _nested(structure, expand_composites):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    atoms = _count(structure, expand_composites)
    if atoms != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {atoms} atoms, but flat_sequence had "
                         f"{len(flat_sequence)} items.  Structure: {structure}, flat_sequence: {flat_sequence}.")
    return _build(structure, iter(flat_sequence), expand_composites)


def _build(s, it, expand_composites):
    """``s`` rebuilt from the atoms ``it`` yields. A module function, not a closure calling itself:
    that closure is a reference cycle, and the atoms (eager tensors, their device memory) would
    wait for the garbage collector instead of going when the last reference does."""
    if _nested(s, expand_composites):
        return _same_kind(s, [_build(c, it, expand_composites) for c in _children(s, expand_composites)])
    return next(it)


def _show(s) -> str:
    return f"type={type(s).__name__} str={s}"


def _dots(s) -> str:
    """The structure with its atoms as dots, as TensorFlow's error messages draw it."""
    if isinstance(s, Mapping):
        return "{" + ", ".join(f"{k!r}: {_dots(v)}" for k, v in s.items()) + "}"
    if _is_namedtuple(s):
        return f"{type(s).__name__}(" + ", ".join(f"{f}={_dots(v)}" for f, v in zip(type(s)._fields, s)) + ")"
    if isinstance(s, list):
        return "[" + ", ".join(_dots(v) for v in s) + "]"
    if isinstance(s, tuple):
        return "(" + ", ".join(_dots(v) for v in s) + ("," if len(s) == 1 else "") + ")"
    return "."


def _mismatch(a, b, check_types, composites):
    """Why ``a`` and ``b`` differ: ``(error class, detail)``, or ``None``."""
    if _nested(a, composites) != _nested(b, composites):
        seq, other = (a, b) if _nested(a, composites) else (b, a)
        return ValueError, f'Substructure "{_show(seq)}" is a sequence, while substructure "{_show(other)}" is not'
    if not _nested(a, composites):
        return None
    if check_types and type(a) is not type(b) and not (isinstance(a, Mapping) and isinstance(b, Mapping)):
        return TypeError, (f"The two namedtuples don't have the same sequence type. First structure {_show(a)} has "
                           f"type {type(a).__name__}, while second structure {_show(b)} has type {type(b).__name__}")
    if isinstance(a, Mapping) and isinstance(b, Mapping) and set(a) != set(b):
        return ValueError, (f"The two dictionaries don't have the same set of keys. First structure has keys "
                            f"{_show(list(a))}, while second structure has keys {_show(list(b))}")
    ca, cb = _children(a, composites), _children(b, composites)
    if len(ca) != len(cb):
        return ValueError, (f"The two structures don't have the same number of elements. First structure: {_show(a)}. "
                            f"Second structure: {_show(b)}")
    for x, y in zip(ca, cb):
        found = _mismatch(x, y, check_types, composites)
        if found:
            return found
    return None


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False) -> None:
    found = _mismatch(nest1, nest2, check_types, expand_composites)
    if found:
        error, detail = found
        raise error(f"The two structures don't have the same nested structure.\n\nFirst structure: {_show(nest1)}\n\n"
                    f"Second structure: {_show(nest2)}\n\nMore specifically: {detail}\nEntire first structure:\n"
                    f"{_dots(nest1)}\nEntire second structure:\n{_dots(nest2)}")


def map_structure(func, *structure, check_types=True, expand_composites=False):
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types, expand_composites=expand_composites)
    columns = [flatten(s, expand_composites) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*columns)], expand_composites=expand_composites)


namespace = Namespace(_prefix="nest", flatten=flatten, pack_sequence_as=pack_sequence_as,
                      map_structure=map_structure, assert_same_structure=assert_same_structure, is_nested=is_nested)
