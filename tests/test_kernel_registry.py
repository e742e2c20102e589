"""devtrace's kernels per device type against TensorFlow 2.21's registry (``tests/tf221/kernels/``,
captured from TensorFlow 2.21's CUDA build): placement tells the truth only if an op falls back to
the CPU exactly where TensorFlow has no GPU kernel."""

import json
import os

import pytest

import devtrace  # noqa: F401  (declares the ops)
from devtrace import hooks
from devtrace.runtime.registry import CPU, GPU, REGISTRY

CAPTURE = os.path.join(os.path.dirname(__file__), "tf221", "kernels", "gpu_kernels.json")
with open(CAPTURE) as f:
    TF = json.load(f)
for load in hooks.LOAD_OPS:
    load()


def _declared() -> dict:
    """The ops devtrace declares (``devtrace/ops/``), not those a program (a test) registered with
    ``tf.register_op`` in this process."""
    return {name: opdef for name, opdef in REGISTRY.items() if opdef.fn.__module__.startswith("devtrace.ops.")}

# Ops devtrace places on a GPU that TensorFlow 2.21 registers for the CPU only, each with the reason.
GPU_ONLY_IN_DEVTRACE = {
    "MatrixExponential": "tf.linalg.expm is a Python composite in TensorFlow (its ops run on the GPU); "
                         "devtrace runs it as the one deprecated op",
}


def _tf_gpu_types(op):
    """The dtypes TensorFlow 2.21 has a kernel for on a GPU (its DEFAULT kernels serve every device)."""
    kernels = TF.get(op, {})
    return set(kernels.get("GPU", ())) | set(kernels.get("DEFAULT", ()))


def test_the_capture_covers_every_op_devtrace_declares():
    assert set(_declared()) <= set(TF), sorted(set(_declared()) - set(TF))


def test_no_op_falls_back_to_the_cpu_where_tensorflow_has_a_gpu_kernel():
    wrong = {}
    for name, opdef in _declared().items():
        if GPU in opdef.kernels or name not in TF:
            continue
        tf_gpu = _tf_gpu_types(name)
        both = tf_gpu if "*" in tf_gpu else set(opdef.kernels[CPU]) & tf_gpu
        if both:
            wrong[name] = sorted(both)
    assert wrong == {}


def test_no_op_has_a_gpu_kernel_where_tensorflow_has_none():
    extra = sorted(name for name, opdef in _declared().items()
                   if GPU in opdef.kernels and TF.get(name) and not _tf_gpu_types(name))
    assert extra == sorted(GPU_ONLY_IN_DEVTRACE)


def test_cast_has_tensorflows_gpu_kernels():
    pairs = TF["Cast pairs"]
    assert set(REGISTRY["Cast"].kernels[GPU]) == {src for src, _ in pairs}
    # every numeric pair, both ways
    numeric = {"bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
               "uint32", "uint64", "complex64", "complex128", "bool"}
    assert {(a, b) for a in numeric for b in numeric} <= {tuple(p) for p in pairs}


def test_compat_tf1_keeps_cast_on_the_cpu_only():
    assert set(REGISTRY["Cast"].kernels_for("tf1")) == {CPU}
    assert REGISTRY["Cast"].supported_types("float32", "tf1") == (CPU,)
    assert REGISTRY["Cast"].supported_types("float32") == (GPU, CPU)


@pytest.mark.parametrize("op", ["RandomShuffle", "UnravelIndex", "StringFormat"])
def test_ops_without_a_gpu_kernel_in_tensorflow_fall_back(op):
    assert not _tf_gpu_types(op) and GPU not in REGISTRY[op].kernels
