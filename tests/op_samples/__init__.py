"""Sample calls for every op in devtrace's registry (in the spirit of PyTorch's OpInfo).

Each :class:`Sample` is one small call through the public API that runs the op ``op``, with the
value NumPy gives for it (``want``: an array, a list of arrays for several outputs, or a
predicate over the outputs' values where no NumPy reference exists — random numbers), and where
TensorFlow places the op on a machine with a GPU when the program asks for the GPU (``on``:
``"GPU"`` when TensorFlow 2.21 registers a GPU kernel for it, ``"CPU"`` when it has none and soft
placement falls back, ``"GPU only"`` when it has no CPU kernel: on a machine without a GPU the op
fails with TensorFlow's ``NotFoundError``). ``tests/test_ops_backends.py`` runs every sample on the CPU, a simulated
GPU and the CuPy backend (fake CuPy), and fails when a registered op has none.
"""

from typing import Any, Callable, NamedTuple


class Sample(NamedTuple):
    op: str
    call: Callable[[], Any]
    want: Any
    on: str = "GPU"
    id: str = ""

    @property
    def name(self):
        return f"{self.op}-{self.id}" if self.id else self.op


def samples():
    from . import arrays, collective, image, keras_ops, math, more, names, nn, queues, random, tables, tfops

    out = []
    for module in (math, arrays, nn, random, more, image, tfops, tables, queues, keras_ops, collective, names):
        out.extend(module.SAMPLES)
    return out


# Ops a program cannot call on its own (op name -> why). A registered op neither sampled nor listed
# here fails test_every_registered_op_has_a_sample. The function graph's ``_Arg``/``_Retval`` are
# printed placer lines, not registered ops, and every other registered op is reachable through the public
# API (graph-only ones — Const, Placeholder, VariableV2, Assign, NoOp — through a tf.function or a TF1
# session), except the TF1 control-flow primitives a function's If/Case/While are lowered into.
_LOWERED = "what TensorFlow lowers a function's If/Case/While into before placing it: placed and logged, never run"
EXCLUDED: dict = {name: _LOWERED for name in ("Switch", "_SwitchN", "Merge", "Enter", "Exit", "NextIteration",
                                              "LoopCond")}
