"""``tf.experimental.numpy``: the NumPy API on tensors. Each function returns a ``tf.Tensor``
(``ndarray`` is Tensor) built from devtrace's ops, so it is placed and logged like any op."""

from __future__ import annotations

import numpy as np

from ...platform.tf_logging import get_logger
from ...runtime import weak
from ...runtime.tensor import EagerTensor, Tensor
from ..array import manip_ops
from . import np_array_ops, np_math_ops, np_random
from .np_dtypes import BEHAVIOR, TYPES, promote_types, result_type


def _public(module):
    return {name: value for name, value in vars(module).items()
            if callable(value) and not name.startswith("_") and getattr(value, "__module__", "") == module.__name__}


def _methods():
    """The NumPy methods TensorFlow's ``enable_numpy_methods_on_tensor`` gives ``tf.Tensor``."""
    def reshape(self, *newshape, order="C"):
        shape = newshape[0] if len(newshape) == 1 and not isinstance(newshape[0], int) else newshape
        return np_array_ops.reshape(self, shape, order)

    def tolist(self):
        if not isinstance(self, EagerTensor):
            raise ValueError("Symbolic Tensors do not support the tolist API.")
        return self.numpy().tolist()

    def size(self):
        return None if not self.shape.is_fully_defined() else np.prod(self.shape.as_list())

    return {"T": property(lambda self: np_array_ops.transpose(self)), "size": property(size),
            "ndim": property(lambda self: len(self.shape)), "__pos__": lambda self: self,
            "tolist": tolist, "transpose": lambda self, axes=None: np_array_ops.transpose(self, axes),
            "flatten": np_array_ops.flatten, "reshape": reshape, "ravel": np_array_ops.ravel,
            "clip": np_math_ops.clip, "astype": lambda self, dtype: np_array_ops.tf("cast")(self, dtype),
            "__round__": np_math_ops.around, "max": np_math_ops.amax, "mean": np_math_ops.mean,
            "min": np_math_ops.amin, "data": property(lambda self: self),
            "__getitem__": lambda self, key: np_array_ops.getitem(self, key, manip_ops._getitem), **_operators()}


def _operators():
    """Arithmetic operators with NumPy's promotion (``int32 + float32`` is float64), as the legacy
    mode makes them; the auto dtype conversion modes keep TensorFlow's operators (the lattice)."""
    def pair(fn, name):
        tf_method, tf_reflected = _TF_OPERATORS[f"__{name}__"], _TF_OPERATORS[f"__r{name}__"]

        def method(self, other):
            return fn(self, other) if weak.MODE is None else tf_method(self, other)

        def reflected(self, other):
            return fn(other, self) if weak.MODE is None else tf_reflected(self, other)
        return method, reflected

    table = {"add": np_math_ops.add, "sub": np_math_ops.subtract, "mul": np_math_ops.multiply,
             "truediv": np_math_ops.true_divide, "floordiv": np_math_ops.floor_divide,
             "mod": np_math_ops.mod, "pow": np_math_ops.power}
    methods = {}
    for name, fn in table.items():
        methods[f"__{name}__"], methods[f"__r{name}__"] = pair(fn, name)
    return methods


_TF_OPERATORS = {f"__{r}{name}__": Tensor.__dict__[f"__{r}{name}__"]
                 for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow") for r in ("", "r")}


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Gives tensors NumPy's methods (``x.T``, ``x.reshape``, ``x.astype`` …) and NumPy's promotion in
    arithmetic operators, and makes Python floats float32 when ``prefer_float32``; ``dtype_conversion_mode``
    ``'all'``/``'safe'`` switches on TensorFlow's auto dtype conversion instead (weak tensors and the
    promotion lattice of ``runtime/weak.py``; ``'safe'`` refuses lossy promotions)."""
    if dtype_conversion_mode in ("safe", "all"):
        get_logger().warning("UserWarning: enabling the new type promotion must happen at the beginning of the "
                             "program. Please ensure no TF APIs have been used yet.")
    if dtype_conversion_mode not in ("off", "legacy", "all", "safe"):
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist. Make sure the provided "
                         "dtype conversion mode is one of the followings: 'off', 'legacy', 'safe' or 'all'.")
    if dtype_conversion_mode == "off":
        raise NotImplementedError("devtrace does not implement tf.experimental.numpy."
                                  "experimental_enable_numpy_behavior(dtype_conversion_mode='off') yet")
    weak.MODE = None if dtype_conversion_mode == "legacy" else dtype_conversion_mode
    BEHAVIOR.enabled = True
    BEHAVIOR.prefer_float32 = bool(prefer_float32)
    for name, value in _methods().items():
        setattr(Tensor, name, value)


FUNCTIONS = {**_public(np_array_ops), **_public(np_math_ops), **TYPES, "ndarray": Tensor,
             "result_type": result_type, "promote_types": promote_types,
             "experimental_enable_numpy_behavior": experimental_enable_numpy_behavior}
FUNCTIONS.pop("tf", None)
RANDOM = _public(np_random)
RANDOM.pop("tf", None)
