"""Keras 3's ``KerasVariable`` as ``tf.keras`` weights are: a ``tf.Variable`` (the same ops) named
without scope or ``:0`` (``kernel``), its scoped name as ``path`` (``dense/kernel``)."""

from __future__ import annotations

import devtrace as tf


class KerasVariable(tf.Variable):
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


def make(value, name, trainable):
    """A ``KerasVariable``; under a ``MirroredStrategy.scope()`` the strategy's mirrored variable."""
    if tf.distribute.has_strategy():
        return tf.Variable(value, trainable=trainable, name=name)
    return KerasVariable(value, trainable=trainable, name=name)


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
    return make(value, name or "variable", trainable)
