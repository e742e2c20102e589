"""Keras layers on devtrace's ops (``tf.keras.layers``): ``Dense``, ``Activation``, ``Dropout``,
``Flatten``, ``Reshape``, ``Lambda``, ``Concatenate``, ``Add`` here; convolutions and pooling in
``layers_conv``, ``Embedding`` and the normalizations in ``layers_norm``; ``Layer`` and ``Input``
in ``engine``. Calling a layer on an ``Input`` (a ``KerasTensor``) records the call for a functional
``Model``; calling it on tensors runs it."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import inspect
import random

import numpy as np

import devtrace as tf
from . import activations, initializers
from . import random as keras_random
from .engine import Input, InputLayer, KerasTensor, Layer, _is_shape, same_shape
from .layers_conv import (AveragePooling2D, AvgPool2D, Conv1D, Conv2D, GlobalAveragePooling2D, GlobalAvgPool2D,
                          MaxPool2D, MaxPooling2D)
from .layers_merge import Average, Maximum, Minimum, Multiply, Subtract
from .layers_norm import BatchNormalization, Embedding, LayerNormalization
from .layers_pooling import *  # noqa: F401,F403
from .layers_pooling import __all__ as _pooling
from .layers_reshaping import Permute, RepeatVector, UpSampling1D, UpSampling2D
from .layers_recurrent import *  # noqa: F401,F403
from .layers_recurrent import __all__ as _recurrent
from .layers_conv_more import *  # noqa: F401,F403
from .layers_conv_more import __all__ as _conv_more
from .layers_more import *  # noqa: F401,F403
from .layers_more import __all__ as _more
from .layers_attention import *  # noqa: F401,F403
from .layers_attention import __all__ as _attention
from .layers_preprocessing import *  # noqa: F401,F403
from .layers_preprocessing import __all__ as _preprocessing
from .layers_text import *  # noqa: F401,F403
from .layers_text import __all__ as _text
from .layers_augment import *  # noqa: F401,F403
from .layers_augment import __all__ as _augment
from .layers_adaptive import *  # noqa: F401,F403
from .layers_adaptive import __all__ as _adaptive
from .layers_spectral import SpectralNormalization
from .layers_audio import MelSpectrogram
from .layers_crossing import HashedCrossing
from .layers_conv_lstm import ConvLSTM2D


class Dense(Layer):
    _TRACKED_AS = {"kernel": "_kernel"}  # Keras 3 keeps it as ``_kernel``: a checkpoint's key
    supports_masking = True
    _min_ndim = 2

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self.units, self.activation, self.use_bias = int(units), activations.get(activation), use_bias
        self._kernel_init, self._bias_init = initializers.get(kernel_initializer), initializers.get(bias_initializer)
        self._kernel_reg, self._bias_reg = kernel_regularizer, bias_regularizer

    def build(self, input_shape):
        self.kernel = self.add_weight((input_shape[-1], self.units), self._kernel_init, name="kernel",
                                      regularizer=self._kernel_reg)
        self.bias = self.add_weight((self.units,), self._bias_init, name="bias",
                                    regularizer=self._bias_reg) if self.use_bias else None
        self._input_axes = {-1: input_shape[-1]}
        self.built = True

    def call(self, inputs, training=None):
        if isinstance(inputs, tf.SparseTensor):  # Keras's TensorFlow backend: a sparse-dense product
            y = tf.sparse.sparse_dense_matmul(inputs, self.kernel)
        else:
            x = tf.convert_to_tensor(inputs)
            if x.dtype.is_integer:  # ints are not autocast; the product is in the compute dtype
                x = tf.cast(x, self.compute_dtype)
            y = tf.matmul(x, self.kernel)
        if self.bias is not None:
            y = tf.nn.bias_add(y, self.bias)
        return self.activation(y)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)


class Activation(Layer):
    supports_masking = True

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    compute_output_shape = same_shape

    def call(self, inputs):
        return self.activation(inputs)


class Softmax(Layer):
    supports_masking = True

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    compute_output_shape = same_shape

    def call(self, inputs, mask=None):
        if mask is None:
            return tf.nn.softmax(inputs, axis=self.axis)
        from .layers_attention import _masked_softmax

        return _masked_softmax(tf.convert_to_tensor(inputs), mask, self.axis)


class ReLU(Layer):
    """Keras's: ``max_value`` caps it (``ReLU(6.0)``: MobileNet's relu6), below ``threshold`` it is
    ``negative_slope * (x - threshold)``."""

    supports_masking = True
    compute_output_shape = same_shape

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: max_value={max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. Received: "
                             f"negative_slope={negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError(f"threshold of a ReLU layer cannot be a negative value. Received: threshold={threshold}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        if self.max_value is None and not self.negative_slope and not self.threshold:
            return tf.nn.relu(inputs)
        if self.max_value == 6.0 and not self.negative_slope and not self.threshold:
            return tf.nn.relu6(inputs)
        x = tf.convert_to_tensor(inputs)
        zero = tf.zeros((), x.dtype)
        if self.threshold:
            below = tf.cast(self.negative_slope, x.dtype) * (x - tf.cast(self.threshold, x.dtype))
            out = tf.where(x >= tf.cast(self.threshold, x.dtype), x, below if self.negative_slope else zero)
        elif self.negative_slope:
            out = tf.where(x >= zero, x, tf.cast(self.negative_slope, x.dtype) * x)
        else:
            out = tf.nn.relu(x)
        return out if self.max_value is None else tf.minimum(out, tf.cast(self.max_value, x.dtype))


class Dropout(Layer):
    """Keras 3's dropout: a ``SeedGenerator`` (an int64 ``[seed, 0]`` state variable, its seed drawn
    from Python's ``random`` when the layer is made) gives each call the seed its state holds, then
    steps it by ``[0, 1]``; the mask is TensorFlow's ``stateless_dropout``'s (uniform >= rate)."""

    supports_masking = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.seed = float(rate), seed if seed is not None else random.randint(1, int(1e9))
        self.noise_shape = tuple(noise_shape) if noise_shape is not None else None
        self._seed_state = keras_random.SeedGenerator(self.seed).state if self.rate > 0 else None  # Keras's

    compute_output_shape = same_shape

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        x = tf.convert_to_tensor(inputs)
        state = self._seed_state.read_value()
        self._seed_state.assign_add(tf.constant([0, 1], tf.int64))
        seed = tf.cast(tf.math.floormod(state, 2147483646), tf.int32)  # Keras's _cast_seed
        shape = list(x.shape) if None not in list(x.shape) else tf.shape(x)
        if self.noise_shape is not None:  # one draw per noise cell, broadcast (its None axes the input's)
            shape = [x.shape[i] if d is None else d for i, d in enumerate(self.noise_shape)]
        keep = tf.random.stateless_uniform(shape, seed, dtype=x.dtype) >= self.rate
        return tf.where(keep, x * (1.0 / (1.0 - self.rate)), tf.zeros((), x.dtype))


class Flatten(Layer):
    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        rest = list(x.shape)[1:]
        if None in rest or x.shape[0] is not None:  # a traced step's batch is None: size the rows instead
            return tf.reshape(x, [x.shape[0] if x.shape[0] is not None else -1, -1])
        return tf.reshape(x, [-1, int(np.prod(rest))])

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        return (input_shape[0], int(np.prod(rest)) if None not in rest else None)


class Reshape(Layer):
    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        return tf.reshape(x, [x.shape[0] if x.shape[0] is not None else -1, *self.target_shape])

    def compute_output_shape(self, input_shape):
        """A ``-1`` in the target is worked out where the input's other dimensions are known."""
        if -1 in self.target_shape and None not in input_shape[1:]:
            known = int(np.prod([d for d in self.target_shape if d != -1]))
            size = int(np.prod(input_shape[1:]))
            return (input_shape[0],) + tuple(size // known if d == -1 else d for d in self.target_shape)
        return (input_shape[0],) + tuple(None if d == -1 else d for d in self.target_shape)


def _first_shape(shapes):
    """The first shape of a nested structure of shapes (Lambda's batch size, as Keras reads it)."""
    while not _is_shape(tuple(shapes)):
        shapes = shapes[0] if isinstance(shapes, (list, tuple)) else next(iter(shapes.values()))
    return tuple(shapes)


class Lambda(Layer):
    """Keras's: ``output_shape`` (per sample, or a function of the input shape) spares tracing the
    function; ``arguments`` are its keywords; ``mask`` (a function of inputs and mask, or a value) is
    the output's mask; ``mask=``/``training=`` are passed when the function names them."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self.supports_masking = mask is not None
        self.mask = mask
        self._output_shape = output_shape
        names = inspect.getfullargspec(function).args if callable(function) else []
        self._fn_expects_training_arg, self._fn_expects_mask_arg = "training" in names, "mask" in names

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask_arg:
            kwargs["mask"] = mask
        if self._fn_expects_training_arg:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return super().compute_output_shape(input_shape)  # traced from the function
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch = input_shape[0] if _is_shape(input_shape) else _first_shape(input_shape)[0]
        if _is_shape(tuple(self._output_shape)):
            return (batch,) + tuple(self._output_shape)
        return [(batch,) + tuple(s) for s in self._output_shape]

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask


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
        """Keras's: one ``add`` after another (AddV2, broadcasting), not one AddN."""
        out = inputs[0]
        for x in inputs[1:]:
            out = tf.add(out, x)
        return out

    def compute_output_shape(self, input_shape):
        from .layers_merge import _broadcast_shape

        return _broadcast_shape([tuple(s) for s in input_shape])


def _functional(cls):
    def merge(inputs, **kwargs):
        return cls(**kwargs)(inputs)

    merge.__name__ = merge.__qualname__ = cls.__name__.lower()
    merge.__doc__ = f"``{cls.__name__}(**kwargs)(inputs)``: the functional form of ``keras.layers.{cls.__name__}``."
    return merge


Convolution1D, Convolution2D = Conv1D, Conv2D
add, subtract, multiply = _functional(Add), _functional(Subtract), _functional(Multiply)
average, maximum, minimum = _functional(Average), _functional(Maximum), _functional(Minimum)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def serialize(layer):
    """``keras.layers.serialize``: ``keras.saving.serialize_keras_object`` of a layer."""
    from .serializable import serialize as _serialize

    return _serialize(layer)


def deserialize(config, custom_objects=None):
    """``keras.layers.deserialize``: a layer (or model) from ``serialize``'s dict."""
    from .serializable import deserialize as _deserialize

    return _deserialize(config, custom_objects)


__all__ = ["serialize", "deserialize", "Activation", "Add", "AveragePooling2D", "AvgPool2D", "BatchNormalization", "Concatenate", "Conv1D",
           "Conv2D", "Dense", "Dropout", "Embedding", "Flatten", "GlobalAveragePooling2D", "GlobalAvgPool2D", "Input",
           "InputLayer", "KerasTensor", "Lambda", "Layer", "LayerNormalization", "MaxPool2D", "MaxPooling2D", "ReLU",
           "Reshape", "Softmax", "Average", "Maximum", "Minimum", "Multiply", "Subtract", "add", "average",
           "concatenate", "maximum", "minimum", "multiply", "subtract", "Permute", "RepeatVector", "UpSampling1D",
           "UpSampling2D", "Convolution1D", "Convolution2D", *_pooling, *_recurrent, *_conv_more, *_more, *_attention,
           *_preprocessing, *_text, *_augment, *_adaptive, "SpectralNormalization", "MelSpectrogram", "HashedCrossing", "ConvLSTM2D"]
__getattr__ = _missing("keras.layers")
