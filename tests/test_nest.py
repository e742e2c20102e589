"""``tf.nest``'s structure errors, as TensorFlow 2.21 raises them (class and message probed with
/work/tfvenv: ``tf.nest.assert_same_structure(a, b)`` for each pair below); the rest is its
docstring examples (tests/tf221_doctests)."""

import collections

import numpy as np
import pytest

import devtrace as tf

bar, foo = collections.namedtuple("bar", "a b"), collections.namedtuple("foo", "a b")


@pytest.mark.parametrize("a,b,error,message", [
    ([0, 1], np.array([0, 1]), ValueError,
     "The two structures don't have the same nested structure.\n\nFirst structure: type=list str=[0, 1]\n\n"
     "Second structure: type=ndarray str=[0 1]\n\nMore specifically: Substructure \"type=list str=[0, 1]\" is a "
     "sequence, while substructure \"type=ndarray str=[0 1]\" is not\nEntire first structure:\n[., .]\n"
     "Entire second structure:\n."),
    ((1, 2), [1, 2], TypeError,
     "The two structures don't have the same nested structure.\n\nFirst structure: type=tuple str=(1, 2)\n\n"
     "Second structure: type=list str=[1, 2]\n\nMore specifically: The two namedtuples don't have the same sequence "
     "type. First structure type=tuple str=(1, 2) has type tuple, while second structure type=list str=[1, 2] has "
     "type list\nEntire first structure:\n(., .)\nEntire second structure:\n[., .]"),
    ((1, 2), (1, 2, 3), ValueError,
     "The two structures don't have the same nested structure.\n\nFirst structure: type=tuple str=(1, 2)\n\n"
     "Second structure: type=tuple str=(1, 2, 3)\n\nMore specifically: The two structures don't have the same number "
     "of elements. First structure: type=tuple str=(1, 2). Second structure: type=tuple str=(1, 2, 3)\n"
     "Entire first structure:\n(., .)\nEntire second structure:\n(., ., .)"),
    ({"a": 1}, {"b": 1}, ValueError,
     "The two structures don't have the same nested structure.\n\nFirst structure: type=dict str={'a': 1}\n\n"
     "Second structure: type=dict str={'b': 1}\n\nMore specifically: The two dictionaries don't have the same set "
     "of keys. First structure has keys type=list str=['a'], while second structure has keys type=list str=['b']\n"
     "Entire first structure:\n{'a': .}\nEntire second structure:\n{'b': .}"),
    (bar(1, 2), foo(2, 3), TypeError,
     "The two structures don't have the same nested structure.\n\nFirst structure: type=bar str=bar(a=1, b=2)\n\n"
     "Second structure: type=foo str=foo(a=2, b=3)\n\nMore specifically: The two namedtuples don't have the same "
     "sequence type. First structure type=bar str=bar(a=1, b=2) has type bar, while second structure type=foo "
     "str=foo(a=2, b=3) has type foo\nEntire first structure:\nbar(a=., b=.)\nEntire second structure:\nfoo(a=., b=.)"),
])
def test_mismatched_structures_raise_tensorflows_errors(a, b, error, message):
    with pytest.raises(error) as raised:
        tf.nest.assert_same_structure(a, b)
    assert type(raised.value) is error and str(raised.value) == message


def test_packing_keeps_namedtuples_and_counts_atoms_as_tensorflow():
    assert tf.nest.pack_sequence_as(bar(0, (0, 0)), [1, 2, 3]) == bar(1, (2, 3))
    assert [tf.nest.is_nested(x) for x in ([1], np.array([1]), {}, 1)] == [True, False, True, False]
    with pytest.raises(ValueError, match=r"^Could not pack sequence. Structure had 2 atoms, but flat_sequence had 1 "
                                         r"items.  Structure: \[1, 2\], flat_sequence: \[1\].$"):
        tf.nest.pack_sequence_as([1, 2], [1])
    with pytest.raises(ValueError, match="^Must provide at least one structure$"):
        tf.nest.map_structure(lambda x: x)
