"""Run a probe program under devtrace (as ``tests/tf221/run_devtrace.py`` does) and write, as JSON,
which ops' gradient functions each of its cells ran: ``{label: [op type, ...]}``
(``tests/test_gradient_coverage.py``).

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


backprop.lookup = _recording_lookup  # the backward pass's one look-up of an op's gradient function
as_tensorflow.install()
program, out = sys.argv[1], sys.argv[2]
sys.argv = sys.argv[1:2]
sys.path[0] = os.path.dirname(os.path.abspath(program))  # as `python program` does: its helpers import
sys.stdout = _Markers(sys.stdout)
try:
    runpy.run_path(program, run_name="__main__")
finally:
    sys.stdout.flush()
    with open(out, "w", encoding="utf-8") as f:
        json.dump({label: sorted(ops) for label, ops in RAN.items() if label is not None}, f)
