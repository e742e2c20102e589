"""devtrace against the wide TensorFlow 2.21 oracle (tests/tf221_oracle/, 77 programs, 2,539 cells):
every cell listed in passing.txt must print under devtrace what TensorFlow printed for it
(numbers to float tolerance). The cells not listed are the work left (issues 10 and 13);
``python tests/tf221_oracle/cells.py -v`` shows them."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

ORACLE = pathlib.Path(__file__).resolve().parent / "tf221_oracle"
_spec = importlib.util.spec_from_file_location("tf221_oracle_cells", ORACLE / "cells.py")
cells = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cells)
CLAIMED = cells.read_passing()


def test_the_claimed_cells_are_real_cells_of_the_captures():
    for program, labels in CLAIMED.items():
        assert labels <= set(cells.expected(program)), program


@pytest.mark.parametrize("program", sorted(CLAIMED))
def test_devtrace_prints_what_tensorflow_printed_cell_by_cell(program):
    want, got = cells.compare_program(program)
    wrong = sorted(CLAIMED[program] - set(cells.matching(want, got)))
    assert not wrong, "\n".join(
        f"--- {label}\n  TensorFlow: {want[label]!r}\n  devtrace:   {got.get(label, '<no cell>')!r}" for label in wrong)
