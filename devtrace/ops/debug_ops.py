"""The ops of TensorFlow's debugger (``gen_debug_ops``, ``CheckNumericsV2``): the numeric summary
tfdbg2's dump records of a tensor (``DebugNumericSummaryV2``, by ``TensorDebugMode``) and the check
``tf.debugging.enable_check_numerics`` runs on every floating output, which tells -Inf from +Inf."""

from __future__ import annotations

import numpy as np

from . import shapes
from ..runtime.eager.executor import execute
from ..runtime.registry import CPU, GPU
from ..errors import FailedPreconditionError
from .declare import as_tensor, gradient, on_host, op, public

NO_TENSOR, CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH, SHAPE, FULL_NUMERICS, FULL_TENSOR = 1, 2, 3, 4, 5, 6, 7
_SIZES = {CURT_HEALTH: 2, CONCISE_HEALTH: 5, FULL_HEALTH: 11, SHAPE: 10}
FLOATS = ("bfloat16", "float16", "float32", "float64")


def summary(array: np.ndarray, mode: int, tensor_id: int = -1) -> list[float]:
    """``DebugNumericSummaryV2``'s values for a host array (see the op's TensorFlow doc)."""
    from ..runtime import dtypes

    dtype = dtypes.as_dtype(array.dtype)
    a = np.asarray(array)
    size = a.size
    floating = dtype.is_floating
    values = a.astype(np.float64) if floating else None
    neg_inf = int(np.count_nonzero(np.isneginf(values))) if floating else 0
    pos_inf = int(np.count_nonzero(np.isposinf(values))) if floating else 0
    nan = int(np.count_nonzero(np.isnan(values))) if floating else 0
    if mode == CURT_HEALTH:
        return [tensor_id, float(bool(neg_inf or pos_inf or nan))]
    if mode == CONCISE_HEALTH:
        return [tensor_id, size, neg_inf, pos_inf, nan]
    if mode == FULL_HEALTH:
        finite = values[np.isfinite(values)] if floating else a.astype(np.float64).reshape(-1)
        return [tensor_id, -1, dtype.as_datatype_enum, a.ndim, size, neg_inf, pos_inf, nan,
                int(np.count_nonzero(finite < 0)), int(np.count_nonzero(finite == 0)), int(np.count_nonzero(finite > 0))]
    if mode == SHAPE:
        dims = list(a.shape[-6:]) if a.ndim else []
        return [tensor_id, dtype.as_datatype_enum, a.ndim, size] + dims + [0] * (6 - len(dims))
    raise ValueError(f"Unsupported tensor_debug_mode: {mode}")


def _summary(xp, x, tensor_debug_mode=-1, tensor_id=-1, output_dtype="float32"):
    out = summary(on_host(xp, x), int(tensor_debug_mode), int(tensor_id))
    return xp.asarray(np.array(out, dtype=np.dtype(output_dtype)))


def _summary_shape(name, shapes_in, attrs, dtype):
    return attrs.get("output_dtype", "float32"), (_SIZES.get(int(attrs.get("tensor_debug_mode", -1))),)


op("DebugNumericSummaryV2", _summary, {CPU: ("bfloat16", "bool", "float16", "float32", "float64", "int16", "int32",
                                             "int64", "int8", "uint16", "uint32", "uint64", "uint8"),
                                       GPU: ("float16", "float32", "float64", "int16", "int32")},
   shape=_summary_shape, stateful=True)


def _nonfinite_kinds(xp, x) -> list[str]:
    return [kind for kind, test in (("-Inf", xp.isneginf), ("+Inf", xp.isposinf), ("NaN", xp.isnan))
            if bool(test(x).any())]


def _check_numerics_v2(xp, x, message=""):
    bad = _nonfinite_kinds(xp, x)
    if bad:
        said = bad[0] if len(bad) == 1 else " and ".join(bad) if len(bad) == 2 else f"{bad[0]}, {bad[1]}, and {bad[2]}"
        raise ValueError(f"{message} : Tensor had {said} values")
    return x.copy()


op("CheckNumericsV2", _check_numerics_v2, FLOATS, shape=shapes.same, stateful=True)


@gradient("CheckNumericsV2")
def _check_numerics_v2_grad(op, grad):
    message = ("Not a number (NaN) or infinity (Inf) values detected in gradient. "
               f"{op.attrs.get('message', '')}")
    return (execute("CheckNumericsV2", (grad,), {"message": message}),)


class _NotBuiltWithCuda(ValueError):
    error_class = FailedPreconditionError


def _check_pinned(xp, x):
    raise _NotBuiltWithCuda("to check pinnedness, must be built with `--config=cuda`")


# TensorFlow's CPU build (the oracle's) answers every tensor so; devtrace's host memory is never pinned
op("CheckPinned", _check_pinned, devices=(CPU, GPU), shape=shapes.same, stateful=True)


@public("check_pinned")
def check_pinned(tensor, name=None):
    """``tf.check_pinned``: TensorFlow's ``FailedPreconditionError`` of a build without CUDA."""
    return execute("CheckPinned", (as_tensor(tensor),), name=name)
