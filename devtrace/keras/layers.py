"""Keras layers on devtrace's ops: ``Layer`` (build on first call, ``add_weight``), ``Input``,
``Dense``, ``Activation``, ``Dropout``, ``Flatten``, ``Reshape``, ``Lambda``, ``Concatenate``,
``Add``. Calling a layer on an ``Input`` (a ``KerasTensor``) records the call for a functional
``Model``; calling it on tensors runs it."""

from __future__ import annotations

from devtrace.namespace import missing as _missing

import itertools

import numpy as np

import devtrace as tf
from ..module import Module
from . import activations, initializers

_UIDS: dict = {}


def _unique(base: str) -> str:
    n = _UIDS.setdefault(base, itertools.count())
    k = next(n)
    return base if k == 0 else f"{base}_{k}"


class KerasTensor:
    """A symbolic input or layer output of a functional model: a shape and where it came from."""

    def __init__(self, shape, dtype="float32", layer=None, inputs=()):
        self.shape, self.dtype, self._layer, self._inputs = tuple(shape), dtype, layer, inputs

    def __repr__(self):
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}>"


def Input(shape=None, batch_size=None, dtype="float32", name=None, **_):  # noqa: N802 (Keras's name)
    return KerasTensor((batch_size,) + tuple(shape or ()), dtype)


class Layer(Module):
    def __init__(self, trainable=True, name=None, dtype=None, **_):
        super().__init__(name=name or _unique(_snake(type(self).__name__)))
        self.trainable, self.built = trainable, False
        self._layer_weights: list = []

    def add_weight(self, shape=(), initializer="glorot_uniform", name=None, trainable=True, dtype="float32", **_):
        value = initializers.get(initializer)(tuple(shape), dtype=dtype)  # as Keras calls it (tf.random.normal works)
        with tf.name_scope(self.name):
            v = tf.Variable(value, trainable=trainable, name=name or "weight")
        self._layer_weights.append(v)
        return v

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, KerasTensor) or (isinstance(inputs, (list, tuple)) and inputs
                                               and isinstance(inputs[0], KerasTensor)):
            shape = [i.shape for i in inputs] if isinstance(inputs, (list, tuple)) else inputs.shape
            if not self.built:
                self.build(shape)
                self.built = True
            return KerasTensor(self.compute_output_shape(shape), layer=self, inputs=inputs)
        if not self.built:
            shape = [tuple(i.shape) for i in inputs] if isinstance(inputs, (list, tuple)) else tuple(
                tf.convert_to_tensor(inputs).shape)
            self.build(shape)
            self.built = True
        return self.call(inputs, *args, **kwargs)

    @property
    def weights(self) -> list:
        return list(self._layer_weights)

    @property
    def trainable_weights(self) -> list:
        return [w for w in self._layer_weights if w.trainable] if self.trainable else []

    def get_weights(self) -> list:
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights) -> None:
        for w, value in zip(self.weights, weights):
            w.assign(np.asarray(value, w.dtype.np))

    def count_params(self) -> int:
        return int(sum(np.prod(w.shape) for w in self.weights))


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(name))


class Dense(Layer):
    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", **kwargs):
        super().__init__(**kwargs)
        self.units, self.activation, self.use_bias = int(units), activations.get(activation), use_bias
        self._kernel_init, self._bias_init = kernel_initializer, bias_initializer

    def build(self, input_shape):
        self.kernel = self.add_weight((input_shape[-1], self.units), self._kernel_init, "kernel")
        self.bias = self.add_weight((self.units,), self._bias_init, "bias") if self.use_bias else None
        self.built = True

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        if x.dtype != tf.float32 and x.dtype.is_integer:
            x = tf.cast(x, tf.float32)
        y = tf.matmul(x, self.kernel)
        if self.bias is not None:
            y = tf.nn.bias_add(y, self.bias)
        return self.activation(y)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)


class Activation(Layer):
    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)


class Dropout(Layer):
    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.seed = float(rate), seed

    def call(self, inputs, training=False):
        return tf.nn.dropout(inputs, self.rate, seed=self.seed) if training and self.rate > 0 else inputs


class Flatten(Layer):
    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        return tf.reshape(x, [x.shape[0], -1])

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        return (input_shape[0], int(np.prod(rest)) if None not in rest else None)


class Reshape(Layer):
    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        return tf.reshape(x, [x.shape[0], *self.target_shape])

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self.target_shape


class Lambda(Layer):
    def __init__(self, function, **kwargs):
        super().__init__(**kwargs)
        self.function = function

    def call(self, inputs):
        return self.function(inputs)


class Concatenate(Layer):
    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return tf.concat(list(inputs), self.axis)

    def compute_output_shape(self, input_shape):
        out = list(input_shape[0])
        out[self.axis] = sum(s[self.axis] for s in input_shape)
        return tuple(out)


class Add(Layer):
    def call(self, inputs):
        return tf.add_n(list(inputs))

    def compute_output_shape(self, input_shape):
        return input_shape[0]


__getattr__ = _missing("keras.layers")
