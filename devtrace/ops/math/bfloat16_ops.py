"""bfloat16 kernels that compute in float32: TensorFlow's CPU kernels accumulate a bfloat16
sum, mean or product in float32 and round once (``reduce_sum`` of a hundred 0.1s is 10, not
the 10.0625 of bfloat16 steps), and so do its products and ``Rsqrt``. These ops' kernels
see float32 inputs when their input is bfloat16 and return bfloat16 (NumPy's own bfloat16
``matmul`` returns float32; its ``einsum`` has none); float16's ``Rsqrt`` too. Registered after
the ops are declared, as gradients are."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.registry import lookup

_BF16 = getattr(dtypes, "bfloat16", None)


def _via_float32(kernel, narrow: np.dtype):
    def run(xp, *arrays, **attrs):
        if not any(a.dtype == narrow for a in arrays):
            return kernel(xp, *arrays, **attrs)
        out = kernel(xp, *(a.astype(np.float32) if a.dtype == narrow else a for a in arrays), **attrs)
        return out.astype(narrow) if out.dtype == np.float32 else out

    return run


def computes_in_float32(*op_types: str, dtype=_BF16) -> None:
    """These ops compute ``dtype`` inputs (bfloat16, float16) in float32 and round the output."""
    if dtype is None:  # no ml_dtypes: no bfloat16
        return
    for op_type in op_types:
        opdef = lookup(op_type)
        opdef.fn = _via_float32(opdef.fn, dtype.np)


computes_in_float32("Sum", "Mean", "Prod", "MatMul", "Einsum", "Rsqrt", "Selu")
computes_in_float32("Rsqrt", dtype=dtypes.float16)  # NumPy's 1/sqrt rounds twice in float16
