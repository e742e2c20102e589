"""Every gradient in devtrace's op registry is checked against TensorFlow 2.21 (issue 11: "gradient
values to float tolerance for every op with a gradient"): the wide oracle's ``grad_*`` probes
(tests/tf221_oracle/programs/) compute gradients with ``tf.GradientTape`` on float32, float64 and
complex inputs, and their cells that match TensorFlow are listed in passing.txt. Here each probe
runs under devtrace with the backward pass's gradient look-ups recorded per cell
(``grad_recorder.py``): an op whose gradient function runs in no passing cell fails the test, so a
gradient cannot be added without a TensorFlow check. Ops TensorFlow has no gradient for raise its
``LookupError`` in devtrace as well (the probes' ``LookupError …`` cells)."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

ORACLE = pathlib.Path(__file__).resolve().parent / "tf221_oracle"
_spec = importlib.util.spec_from_file_location("tf221_oracle_cells_for_gradients", ORACLE / "cells.py")
cells = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cells)
PROGRAMS = sorted(p.stem for p in (ORACLE / "programs").glob("grad_*.py"))
# Registered gradients no TensorFlow program can reach in devtrace, and why.
UNREACHABLE = {
    "Add": "devtrace runs Add for strings only (numbers add with AddV2); strings have no gradient",
    "CudnnRNNV3": "GPU only: TensorFlow's CPU oracle cannot run it; tests/test_keras_cudnn.py checks its gradient "
                  "against the per-step LSTM/GRU loop's (itself against Keras) and by central differences",
}
# Ops without a gradient in TensorFlow 2.21 whose LookupError the probes check.
NO_GRADIENT = ("Lu", "Unique", "TruncateMod", "Bitcast")


def gradient_ops() -> set:
    """The op types whose registered gradient is a function (not TensorFlow's NotDifferentiable)."""
    import devtrace  # noqa: F401 (every op module)
    from devtrace.backprop import backprop, cond_grad, while_grad  # noqa: F401 (the gradients they register)
    from devtrace.ops.declare import _no_gradient
    from devtrace.runtime.registry import REGISTRY

    return {name for name, opdef in REGISTRY.items() if opdef.grad is not None and opdef.grad is not _no_gradient}


@pytest.fixture(scope="module")
def checked(session_shared) -> dict:
    """``{op type: [passing cells whose backward pass ran its gradient]}``. Each probe runs once in
    the session, for this and ``tests/test_tf221_oracle.py`` (``cells.run_once``)."""
    passing = cells.read_passing()
    found: dict = {}
    for program in PROGRAMS:
        ran = cells.run_once(program, session_shared)
        assert ran["returncode"] == 0, ran["stderr"][-2000:]
        for label, ops in ran["gradients"].items():
            if label in passing.get(program, ()):
                for op_type in ops:
                    found.setdefault(op_type, []).append(f"{program} {label}")
    return found


def test_every_gradient_runs_in_a_cell_that_matches_tensorflow(checked):
    missing = sorted(gradient_ops() - set(checked) - set(UNREACHABLE))
    assert not missing, f"gradients no passing grad_* cell checks against TensorFlow: {missing}"


def test_the_unreachable_gradients_are_registered_and_unchecked(checked):
    for op_type in UNREACHABLE:
        assert op_type in gradient_ops() and op_type not in checked, op_type


def test_ops_without_a_gradient_raise_tensorflows_lookup_error():
    from devtrace.runtime.registry import REGISTRY

    passing = cells.read_passing()["grad_array_nn"]
    want = cells.expected("grad_array_nn")
    for op_type in NO_GRADIENT:
        assert REGISTRY[op_type].grad is None, op_type
        assert f"LookupError {op_type}" in passing, op_type
        assert want[f"LookupError {op_type}"] == f"LookupError gradient registry has no entry for: {op_type}"
