"""``tf.debugging.enable_check_numerics``: after it, every floating output of an eager op runs
through ``CheckNumericsV2`` (placed and logged like any op), whose error carries TensorFlow's
message naming the op, the output, its dtype, shape, Inf/NaN counts and inputs. In a
``tf.function`` the outputs of the nodes a call ran are checked after the call, in the order they
ran, and the first with an Inf or a NaN fails as TensorFlow's graph op does (its message without
the stack trace of the node's creation)."""

from __future__ import annotations

import threading

import numpy as np

from ..errors import InvalidArgumentError
from ..ops.debug_ops import _check_numerics_v2, _nonfinite_kinds
from ..runtime.context import context
from ..runtime.eager.executor import execute
from ..runtime.tensor import Tensor
from .dumping import SKIP_OPS, _function_name

# ops TensorFlow's callback leaves unchecked (check_numerics_callback.SAFE_OPS), and outputs with benign NaNs
SAFE_OPS = frozenset(("Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "Maximum", "Minimum", "Reshape", "Slice",
                      "Squeeze", "Stack", "StridedSlice", "StridedSliceGrad", "TensorListConcatV2",
                      "TensorListGather", "TensorListGetItem", "TensorListPopBack", "TensorListStack", "Transpose",
                      "Unpack", "CheckNumericsV2"))
IGNORE_OP_OUTPUTS = frozenset([(f"FusedBatchNorm{v}", s) for v in ("", "V2") for s in (1, 2, 3, 4)]
                              + [("FusedBatchNormV3", s) for s in (1, 2, 3, 4, 5)])


def error_message(slot: int, num_outputs: int, op_type: str, tensor, inputs, graph_name: str | None = None) -> str:
    """TensorFlow's ``get_check_numerics_error_message`` (without a graph op's stack trace)."""
    kind = "graph" if graph_name is not None else "eagerly-executing"
    message = f"\n\n!!! Detected Infinity or NaN in output {slot} of {kind} op \"{op_type}\" " \
              f"(# of outputs: {num_outputs}) !!!\n  dtype: {tensor.dtype}\n  shape: {tensor.shape}\n"
    if graph_name is None:
        value = tensor.numpy()
        inf = np.isinf(value)
        for label, count in (("-Inf", np.sum(inf & (value < 0))), ("+Inf", np.sum(inf & (value > 0))),
                             ("+NaN", np.sum(np.isnan(value)))):
            if count:
                message += f"  # of {label} elements: {count}\n"
    if len(inputs) > 1:
        message += f"\n  Input tensors ({len(inputs)}):\n"
        message += "".join(f"         {k}: {str(t)}\n" for k, t in enumerate(inputs))
    elif len(inputs) == 1:
        message += f"\n  Input tensor: {str(inputs[0])}\n"
    if graph_name:
        message += f"  Graph name: \"{graph_name}\"\n"
    return message + "\n"


class _CheckNumericsCallback:
    def eager(self, op_type, inputs, attrs, out, name) -> None:
        if op_type in SKIP_OPS or op_type in SAFE_OPS:
            return
        outputs = out if type(out) is tuple else (out,)
        for slot, t in enumerate(outputs):
            if isinstance(t, Tensor) and t._dtype.is_floating and (op_type, slot) not in IGNORE_OP_OUTPUTS:
                execute("CheckNumericsV2", (t,), {"message": error_message(slot, len(outputs), op_type, t, inputs)})

    def function(self, placed, args, values) -> None:
        graph = placed.graph
        by_id = {op._id: op for op in graph._ops}
        for node_id, value in values.items():
            op = by_id.get(node_id)
            if op is None or op.type in SKIP_OPS or op.type in SAFE_OPS or op.type == "Placeholder":
                continue
            outputs = value if type(value) is tuple else (value,)
            for slot, t in enumerate(outputs):
                if not (isinstance(t, Tensor) and t._dtype.is_floating) or (op.type, slot) in IGNORE_OP_OUTPUTS:
                    continue
                xp = t._device.xp or np
                if not _nonfinite_kinds(xp, t._value):
                    continue
                symbolic = op._outputs[slot]
                inputs = list(op._inputs)
                message = error_message(slot, len(outputs), op.type, symbolic, inputs, _function_name(graph.name))
                try:
                    _check_numerics_v2(xp, t._value, message)
                except ValueError as e:
                    raise InvalidArgumentError(f"{e}\n\t [[{{{{node {op.name}/CheckNumericsV2}}}}]]",
                                               op="CheckNumericsV2") from None


_state = threading.local()


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """TensorFlow's ``tf.debugging.enable_check_numerics``: idempotent in a thread."""
    if getattr(_state, "callback", None) is None:
        _state.callback = _CheckNumericsCallback()
        context().op_callbacks.append(_state.callback)


def disable_check_numerics():
    """TensorFlow's ``tf.debugging.disable_check_numerics``: a no-op when it is off."""
    callback = getattr(_state, "callback", None)
    if callback is None:
        return
    callbacks = context().op_callbacks
    if callback in callbacks:
        callbacks.remove(callback)
    _state.callback = None

