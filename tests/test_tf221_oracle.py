"""devtrace against the wide TensorFlow 2.21 oracle (tests/tf221_oracle/, 80 programs, 2,794 cells):
every cell listed in passing.txt must print under devtrace what TensorFlow printed for it
(numbers to float tolerance). The cells not listed are the work left (issues 10 and 13);
``python tests/tf221_oracle/cells.py -v`` shows them."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

ORACLE = pathlib.Path(__file__).resolve().parent / "tf221_oracle"
_spec = importlib.util.spec_from_file_location("tf221_oracle_cells", ORACLE / "cells.py")
cells = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cells)
CLAIMED = cells.read_passing()
# AutoGraph's generated code as text depends on the Python that writes it, TensorFlow's as devtrace's:
# ast.unparse spells ``s, = vars_`` and ``lambda:`` from 3.11 on, and 3.11's string hash orders
# the name sets ``nonlocal`` lists. The captures are Python 3.11's: older Pythons run the code only.
TEXT_OF_311 = ("autograph_corners", "autograph_corpus", "autograph_to_code") if sys.version_info < (3, 11) else ()


def test_the_claimed_cells_are_real_cells_of_the_captures():
    for program, labels in CLAIMED.items():
        assert labels <= set(cells.expected(program)), program


@pytest.mark.parametrize("program", sorted(CLAIMED))
def test_devtrace_prints_what_tensorflow_printed_cell_by_cell(program, session_shared):
    want, got = cells.compare_program(program, session_shared)  # grad_*: one run, gradients recorded too
    wrong = sorted(CLAIMED[program] - set(cells.matching(want, got)))
    if program in TEXT_OF_311:
        wrong = [label for label in wrong if not label.startswith("to_code ")]
    assert not wrong, "\n".join(
        f"--- {label}\n  TensorFlow: {want[label]!r}\n  devtrace:   {got.get(label, '<no cell>')!r}" for label in wrong)


LISTED = cells.HEADER + "indexing a\nindexing b\nreductions sum\n"


def test_the_ratchet_adds_the_cells_that_match_now_and_keeps_the_other_programs():
    text = cells.ratchet(LISTED, {"indexing": ["a", "b", "c"]}, {})
    assert cells.read_passing(text) == {"indexing": {"a", "b", "c"}, "reductions": {"sum"}}


def test_the_ratchet_refuses_to_leave_out_a_listed_cell_that_stopped_matching():
    with pytest.raises(cells.Shrinks, match="indexing b: listed, no longer matches"):
        cells.ratchet(LISTED, {"indexing": ["a", "c"]}, {})


def test_the_ratchet_drops_a_cell_only_when_named_and_keeps_why():
    text = cells.ratchet(LISTED, {"indexing": ["a"]}, {"indexing b": "TF's value is float32 noise"})
    assert cells.read_passing(text) == {"indexing": {"a"}, "reductions": {"sum"}}
    assert "# dropped indexing b: TF's value is float32 noise\n" in text
    again = cells.ratchet(text, {"indexing": ["a", "c"]}, {})
    assert "# dropped indexing b: TF's value is float32 noise\n" in again and "indexing c\n" in again
    with pytest.raises(cells.Shrinks, match="indexing a: still matches"):
        cells.ratchet(LISTED, {"indexing": ["a", "b"]}, {"indexing a": "no"})
    with pytest.raises(cells.Shrinks, match="indexing z: not listed"):
        cells.ratchet(LISTED, {"indexing": ["a", "b"]}, {"indexing z": "no"})


def test_write_leaves_passing_txt_as_it_was_when_a_listed_cell_stopped_matching(tmp_path, monkeypatch, capsys):
    passing = tmp_path / "passing.txt"
    passing.write_text(LISTED, encoding="utf-8")
    monkeypatch.setattr(cells, "PASSING", passing)
    monkeypatch.setattr(cells, "compare_program",
                        lambda name, fresh=False: ({"a": "1", "b": "2"}, {"a": "1", "b": "3"}))
    assert cells.main(["indexing", "--write"]) == 1
    assert "indexing b: listed, no longer matches" in capsys.readouterr().err
    assert passing.read_text(encoding="utf-8") == LISTED
    assert cells.main(["indexing", "--write", "--drop", "indexing b", "--why", "a reason"]) == 0
    assert cells.read_passing(passing.read_text(encoding="utf-8")) == {"indexing": {"a"}, "reductions": {"sum"}}
