"""``tf.math.sobol_sample`` (``SobolSample``): points of the Sobol sequence with TensorFlow's
direction numbers (Joe and Kuo's, ``generated/sobol_directions.py``), from point ``skip + 1`` on:
point ``n`` is the XOR of the direction numbers of its Gray code's bits, over 2**32. devtrace holds
the first 64 dimensions' numbers; more fail in one line saying so."""

from __future__ import annotations

import numpy as np

from ...errors import UnimplementedError
from ...generated.sobol_directions import DIRECTIONS
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..declare import host_arg, op, public

_V = np.array(DIRECTIONS, np.uint64)  # (dims, bits)


class _TooManyDims(ValueError):
    error_class = UnimplementedError


def _sobol(xp, dim=1, num_results=1, skip=0, dtype="float32"):
    dim, num_results, skip = int(dim), int(num_results), int(skip)
    if dim < 1:
        raise ValueError("dim must be at least one")
    if dim > 21200:
        raise ValueError("dim must be at most 21200")
    if num_results < 1:
        raise ValueError("num_results must be at least one")
    if skip < 0:
        raise ValueError("skip must be non-negative")
    if num_results + skip >= 2**31 - 1:
        raise ValueError("num_results+skip must be less than 2147483647")
    if dim > len(_V):
        raise _TooManyDims(f"devtrace does not implement tf.math.sobol_sample beyond {len(_V)} dimensions yet")
    n = np.arange(skip + 1, skip + 1 + num_results, dtype=np.uint64)
    gray = n ^ (n >> np.uint64(1))
    out = np.zeros((num_results, dim), np.uint64)
    for k in range(_V.shape[1]):
        bit = ((gray >> np.uint64(k)) & np.uint64(1)).astype(bool)
        out[bit] ^= _V[:dim, k]
    # TensorFlow scales by 1 / (1 << digits) in int32: 31 digits (points past 2**30) overflow to a negative scale
    scale = -1.0 if (skip + num_results).bit_length() >= 31 else 1.0
    return xp.asarray((scale * out.astype(np.float64) / 2.0**32).astype(dtypes.as_dtype(dtype).np))


def _shape(name, shapes, attrs, dtype):
    return attrs.get("dtype", "float32"), (attrs.get("num_results"), attrs.get("dim"))


op("SobolSample", _sobol, devices=(CPU,), shape=_shape, host_args={"dim": "int32", "num_results": "int32",
                                                                     "skip": "int32"})


@public("math.sobol_sample")
def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None):
    """``[num_results, dim]`` Sobol points, starting ``skip`` points in (TensorFlow's: the first is point 1)."""
    dtype = dtypes.as_dtype(dtype)
    attrs = {"dim": int(host_arg(dim)), "num_results": int(host_arg(num_results)), "skip": int(host_arg(skip)),
             "dtype": dtype.name}
    return execute("SobolSample", (), attrs, name=name, dtype=dtype)
