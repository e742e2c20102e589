"""Keras's ``Embedding``, ``BatchNormalization`` (batch statistics in training, moving ones in
inference, the moving averages updated by assignment) and ``LayerNormalization``."""

from __future__ import annotations

import devtrace as tf
from . import initializers
from .engine import Layer, same_shape, to_compute_dtype, upcast


class Embedding(Layer):
    _TRACKED_AS = {"embeddings": "_embeddings"}  # Keras 3 keeps it as ``_embeddings``: a checkpoint's key
    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 mask_zero=False, **kwargs):
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self._init = initializers.get(embeddings_initializer)
        self._reg, self.mask_zero = embeddings_regularizer, mask_zero

    def compute_mask(self, inputs, mask=None):
        """With ``mask_zero``: ``NotEqual(ids, 0)``, the mask the next layers receive."""
        if not self.mask_zero:
            return None
        return tf.not_equal(inputs, 0)

    def build(self, input_shape):
        self.embeddings = self.add_weight((self.input_dim, self.output_dim), self._init, name="embeddings",
                                          regularizer=self._reg)
        self.built = True

    def call(self, inputs):
        ids = tf.convert_to_tensor(inputs)
        if not ids.dtype.is_integer:
            ids = tf.cast(ids, tf.int32)
        return tf.gather(self.embeddings, ids)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)


class BatchNormalization(Layer):
    supports_masking = True

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 **kwargs):
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon, self.center, self.scale = axis, momentum, epsilon, center, scale
        self._inits = tuple(initializers.get(i) for i in (gamma_initializer, beta_initializer, moving_mean_initializer,
                                                          moving_variance_initializer))

    def build(self, input_shape):
        dim = (input_shape[self.axis],)
        gamma, beta, mean, var = self._inits
        self.gamma = self.add_weight(dim, gamma, name="gamma", autocast=False) if self.scale else None
        self.beta = self.add_weight(dim, beta, name="beta", autocast=False) if self.center else None
        self.moving_mean = self.add_weight(dim, mean, name="moving_mean", trainable=False, autocast=False)
        self.moving_variance = self.add_weight(dim, var, name="moving_variance", trainable=False, autocast=False)
        self._input_axes = {self.axis: input_shape[self.axis]}
        self.built = True

    compute_output_shape = same_shape

    def call(self, inputs, training=None, mask=None):
        x = upcast(tf.convert_to_tensor(inputs))  # Keras computes float16/bfloat16 inputs in float32
        axes = [i for i in range(len(x.shape)) if i != self.axis % len(x.shape)]
        if training and self.trainable:
            mean, variance = tf.nn.moments(x, axes)
            self.moving_mean.assign(self.moving_mean * self.momentum + mean * (1.0 - self.momentum))
            self.moving_variance.assign(self.moving_variance * self.momentum + variance * (1.0 - self.momentum))
        else:
            mean, variance = self.moving_mean, self.moving_variance
        beta, gamma = self.beta, self.gamma
        if self.axis % len(x.shape) != len(x.shape) - 1:  # stats along a middle axis broadcast as [1, C, 1 …]
            shape = [1] * len(x.shape)
            shape[self.axis % len(x.shape)] = -1
            mean, variance = tf.reshape(mean, shape), tf.reshape(variance, shape)
            beta = None if beta is None else tf.reshape(beta, shape)
            gamma = None if gamma is None else tf.reshape(gamma, shape)
        return to_compute_dtype(self, tf.nn.batch_normalization(x, mean, variance, beta, gamma, self.epsilon))


class LayerNormalization(Layer):
    supports_masking = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon, self.center, self.scale = axis, epsilon, center, scale
        self._inits = (initializers.get(gamma_initializer), initializers.get(beta_initializer))
        self.autocast = False  # Keras's: inputs taken as they come, computed in float32 at least

    def _axes(self, rank):
        return [a % rank for a in (self.axis if isinstance(self.axis, (list, tuple)) else [self.axis])]

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        dim = tuple(input_shape[a] for a in self._axes(len(input_shape)))
        self.gamma = self.add_weight(dim, self._inits[0], name="gamma", autocast=False) if self.scale else None
        self.beta = self.add_weight(dim, self._inits[1], name="beta", autocast=False) if self.center else None
        self.built = True

    compute_output_shape = same_shape

    def call(self, inputs):
        x = upcast(tf.convert_to_tensor(inputs))
        rank = len(x.shape)
        axes = self._axes(rank)
        mean, variance = tf.nn.moments(x, axes, keepdims=True)
        shape = [x.shape[i] if i in axes else 1 for i in range(rank)]
        gamma, beta = self.gamma, self.beta
        if len(axes) > 1 or axes[0] != rank - 1:  # the weights broadcast over the normalized axes
            gamma = tf.reshape(gamma, shape) if gamma is not None else None
            beta = tf.reshape(beta, shape) if beta is not None else None
        return to_compute_dtype(self, tf.nn.batch_normalization(x, mean, variance, beta, gamma, self.epsilon))

