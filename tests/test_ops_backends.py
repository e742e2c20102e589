"""Every registered op runs on the CPU, on a simulated GPU (memory accounted there) and through the
CuPy backend's code (the strict fake CuPy), and gives NumPy's values: one sample call per op at
least (``tests/op_samples/``). TensorFlow's own values and logs are compared in tests/tf221."""

import gc

import numpy as np
import pytest

import devtrace as tf
import devtrace.ops  # noqa: F401 (every op declared)
from devtrace.runtime.context import context
from devtrace.runtime.memory import PoolAllocator, round_pool_bytes
from devtrace.runtime.memory.bfc import round_bytes
from devtrace.runtime.registry import REGISTRY
from devtrace.trace.events import OpPlaced

from op_samples import EXCLUDED, samples

SAMPLES = samples()


def _declared():
    """The ops devtrace declares (``devtrace/ops/``), not those a program registered (``tf.register_op``)."""
    return {name for name, opdef in REGISTRY.items() if opdef.fn.__module__.startswith("devtrace.ops.")}


def test_every_registered_op_has_a_sample():
    declared, sampled = _declared(), {s.op for s in SAMPLES}
    assert not sampled - declared, "samples of ops that are not registered"
    assert not set(EXCLUDED) & sampled, "an excluded op has a sample: drop its exclusion"
    assert set(EXCLUDED) <= declared, "an excluded op is no longer registered: drop its exclusion"
    missing = sorted(declared - sampled - set(EXCLUDED))
    assert not missing, f"registered ops without a sample in tests/op_samples/: {missing}"


def _leaves(out):
    """What a sample returned, flattened: eager tensors, or values a session fetched."""
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _leaves(o)]
    return [out]


def _check_values(sample, leaves):
    values = [v.numpy() if isinstance(v, tf.Tensor) else v for v in leaves]
    if callable(sample.want):
        assert sample.want(*values), f"{sample.name}: {values}"
        return
    wants = sample.want if isinstance(sample.want, list) else [sample.want]
    assert len(values) == len(wants), f"{sample.name}: {len(values)} outputs, {len(wants)} expected"
    for got, want in zip(values, wants):
        want = np.asarray(want)
        if want.dtype.kind != "O":  # strings: bytes objects (a 0-d one is a bytes scalar)
            assert np.asarray(got).dtype == want.dtype, f"{sample.name}: {np.asarray(got).dtype}, not {want.dtype}"
        if want.dtype.kind in "OSUb":
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6)


def _in_use(device):
    return device.allocator.bytes_in_use


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_op_on_every_backend(op_device, sample):
    ctx = context()
    gpu = ctx.devices[1] if op_device.startswith("/GPU") else None
    # the CPU-only machine runs the sample unscoped: under an explicit /CPU:0 scope TensorFlow makes
    # a constant without executing _EagerConst (pywrap_tensor.cc), so that op would never be seen
    scope = op_device if gpu is not None else None
    with tf.device(scope):
        sample.call()  # once, so that caches (the scalar cache, one-op functions) hold what they keep
    gc.collect(1)  # and what a gradient tape's records keep alive is gone
    base = _in_use(gpu) if gpu else 0
    start = len(ctx.trace.events)
    with tf.device(scope):
        out = sample.call()
    leaves = _leaves(out)
    _check_values(sample, leaves)
    placed = {e.device.rsplit("/", 1)[-1] for e in ctx.trace.events[start:]
              if type(e) is OpPlaced and e.op == sample.op}
    assert placed, f"{sample.name}: the call never ran {sample.op}"
    where = "device:CPU:0" if gpu is None or sample.on == "CPU" else "device:GPU:0"
    assert placed == {where}, f"{sample.name}: {sample.op} ran on {placed}, TensorFlow runs it on {where}"
    if gpu is None:
        return
    rounded = round_pool_bytes if isinstance(gpu.allocator, PoolAllocator) else round_bytes
    on_gpu = {id(t): t for t in leaves if isinstance(t, tf.Tensor) and t._device is gpu}.values()
    outputs = sum(rounded(t._value.nbytes) for t in on_gpu)
    if _in_use(gpu) - base != outputs:
        gc.collect(1)  # what the call left in reference cycles (a variable, a function's graph)
    assert _in_use(gpu) - base == outputs, f"{sample.name}: {_in_use(gpu) - base} bytes in use for {outputs} of outputs"
    del out, leaves, on_gpu
    if _in_use(gpu) != base:
        gc.collect(1)
    assert _in_use(gpu) == base, f"{sample.name}: {_in_use(gpu) - base} bytes still in use once its outputs are freed"


def test_an_op_without_a_gpu_kernel_falls_back_to_the_cpu(op_device):
    with tf.device(op_device):
        y = tf.random.shuffle(tf.constant([1.5, 2.5]))
    assert y.device.endswith("CPU:0")  # RandomShuffle has only a CPU kernel in TensorFlow 2.21


def test_every_op_is_declared_once():
    """One declaration per op (the brief: an op is declared once): a second ``op("X", …)`` in another
    module silently replaces the first at import, kernels, shape function and all."""
    import collections
    import pathlib
    import re

    ops = pathlib.Path(__file__).resolve().parents[1] / "devtrace" / "ops"
    declared = collections.defaultdict(list)
    for path in ops.rglob("*.py"):
        for m in re.finditer(r'^\s*(?:op|binary|unary)\("([A-Za-z0-9_]+)"', path.read_text(encoding="utf-8"), re.M):
            declared[m.group(1)].append(str(path.relative_to(ops)))
    assert {name: where for name, where in declared.items() if len(where) > 1} == {}
    assert len(declared) > 250  # the pattern still finds the declarations (others are made in loops)
