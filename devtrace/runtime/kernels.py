"""The kernel registry, as data.

Each op type (TensorFlow's name: ``MatMul``, ``AddV2`` …) declares a kernel per device type
it supports and the dtypes each kernel accepts. A kernel is ``fn(xp, *arrays, **attrs)``
where ``xp`` is the array module of the device (NumPy on the CPU and on simulated GPUs, CuPy
on real ones), so one function serves every device where the array API is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import dtypes

CPU, GPU = "CPU", "GPU"
# TensorFlow's device-type priorities (device_factory.h): GPU 210 over GPUCompatibleCPU 70.
PRIORITY = {GPU: 210, CPU: 70}

ALL_TYPES = frozenset(d.name for d in dtypes.ALL)
NUMERIC = dtypes.NUMERIC


@dataclass(slots=True)
class OpDef:
    name: str
    fn: Callable
    # device type -> dtype names its kernel accepts
    kernels: dict[str, frozenset] = field(default_factory=dict)
    stateful: bool = False

    def supported_types(self, dtype_name: str | None) -> tuple[str, ...]:
        """Device types with a kernel for this dtype, highest priority first."""
        types = [t for t, ok in self.kernels.items() if dtype_name is None or dtype_name in ok]
        return tuple(sorted(types, key=lambda t: -PRIORITY.get(t, 50)))

    def kernel_list(self) -> str:
        """TensorFlow's ``All kernels registered for op`` listing."""
        if not self.kernels:
            return "  <no registered kernels>"
        lines = []
        for t, ok in self.kernels.items():
            names = ", ".join(dtypes.as_dtype(n).enum_name for n in sorted(ok))
            lines.append(f"  device='{t}'; T in [{names}]")
        return "\n".join(lines)


REGISTRY: dict[str, OpDef] = {}


def register(name: str, fn: Callable, device_types=(CPU, GPU), dtypes_=None, stateful=False) -> OpDef:
    """Register (or replace) an op. ``dtypes_`` = dtype names accepted on every device type,
    or a dict per device type; ``None`` means every dtype."""
    if isinstance(dtypes_, dict):
        kernels = {t: frozenset(v) for t, v in dtypes_.items()}
    else:
        accepted = ALL_TYPES if dtypes_ is None else frozenset(dtypes_)
        kernels = {t: accepted for t in device_types}
    unknown = set(kernels) - {CPU, GPU}
    if unknown:
        raise ValueError(f"Unknown device type(s) {sorted(unknown)} for op {name}; use 'CPU' and/or 'GPU'")
    op = OpDef(name, fn, kernels, stateful)
    REGISTRY[name] = op
    return op


def _matmul(xp, a, b, transpose_a=False, transpose_b=False):
    return xp.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def _add_n(xp, *arrays):
    out = arrays[0].copy()
    for a in arrays[1:]:
        out += a
    return out


def _sum(xp, x, axis=None, keepdims=False):
    return xp.asarray(xp.sum(x, axis=axis, keepdims=keepdims), dtype=x.dtype)


def _as_string(xp, x):
    import numpy as np

    flat = [str(v).encode() for v in np.asarray(x).reshape(-1).tolist()]
    return np.array(flat, dtype=object).reshape(np.shape(x))


def _random_uniform(xp, shape=(), minval=0.0, maxval=1.0, dtype="float32", seed=None):
    import numpy as np

    rng = np.random.default_rng(seed)
    values = rng.uniform(minval, maxval, size=tuple(shape)).astype(dtypes.as_dtype(dtype).np)
    return xp.asarray(values)


STRINGS = frozenset(("string",))
_CPU_ONLY = (CPU,)

register("_EagerConst", lambda xp, x: x, dtypes_={CPU: ALL_TYPES, GPU: ALL_TYPES - STRINGS})
register("Const", lambda xp, x: x, dtypes_={CPU: ALL_TYPES, GPU: ALL_TYPES - STRINGS})
register("Identity", lambda xp, x: x.copy(), dtypes_={CPU: ALL_TYPES, GPU: ALL_TYPES - STRINGS})
register("MatMul", _matmul, dtypes_=NUMERIC)
register("AddV2", lambda xp, a, b: a + b, dtypes_=NUMERIC)
register("Sub", lambda xp, a, b: a - b, dtypes_=NUMERIC)
register("Mul", lambda xp, a, b: a * b, dtypes_=NUMERIC)
register("RealDiv", lambda xp, a, b: a / b, dtypes_=NUMERIC)
register("Neg", lambda xp, a: -a, dtypes_=NUMERIC)
register("Square", lambda xp, a: a * a, dtypes_=NUMERIC)
register("AddN", _add_n, dtypes_=NUMERIC)
register("Less", lambda xp, a, b: a < b, dtypes_=NUMERIC)
register("LessEqual", lambda xp, a, b: a <= b, dtypes_=NUMERIC)
register("Greater", lambda xp, a, b: a > b, dtypes_=NUMERIC)
register("GreaterEqual", lambda xp, a, b: a >= b, dtypes_=NUMERIC)
# As in the guide's own example, Cast has only a CPU kernel: a GPU request falls back to CPU.
register("Cast", lambda xp, x, DstT="float32": x.astype(dtypes.as_dtype(DstT).np), device_types=_CPU_ONLY)
register("Reshape", lambda xp, x, shape=(): xp.reshape(x, tuple(shape)), dtypes_={CPU: ALL_TYPES, GPU: ALL_TYPES - STRINGS})
register("Fill", lambda xp, dims=(), value=0, dtype="float32": xp.full(tuple(dims), value, dtype=dtypes.as_dtype(dtype).np),
         dtypes_={CPU: ALL_TYPES, GPU: ALL_TYPES - STRINGS})
register("Range", lambda xp, start=0, limit=0, delta=1, dtype="int32": xp.arange(start, limit, delta, dtype=dtypes.as_dtype(dtype).np),
         dtypes_=NUMERIC)
register("Sum", _sum, dtypes_=NUMERIC)
register("RandomUniform", _random_uniform, dtypes_=dtypes.FLOATS)
register("AsString", _as_string, device_types=_CPU_ONLY)
# Variable ops: the handle carries no data; assign/read run where the variable lives.
register("VarHandleOp", lambda xp: None)
register("ReadVariableOp", lambda xp, v: v.copy(), dtypes_={CPU: ALL_TYPES, GPU: ALL_TYPES - STRINGS})
register("AssignVariableOp", lambda xp, v: v.copy(), dtypes_={CPU: ALL_TYPES, GPU: ALL_TYPES - STRINGS})
register("AssignAddVariableOp", lambda xp, v, delta: v + delta, dtypes_=NUMERIC)
