"""String ops: CPU-only, as in TensorFlow (strings never live on a GPU)."""

from __future__ import annotations

import numpy as np

from ..runtime.registry import CPU
from . import shapes
from .declare import op, unary


def _as_string(xp, x):
    flat = [str(v).encode() for v in np.asarray(x).reshape(-1).tolist()]
    return np.array(flat, dtype=object).reshape(np.shape(x))


as_string = unary("AsString", _as_string, None, ("strings.as_string",), shape=shapes.to_string, devices=(CPU,))
