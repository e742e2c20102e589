"""The Python protocols TensorFlow's tensors answer in their own way (``hash()``, ``+x``,
``divmod``, ``round``, NumPy's method names) and the names of its tensor classes in Python's errors."""

from __future__ import annotations

from ..util.namespace import install_lacking
from ..runtime.tensor import Tensor
from ..platform.tf_logging import deprecated

_TYPE_NAMES = {"EagerTensor": "tensorflow.python.framework.ops.EagerTensor",
               "SymbolicTensor": "tensorflow.python.framework.ops.SymbolicTensor"}
_NUMPY_ONLY = {"T", "astype", "ravel", "transpose", "reshape", "clip", "size", "tolist", "data"}


def _type_name(value) -> str:
    """A value's type as Python's own errors name TensorFlow's tensor classes."""
    return _TYPE_NAMES.get(type(value).__name__, type(value).__name__)


def install_python_protocols():
    """What TensorFlow's tensors do with ``hash()``, ``+x``, ``divmod``, ``round`` and NumPy's method names."""
    Tensor.__hash__ = _unhashable
    def positive(self):
        raise TypeError(f"bad operand type for unary +: '{_type_name(self)}'")

    def no_divmod(a, b):
        raise TypeError(f"unsupported operand type(s) for divmod(): '{_type_name(a)}' and '{_type_name(b)}'")

    def numpy_only(name):
        def fail(self):
            short = _type_name(self).rsplit(".", 1)[-1]
            raise AttributeError(f"{short} object has no attribute '{name}'. \n        If you are looking for "
                                 "numpy-related methods, please run the following:\n        "
                                 "tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ")
        return property(fail)

    Tensor.__pos__ = positive
    Tensor.__divmod__ = no_divmod
    Tensor.__rdivmod__ = lambda self, other: no_divmod(other, self)
    Tensor.__round__ = lambda self, ndigits=None: self.astype  # tf.experimental.numpy's around: NumPy's method
    for name in _NUMPY_ONLY:  # properties, not __getattr__: slot reads stay on CPython's fast path
        setattr(Tensor, name, numpy_only(name))
    Tensor.experimental_ref = _experimental_ref
    install_lacking(Tensor, "Tensor")


def _experimental_ref(self):
    return self.ref()


_experimental_ref.__name__ = "Tensor.experimental_ref"  # as TensorFlow's deprecation note names it
_experimental_ref = deprecated("tensorflow.python.framework.tensor", "Use ref() instead.")(_experimental_ref)


def _unhashable(self):
    raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
