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
def test_devtrace_prints_what_tensorflow_printed_cell_by_cell(program):
    want, got = cells.compare_program(program)
    wrong = sorted(CLAIMED[program] - set(cells.matching(want, got)))
    if program in TEXT_OF_311:
        wrong = [label for label in wrong if not label.startswith("to_code ")]
    assert not wrong, "\n".join(
        f"--- {label}\n  TensorFlow: {want[label]!r}\n  devtrace:   {got.get(label, '<no cell>')!r}" for label in wrong)
