"""Run a probe program under devtrace (as ``tests/tf221/run_devtrace.py`` does) and write, as JSON,
which ops' gradient functions each of its cells ran: ``{label: [op type, ...]}``
(``tests/test_gradient_coverage.py``; ``tests/tf221/probe_server.py`` records so with ``start`` and
``write`` while the program's output is compared, one run for both).

    python tests/tf221_oracle/grad_recorder.py programs/NAME.py OUT.json
"""

import json
import os
import runpy
import sys

from devtrace.api import as_tensorflow
from devtrace.backprop import backprop

RAN: dict = {}
_cell = [None]


class _Markers:
    """stdout, noting the cell each ``--- label`` line opens."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        if text.startswith("--- "):
            _cell[0] = text[4:].rstrip("\n")
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _recording_lookup(op_type, _lookup=backprop.lookup):
    RAN.setdefault(_cell[0], set()).add(op_type)
    return _lookup(op_type)


def start() -> None:
    """Record from now on: the backward pass's one look-up of an op's gradient function, by the cell
    stdout is in."""
    backprop.lookup = _recording_lookup
    sys.stdout = _Markers(sys.stdout)


def write(out: str) -> None:
    sys.stdout.flush()
    with open(out, "w", encoding="utf-8") as f:
        json.dump({label: sorted(ops) for label, ops in RAN.items() if label is not None}, f)


def main() -> None:
    start()
    as_tensorflow.install()
    program, out = sys.argv[1], sys.argv[2]
    sys.argv = sys.argv[1:2]
    sys.path[0] = os.path.dirname(os.path.abspath(program))  # as `python program` does: its helpers import
    try:
        runpy.run_path(program, run_name="__main__")
    finally:
        write(out)


if __name__ == "__main__":
    main()
