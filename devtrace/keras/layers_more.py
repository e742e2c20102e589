"""Keras's smaller layers past the core ones: activations as layers (``LeakyReLU``, ``PReLU``,
``ELU``), ``Masking``, ``Identity``, ``ActivityRegularization``, noise and spatial dropout
(``GaussianNoise``, ``GaussianDropout``, ``AlphaDropout``, ``SpatialDropout1D/2D/3D``, active only
in training), ``GroupNormalization``,
padding and cropping (``ZeroPadding1D/2D/3D``, ``Cropping1D/2D/3D``), ``UpSampling3D``, ``Dot``
(Keras's ``batch_dot``) and the normalizations ``RMSNormalization`` and ``UnitNormalization``."""

from __future__ import annotations

import random

import devtrace as tf
from . import initializers, keywords
from . import random as keras_random
from .engine import Layer, same_shape


class LeakyReLU(Layer):
    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or negative value. "
                             f"Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope
        self.supports_masking = True

    compute_output_shape = same_shape

    def call(self, inputs):
        return tf.nn.leaky_relu(inputs, alpha=self.negative_slope)


class ELU(Layer):
    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha
        self.supports_masking = True

    compute_output_shape = same_shape

    def call(self, inputs):
        y = tf.nn.elu(inputs)
        return y if self.alpha == 1.0 else tf.where(tf.convert_to_tensor(inputs) > 0, y, y * self.alpha)


class PReLU(Layer):
    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.PReLU", alpha_constraint=(alpha_constraint, None))
        self._init = initializers.get("zeros" if alpha_initializer in ("Zeros", "zeros") else alpha_initializer)
        self._reg = alpha_regularizer
        self.shared_axes = [shared_axes] if isinstance(shared_axes, int) else shared_axes
        self.supports_masking = True

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            shape[axis - 1] = 1
        self.alpha = self.add_weight(tuple(shape), self._init, name="alpha", regularizer=self._reg)
        self.built = True

    compute_output_shape = same_shape

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        return tf.nn.relu(x) - self.alpha * tf.nn.relu(-x)


class Identity(Layer):
    compute_output_shape = same_shape
    supports_masking = True

    def call(self, inputs):
        return inputs


class ActivityRegularization(Layer):
    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(**kwargs)
        self.l1, self.l2 = l1, l2
        self.supports_masking = True

    compute_output_shape = same_shape

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        if self.l1:
            self.add_loss(self.l1 * tf.reduce_sum(tf.abs(x)))
        if self.l2:
            self.add_loss(self.l2 * tf.reduce_sum(tf.square(x)))
        return x


class Masking(Layer):
    """Steps whose features all equal ``mask_value`` are masked (and zeroed, as Keras does)."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    compute_output_shape = same_shape

    def compute_mask(self, inputs, mask=None):
        return tf.reduce_any(tf.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        keep = tf.reduce_any(tf.not_equal(x, self.mask_value), axis=-1, keepdims=True)
        return x * tf.cast(keep, x.dtype)


class _Noise(Layer):
    def __init__(self, rate=None, seed=None, stddev=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.stddev = rate, stddev
        self.seed = seed if seed is not None else random.randint(1, int(1e9))
        active = (stddev if rate is None else rate) > 0  # Keras makes no seed generator for a no-op
        self._seed_state = keras_random.SeedGenerator(self.seed).state if active else None
        self.supports_masking = True

    compute_output_shape = same_shape

    def _next_seed(self):
        state = self._seed_state.read_value()
        self._seed_state.assign_add(tf.constant([0, 1], tf.int64))
        return tf.cast(tf.math.floormod(state, 2147483646), tf.int32)


class GaussianNoise(_Noise):
    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(seed=seed, stddev=stddev, **kwargs)

    def call(self, inputs, training=False):
        x = tf.convert_to_tensor(inputs)
        if not training or self.stddev == 0:
            return x
        return x + tf.random.stateless_normal(list(x.shape), self._next_seed(), stddev=self.stddev, dtype=x.dtype)


class GaussianDropout(_Noise):
    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate=rate, seed=seed, **kwargs)

    def call(self, inputs, training=False):
        x = tf.convert_to_tensor(inputs)
        if not training or not 0 < self.rate < 1:
            return x
        stddev = (self.rate / (1.0 - self.rate)) ** 0.5
        return x * tf.random.stateless_normal(list(x.shape), self._next_seed(), mean=1.0, stddev=stddev,
                                              dtype=x.dtype)


class _SpatialDropout(_Noise):
    rank = 1

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate=float(rate), seed=seed, **kwargs)

    def call(self, inputs, training=False):
        x = tf.convert_to_tensor(inputs)
        if not training or self.rate == 0:
            return x
        shape = [x.shape[0]] + [1] * self.rank + [x.shape[-1]]
        keep = tf.random.stateless_uniform(shape, self._next_seed(), dtype=x.dtype) >= self.rate
        return tf.where(keep, x * (1.0 / (1.0 - self.rate)), tf.zeros((), x.dtype))


class SpatialDropout1D(_SpatialDropout):
    rank = 1


class SpatialDropout2D(_SpatialDropout):
    rank = 2


class SpatialDropout3D(_SpatialDropout):
    rank = 3


def _amounts(value, rank, name):
    """Keras's padding/cropping argument: an int, one per axis, or ``(before, after)`` per axis."""
    if isinstance(value, int):
        return [(value, value)] * rank
    value = list(value)
    if rank == 1 and len(value) == 2 and all(isinstance(v, int) for v in value):
        return [tuple(value)]
    if len(value) != rank:
        raise ValueError(f"`{name}` should have {rank} elements. Received: {value}.")
    return [(v, v) if isinstance(v, int) else tuple(v) for v in value]


class _ZeroPadding(Layer):
    rank = 1

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented(f"keras.layers.{type(self).__name__}",
                               data_format=(data_format, (None, "channels_last")))
        self.padding = _amounts(padding, self.rank, "padding")

    def compute_output_shape(self, input_shape):
        dims = [d + a + b if d is not None else None for d, (a, b) in zip(input_shape[1:-1], self.padding)]
        return (input_shape[0], *dims, input_shape[-1])

    def call(self, inputs):
        return tf.pad(inputs, [[0, 0]] + [list(p) for p in self.padding] + [[0, 0]])


class ZeroPadding1D(_ZeroPadding):
    rank = 1


class ZeroPadding2D(_ZeroPadding):
    rank = 2


class ZeroPadding3D(_ZeroPadding):
    rank = 3


class _Cropping(Layer):
    rank = 1

    _DEFAULT = 1

    def __init__(self, cropping=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented(f"keras.layers.{type(self).__name__}",
                               data_format=(data_format, (None, "channels_last")))
        self.cropping = _amounts(self._DEFAULT if cropping is None else cropping, self.rank, "cropping")

    def compute_output_shape(self, input_shape):
        dims = [d - a - b if d is not None else None for d, (a, b) in zip(input_shape[1:-1], self.cropping)]
        return (input_shape[0], *dims, input_shape[-1])

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        index = [slice(None)] + [slice(a, d - b) for d, (a, b) in zip(x.shape[1:-1], self.cropping)] + [slice(None)]
        return x[tuple(index)]


class Cropping1D(_Cropping):
    rank = 1


class Cropping2D(_Cropping):
    _DEFAULT = 0  # Keras's cropping=((0, 0), (0, 0)); Cropping1D's and Cropping3D's crop 1
    rank = 2


class Cropping3D(_Cropping):
    rank = 3


class UpSampling3D(Layer):
    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.UpSampling3D", data_format=(data_format, (None, "channels_last")))
        self.size = tuple(size) if isinstance(size, (list, tuple)) else (int(size),) * 3

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        for axis, n in enumerate(self.size, start=1):
            x = tf.repeat(x, n, axis=axis)
        return x

    def compute_output_shape(self, input_shape):
        dims = [d * s if d is not None else None for d, s in zip(input_shape[1:4], self.size)]
        return (input_shape[0], *dims, input_shape[4])


class Dot(Layer):
    """Keras's ``batch_dot`` of two inputs over ``axes`` (a 2-D pair gives ``(batch, 1)``)."""

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.axes, self.normalize = axes, normalize

    def _axes(self, ranks):
        axes = list(self.axes) if isinstance(self.axes, (list, tuple)) else [self.axes, self.axes]
        return [a % r for a, r in zip(axes, ranks)]

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: inputs={inputs} "
                             f"(not a list of tensors)")
        x, y = (tf.convert_to_tensor(v) for v in inputs)
        ax, ay = self._axes([len(x.shape), len(y.shape)])
        if self.normalize:
            x, y = tf.math.l2_normalize(x, axis=ax), tf.math.l2_normalize(y, axis=ay)
        letters = "bcdefghijklmnopq"
        xs = ["a"] + list(letters[:len(x.shape) - 1])
        ys = ["a"] + list(letters[len(x.shape) - 1:len(x.shape) + len(y.shape) - 2])
        ys[ay] = xs[ax]
        out = [c for i, c in enumerate(xs) if i != ax] + [c for i, c in enumerate(ys) if i not in (0, ay)]
        result = tf.einsum(f"{''.join(xs)},{''.join(ys)}->{''.join(out)}", x, y)
        return tf.expand_dims(result, 1) if len(result.shape) == 1 else result

    def compute_output_shape(self, input_shape):
        sx, sy = list(input_shape[0]), list(input_shape[1])
        ax, ay = self._axes([len(sx), len(sy)])
        out = [d for i, d in enumerate(sx) if i != ax] + [d for i, d in enumerate(sy) if i not in (0, ay)]
        return tuple(out) if len(out) > 1 else (out[0], 1)


def dot(inputs, axes=-1, **kwargs):
    return Dot(axes=axes, **kwargs)(inputs)


class RMSNormalization(Layer):
    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def build(self, input_shape):
        axes = self.axis if isinstance(self.axis, (list, tuple)) else [self.axis]
        self.scale = self.add_weight(tuple(input_shape[a] for a in axes), "ones", name="scale")
        self.built = True

    compute_output_shape = same_shape

    def call(self, x):
        x = tf.convert_to_tensor(x)
        rms = tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=self.axis, keepdims=True) + self.epsilon)
        return x * rms * self.scale


class GroupNormalization(Layer):
    """Keras's: the channels split into ``groups``, each normalized over its channels and the other
    axes (``moments``), then scaled and shifted per channel."""

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        keywords.unimplemented("keras.layers.GroupNormalization", beta_constraint=(beta_constraint, None),
                               gamma_constraint=(gamma_constraint, None))
        self.groups, self.axis, self.epsilon, self.center, self.scale = groups, axis, epsilon, center, scale
        self._inits = (initializers.get(gamma_initializer), initializers.get(beta_initializer))
        self._regs = (gamma_regularizer, beta_regularizer)
        self.supports_masking = True

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer "
                             f"received an input with shape {input_shape}.")
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels ({dim}).")
        if dim % self.groups:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels "
                             f"({dim}).")
        self.gamma = self.add_weight((dim,), self._inits[0], name="gamma", regularizer=self._regs[0]) \
            if self.scale else None
        self.beta = self.add_weight((dim,), self._inits[1], name="beta", regularizer=self._regs[1]) \
            if self.center else None
        self.built = True

    compute_output_shape = same_shape

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        rank = len(x.shape)
        axis = self.axis % rank
        shape = [-1] + [d for d in x.shape[1:]]
        shape[axis] = x.shape[axis] // self.groups
        shape.insert(axis, self.groups)
        grouped = tf.reshape(x, shape)
        axes = [i for i in range(1, rank + 1) if i != axis]
        mean, variance = tf.nn.moments(grouped, axes, keepdims=True)
        broadcast = [1] * rank
        broadcast[axis] = x.shape[axis] // self.groups
        broadcast.insert(axis, self.groups)
        inv = tf.math.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            inv = inv * tf.reshape(self.gamma, broadcast)
        res = -mean * inv
        if self.beta is not None:
            res = res + tf.reshape(self.beta, broadcast)
        return tf.reshape(grouped * inv + res, tf.shape(x))


class AlphaDropout(_Noise):
    """Keras's: kept units as they are, dropped ones at SELU's negative saturation, then an affine
    map that keeps the mean and variance."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(rate=float(rate), seed=seed, **kwargs)
        keywords.unimplemented("keras.layers.AlphaDropout", noise_shape=(noise_shape, None))

    def call(self, inputs, training=False):
        x = tf.convert_to_tensor(inputs)
        if not training or self.rate <= 0:
            return x
        alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
        kept = tf.cast(tf.random.stateless_uniform(list(x.shape), self._next_seed(), dtype=x.dtype) >= self.rate,
                       x.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (x * kept + (1 - kept) * alpha_p) + b


class UnitNormalization(Layer):
    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True

    compute_output_shape = same_shape

    def call(self, inputs):
        return tf.math.l2_normalize(inputs, axis=self.axis, epsilon=1e-12)


__all__ = ["ActivityRegularization", "AlphaDropout", "Cropping1D", "Cropping2D", "Cropping3D", "Dot", "ELU",
           "GaussianDropout", "GaussianNoise", "GroupNormalization", "Identity", "LeakyReLU", "Masking", "PReLU", "RMSNormalization", "SpatialDropout1D",
           "SpatialDropout2D", "SpatialDropout3D", "UnitNormalization", "UpSampling3D", "ZeroPadding1D",
           "ZeroPadding2D", "ZeroPadding3D", "dot"]
