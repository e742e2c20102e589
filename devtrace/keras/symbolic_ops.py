"""Python operators on ``KerasTensor``s (``x + inputs``, ``x[:, 0]``, ``-x``, ``2.0 * x``): as in
Keras 3, each makes an operation node of the functional graph — named as Keras names it (``add
(Add)``, ``get_item (GetItem)``, ``multiply (Multiply)``, ``negative (Negative)``) — that runs the
TensorFlow op when the model runs."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from .engine import KerasTensor, Layer
from .layers_merge import _broadcast_shape

_SENTINEL = 10007  # an unknown dimension while a shape is worked out (no array of it is ever made)


def _shape(value):
    return tuple(value.shape) if isinstance(value, KerasTensor) else tuple(np.shape(value))


class _Operation(Layer):
    """One operator's node: ``fn`` over the call's tensors (the constants are in ``fn``)."""

    _symbolic_operation = True  # in a model's summary, not in its ``layers`` (Keras's Operation, not a Layer)

    def __init__(self, fn, output_shape, **kwargs):
        super().__init__(**kwargs)
        self._fn, self._output_shape = fn, output_shape
        self.built = True

    def call(self, inputs):
        return self._fn(*inputs) if isinstance(inputs, (list, tuple)) else self._fn(inputs)

    def compute_output_shape(self, input_shape):
        return self._output_shape


_CLASSES: dict = {}


def _operation_class(name):
    if name not in _CLASSES:
        _CLASSES[name] = type(name, (_Operation,), {"__module__": __name__})
    return _CLASSES[name]


def _binary(name, fn, reverse=False):
    def operator(self, other):
        a, b = (other, self) if reverse else (self, other)
        shape = _broadcast_shape((_shape(a), _shape(b)))
        cls = _operation_class(name)
        if isinstance(a, KerasTensor) and isinstance(b, KerasTensor):
            return cls(fn, shape)([a, b])
        if isinstance(a, KerasTensor):
            return cls(lambda x: fn(x, b), shape)(a)
        return cls(lambda x: fn(a, x), shape)(b)
    return operator


def _getitem(self, key):
    probe = np.lib.stride_tricks.as_strided(np.zeros(1, np.int8),
                                            [_SENTINEL if d is None else d for d in self.shape],
                                            [0] * len(self.shape))
    shape = tuple(None if d == _SENTINEL else d for d in probe[key].shape)
    return _operation_class("GetItem")(lambda x: x[key], shape)(self)


def _negative(self):
    return _operation_class("Negative")(tf.negative, self.shape)(self)


def _matmul(self, other):
    a, b = _shape(self), _shape(other)
    shape = _broadcast_shape((a[:-2], b[:-2])) + (a[-2], b[-1]) if len(b) > 1 else a[:-1]
    cls = _operation_class("Matmul")
    if isinstance(other, KerasTensor):
        return cls(tf.matmul, shape)([self, other])
    return cls(lambda x: tf.matmul(x, other), shape)(self)


def install() -> None:
    for name, fn, dunder in (("Add", tf.add, "add"), ("Subtract", tf.subtract, "sub"),
                             ("Multiply", tf.multiply, "mul"), ("TrueDivide", tf.math.truediv, "truediv"),
                             ("Power", tf.pow, "pow")):
        setattr(KerasTensor, f"__{dunder}__", _binary(name, fn))
        setattr(KerasTensor, f"__r{dunder}__", _binary(name, fn, reverse=True))
    KerasTensor.__getitem__ = _getitem
    KerasTensor.__neg__ = _negative
    KerasTensor.__matmul__ = _matmul


install()
