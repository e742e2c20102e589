"""``tf.nn.RNNCellDeviceWrapper``, ``RNNCellDropoutWrapper``, ``RNNCellResidualWrapper``: in TensorFlow
2.21 these are its legacy Keras's cell wrappers (``tensorflow.python.keras``), deprecated, which
wrap a Keras 3 cell all the same: the cell runs under a device scope, with dropout on its inputs,
state and outputs, or with its inputs added to its outputs. Their first construction logs
TensorFlow's deprecation warning."""

from __future__ import annotations

import numbers
import os
import sys

from ...platform.tf_logging import get_logger
from ...runtime import scopes
from ...util import nest
from ..declare import API, public

_warned: list = []
_DEVTRACE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _call_location() -> str:
    """``file:line`` of the program's call, the innermost frame outside devtrace."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_DEVTRACE):
        frame = frame.f_back
    return "<unknown>:0" if frame is None else f"{os.path.abspath(frame.f_code.co_filename)}:{frame.f_lineno}"


def _deprecation() -> None:
    if not _warned:
        _warned.append(True)
        get_logger().warning("From %s: LayerVersionSelector.__new__ (from tensorflow.python.keras.layers."
                             "rnn_cell_wrapper_v2) is deprecated and will be removed in a future version.\n"
                             "Instructions for updating:\nPlease use tf.keras.layers.RNN instead.", _call_location())


class _RNNCellWrapper:
    """What the three share: the wrapped cell's sizes, initial state and config."""

    def __init__(self, cell, **kwargs):
        _deprecation()
        self.cell = cell
        self.name = kwargs.get("name")

    @property
    def wrapped_cell(self):
        return self.cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return getattr(self.cell, "output_size", self.cell.state_size)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return self.cell.get_initial_state(batch_size=batch_size)

    def _call_cell(self, inputs, state, **kwargs):
        return self.cell(inputs, state, **kwargs)

    def __call__(self, inputs, state, **kwargs):
        return self.call(inputs, state, **kwargs)

    def call(self, inputs, state, **kwargs):
        return self._call_cell(inputs, state, **kwargs)

    def get_config(self) -> dict:
        return {"cell": {"class_name": type(self.cell).__name__, "config": self.cell.get_config()}}


@public("nn.RNNCellDeviceWrapper")
class DeviceWrapper(_RNNCellWrapper):
    """Runs the cell on ``device``."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def _call_cell(self, inputs, state, **kwargs):
        with scopes.device(self._device):
            return self.cell(inputs, state, **kwargs)

    def get_config(self) -> dict:
        return {"device": self._device, **super().get_config()}


@public("nn.RNNCellDropoutWrapper")
class DropoutWrapper(_RNNCellWrapper):
    """Dropout (``tf.nn.dropout`` at ``1 - keep_prob``) on the cell's inputs, state and outputs."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        for name, prob in (("input_keep_prob", input_keep_prob), ("state_keep_prob", state_keep_prob),
                           ("output_keep_prob", output_keep_prob)):
            if isinstance(prob, numbers.Real) and not 0 <= prob <= 1:
                raise ValueError("Parameter %s must be between 0 and 1: %d" % (name, prob))
        if variational_recurrent:
            raise AttributeError("devtrace does not implement tf.nn.RNNCellDropoutWrapper's variational_recurrent yet")
        super().__init__(cell, **kwargs)
        self._keep = (input_keep_prob, state_keep_prob, output_keep_prob)
        self._seed = seed

    def _dropout(self, values, keep):
        if isinstance(keep, numbers.Real) and keep == 1:
            return values
        return nest.map_structure(lambda v: API["nn.dropout"](v, rate=1 - keep, seed=self._seed), values)

    def _call_cell(self, inputs, state, **kwargs):
        keep_in, keep_state, keep_out = self._keep
        output, new_state = self.cell(self._dropout(inputs, keep_in), state, **kwargs)
        return self._dropout(output, keep_out), self._dropout(new_state, keep_state)


@public("nn.RNNCellResidualWrapper")
class ResidualWrapper(_RNNCellWrapper):
    """The cell's output plus its input (``residual_fn(inputs, outputs)`` when given)."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_cell(self, inputs, state, **kwargs):
        output, new_state = self.cell(inputs, state, **kwargs)
        if self._residual_fn is not None:
            return self._residual_fn(inputs, output), new_state
        return nest.map_structure(lambda i, o: i + o, inputs, output), new_state
