"""``keras.mixed_precision`` (``tf.keras.mixed_precision``): Keras 3's legacy names for the dtype
policies and the ``LossScaleOptimizer`` — the same objects as ``keras.DTypePolicy``,
``keras.config.set_dtype_policy`` and ``keras.optimizers.LossScaleOptimizer``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

from .config import dtype_policy, set_dtype_policy
from .dtype_policies import DTypePolicy
from .optimizers import LossScaleOptimizer

Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy

__all__ = ["DTypePolicy", "LossScaleOptimizer", "Policy", "dtype_policy", "global_policy", "set_dtype_policy",
           "set_global_policy"]
__getattr__ = _missing("keras.mixed_precision")
