"""Keras 3's ``SpectralNormalization``: a wrapper that, in training, divides its layer's kernel (or
embeddings) by their largest singular value, estimated by ``power_iterations`` steps of the power
method from a stored vector ``u`` (Miyato et al.); outside training the layer runs as it is."""

from __future__ import annotations

import devtrace as tf
from . import initializers
from .engine import Layer


def _unit(x):
    return x / tf.sqrt(tf.maximum(tf.reduce_sum(tf.square(x)), 1e-12))


class SpectralNormalization(Layer):
    def __init__(self, layer, power_iterations=1, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please ensure "
                             "wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        if power_iterations <= 0:
            raise ValueError(f"`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.layer, self.power_iterations = layer, power_iterations

    def build(self, input_shape):
        with tf.name_scope(self.name):
            self.layer._maybe_build(tuple(input_shape))
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' nor 'embeddings'")
        self._layer_weights.append(self.kernel)  # Keras tracks the kernel as the wrapper's own: its weights go kernel, vector_u, …
        self.kernel_shape = self.kernel.shape
        self.vector_u = self.add_weight(shape=(1, self.kernel_shape[-1]),
                                        initializer=initializers.TruncatedNormal(stddev=0.02), trainable=False,
                                        name="vector_u", dtype=self.kernel.dtype)
        self.built = True

    def normalized_weights(self):
        """``(u, kernel / sigma)`` after the power iterations."""
        weights = tf.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        u = tf.convert_to_tensor(self.vector_u)
        for _ in range(self.power_iterations):
            v = _unit(tf.matmul(u, tf.transpose(weights)))
            u = _unit(tf.matmul(v, weights))
        u, v = tf.stop_gradient(u), tf.stop_gradient(v)
        sigma = tf.matmul(tf.matmul(v, weights), tf.transpose(u))
        return u, tf.reshape(tf.convert_to_tensor(self.kernel) / sigma, self.kernel_shape)

    def call(self, inputs, training=False):
        if training and not bool(tf.reduce_all(tf.equal(tf.convert_to_tensor(self.kernel), 0))):
            u, kernel = self.normalized_weights()
            self.vector_u.assign(u)
            self.kernel.assign(kernel)
        inputs = tf.convert_to_tensor(inputs)
        return tf.cast(self.layer(inputs), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)


__all__ = ["SpectralNormalization"]
