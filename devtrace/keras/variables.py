"""Keras 3's ``KerasVariable`` as ``tf.keras`` weights are: a ``tf.Variable`` (the same ops) named
without scope or ``:0`` (``kernel``), its scoped name as ``path`` (``dense/kernel``).

Inside a mixed-precision layer's call (an ``AutocastScope`` of float16 or bfloat16), a float
variable made with ``autocast=True`` reads as the compute dtype: ``ReadVariableOp`` then ``Cast``,
as Keras's TensorFlow backend reads it."""

from __future__ import annotations

import threading

import devtrace as tf

_scope = threading.local()


def get_autocast_scope():
    return getattr(_scope, "current", None)


class AutocastScope:
    """Float variables read inside it are cast to ``dtype`` (``None``: not cast)."""

    def __init__(self, dtype):
        if dtype is not None:
            dtype = tf.as_dtype(dtype).name
            if not tf.as_dtype(dtype).is_floating:
                raise ValueError("`AutocastScope` can only be used with a floating-point target dtype, such as "
                                 f"'float16'. Received: dtype={dtype}")
        self.dtype = dtype
        self.original_scope = None

    def maybe_cast(self, value):
        if self.dtype is not None and value.dtype.is_floating and value.dtype.name != self.dtype:
            return tf.cast(value, self.dtype)
        return value

    def __enter__(self):
        self.original_scope = get_autocast_scope()
        _scope.current = self

    def __exit__(self, *args):
        _scope.current = self.original_scope


class DTypeName(str):
    """Keras 3's variable dtype: its name, a ``str`` (``print`` shows ``float32``, it equals
    ``"float32"`` and ``tf.float32``), that still answers as the ``tf.DType`` it names
    (``is_floating``, ``as_numpy_dtype``, ``name`` …) for code written against ``tf.keras``."""

    def __new__(cls, dtype):
        text = super().__new__(cls, dtype.name)
        text._dtype = dtype
        return text

    def __getattr__(self, name):
        return getattr(self._dtype, name)


class KerasVariable(tf.Variable):
    _autocast = True

    def value(self):
        scope = get_autocast_scope()
        value = super().value()
        if scope is not None and self._autocast:
            return scope.maybe_cast(value)
        return value

    @property
    def dtype(self):
        """The compute dtype inside an ``AutocastScope`` (a float variable that autocasts), as Keras's."""
        scope = get_autocast_scope()
        if scope is not None and scope.dtype is not None and self._autocast and self._dtype.is_floating:
            return DTypeName(tf.as_dtype(scope.dtype))
        return DTypeName(self._dtype)

    @property
    def constraint(self):
        return self._constraint

    @constraint.setter
    def constraint(self, value):
        """Keras's: settable (its optimizers apply it after each update)."""
        self._constraint = value

    @property
    def path(self) -> str:
        return self._name[:-2] if self._name.endswith(":0") else self._name

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def __round__(self, ndigits=None):
        """Keras's: ``round(variable, n)`` is a tensor, rounded to ``n`` decimals."""
        value = self.value()
        if not ndigits:
            return tf.round(value)
        factor = tf.cast(10.0 ** ndigits, value.dtype)
        return tf.round(value * factor) / factor

    def __repr__(self):
        value = self.numpy()
        text = str(value.item()) if getattr(value, "ndim", 0) == 0 else str(value)
        return f"<Variable path={self.path}, shape={tuple(self.shape)}, dtype={self.dtype.name}, value={text}>"


def make(value, name, trainable, autocast=True):
    """A ``KerasVariable``; under a ``MirroredStrategy.scope()`` the strategy's mirrored variable."""
    if tf.distribute.has_strategy():
        return tf.Variable(value, trainable=trainable, name=name)
    variable = KerasVariable(value, trainable=trainable, name=name)
    if not autocast:
        variable._autocast = False
    return variable


def Variable(initializer, shape=None, dtype=None, trainable=True, autocast=True, aggregation="none",  # noqa: N802
             synchronization="auto", name=None, **kwargs):
    """``keras.Variable``: from a value or an initializer (called with ``shape`` and ``dtype``).
    Other keywords are taken and ignored, as Keras 3.15 does."""
    from . import initializers, keywords

    keywords.unimplemented("keras.Variable", aggregation=(aggregation, "none"),
                           synchronization=(synchronization, "auto"))
    if isinstance(initializer, str) or callable(initializer) and not isinstance(initializer, tf.Tensor):
        initializer = initializers.get(initializer)(tuple(shape or ()), dtype=dtype or "float32")
    value = tf.convert_to_tensor(initializer, dtype=dtype)
    return make(value, name or "variable", trainable, autocast)


KerasVariable.__name__ = KerasVariable.__qualname__ = "Variable"  # Keras's class name (``type(v).__name__``)
