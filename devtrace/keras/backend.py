"""``tf.keras.backend``: Keras 2's functional backend (``K.mean``, ``K.int_shape`` …), which Keras 3
keeps for ``tf.keras`` (TensorFlow 2.21's ``keras._tf_keras.keras.backend``). Each function is the
TensorFlow op Keras calls, so it is placed, logged and traced like any other; standalone
``keras.backend`` shows only Keras 3's few names (``standalone.View``).

Defaults follow Keras: reductions keep no dims, ``floatx`` is float32, random functions without a
seed draw one from NumPy's global generator (as Keras does)."""

from __future__ import annotations

import builtins
import gc
import itertools
import math as _math

import numpy as np

import devtrace as tf
from devtrace.util.namespace import missing as _missing

from . import engine, keywords
from .config import epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format


def backend():
    return "tensorflow"


def clear_session(free_memory=True):
    """Keras's global state back to a new process's: layer names count from ``dense`` again, the
    global seed generator is made anew at the next unseeded draw, and TensorFlow's default graph is
    new."""
    from . import random as keras_random

    engine._UIDS.clear()
    keras_random._GLOBAL.clear()
    tf.compat.v1.reset_default_graph()
    if free_memory:
        gc.collect()


def get_uid(prefix=""):
    """The number of the next object named ``prefix`` (1 for the first): the counter layer names use."""
    return next(engine._UIDS.setdefault(prefix, itertools.count())) + 1


def is_keras_tensor(x):
    return isinstance(x, engine.KerasTensor)


def standardize_dtype(dtype):
    if dtype is None:
        return floatx()
    if hasattr(dtype, "name") and not isinstance(dtype, str):
        return dtype.name
    return {"float": "float32", "int": "int64", "double": "float64"}.get(str(dtype), str(dtype))


def is_float_dtype(dtype):
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype):
    return standardize_dtype(dtype).startswith(("int", "uint"))


def result_type(*dtypes):
    from .ops import core

    return core.result_type(*dtypes)


# -- values and variables ----------------------------------------------------------------------

def variable(value, dtype=None, name=None, constraint=None):
    keywords.unimplemented("keras.backend.variable", constraint=(constraint, None))
    v = tf.Variable(value, dtype=tf.as_dtype(dtype or floatx()), name=name)
    return v


def constant(value, dtype=None, shape=None, name=None):
    return tf.constant(value, dtype=dtype or floatx(), shape=shape, name=name)


def get_value(x):
    return x.numpy() if tf.is_tensor(x) or isinstance(x, tf.Variable) else x


def batch_get_value(tensors):
    return [get_value(x) for x in tensors]


def set_value(x, value):
    x.assign(np.asarray(value, dtype=x.dtype.name))


def batch_set_value(tuples):
    for x, value in tuples:
        set_value(x, value)


def eval(x):
    return get_value(tf.sparse.to_dense(x) if isinstance(x, tf.SparseTensor) else x)


def cast(x, dtype):
    return tf.cast(x, dtype)


def cast_to_floatx(x):
    if tf.is_tensor(x) or isinstance(x, (tf.Variable, tf.SparseTensor)):
        return tf.cast(x, floatx())
    return np.asarray(x, dtype=floatx())


def _filled(fn, shape, dtype, name):
    value = fn(shape, dtype=tf.as_dtype(dtype or floatx()), name=name)
    if builtins.all(d is not None and d > 0 for d in value.shape):
        return variable(value, dtype or floatx(), name)  # Keras hands back a variable when it can
    return value


def zeros(shape, dtype=None, name=None):
    return _filled(tf.zeros, shape, dtype, name)


def ones(shape, dtype=None, name=None):
    return _filled(tf.ones, shape, dtype, name)


def eye(size, dtype=None, name=None):
    return variable(tf.eye(size, dtype=tf.as_dtype(dtype or floatx())), dtype or floatx(), name)


def zeros_like(x, dtype=None, name=None):
    return tf.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    return tf.ones_like(x, dtype=dtype, name=name)


def int_shape(x):
    shape = x.shape
    return tuple(shape) if isinstance(shape, tuple) else tuple(shape.as_list())


def shape(x):
    return tf.shape(x)


def ndim(x):
    return len(x.shape)


def dtype(x):
    return x.dtype.name if hasattr(x.dtype, "name") else str(x.dtype)


def count_params(x):
    return _math.prod(int_shape(x))


def is_sparse(tensor):
    return isinstance(tensor, tf.SparseTensor)


def to_dense(tensor):
    return tf.sparse.to_dense(tensor) if is_sparse(tensor) else tensor


def update(x, new_x):
    return x.assign(new_x)


def update_add(x, increment):
    return x.assign_add(increment)


def update_sub(x, decrement):
    return x.assign_sub(decrement)


def moving_average_update(x, value, momentum):
    momentum = tf.cast(momentum, x.dtype)
    return x.assign_sub((x - tf.cast(value, x.dtype)) * (1 - momentum))


# -- math --------------------------------------------------------------------------------------

def _reduction(fn, bool_to_float=False):
    def reduce(x, axis=None, keepdims=False):
        if bool_to_float and x.dtype == tf.bool:
            x = tf.cast(x, floatx())
        return fn(x, axis, keepdims)
    return reduce


mean = _reduction(tf.reduce_mean, bool_to_float=True)
sum = _reduction(tf.reduce_sum)
max = _reduction(tf.reduce_max)
min = _reduction(tf.reduce_min)
prod = _reduction(tf.reduce_prod)


def all(x, axis=None, keepdims=False):
    return tf.reduce_all(tf.cast(x, tf.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):
    return tf.reduce_any(tf.cast(x, tf.bool), axis, keepdims)


def var(x, axis=None, keepdims=False):
    if x.dtype == tf.bool:
        x = tf.cast(x, floatx())
    return tf.math.reduce_variance(x, axis=axis, keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    if x.dtype == tf.bool:
        x = tf.cast(x, floatx())
    return tf.math.reduce_std(x, axis=axis, keepdims=keepdims)


def argmax(x, axis=-1):
    return tf.argmax(x, axis)


def argmin(x, axis=-1):
    return tf.argmin(x, axis)


def cumsum(x, axis=0):
    return tf.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return tf.math.cumprod(x, axis=axis)


abs, sqrt, square, exp, sign, round = tf.abs, tf.sqrt, tf.square, tf.exp, tf.sign, tf.round
sin, cos, tanh, sigmoid = tf.sin, tf.cos, tf.tanh, tf.sigmoid
equal, not_equal, greater, greater_equal = tf.equal, tf.not_equal, tf.greater, tf.greater_equal
less, less_equal, maximum, minimum = tf.less, tf.less_equal, tf.maximum, tf.minimum


def log(x):
    return tf.math.log(x)


def pow(x, a):
    return tf.pow(x, a)


def clip(x, min_value, max_value):
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    return tf.clip_by_value(x, -np.inf if min_value is None else min_value, np.inf if max_value is None else max_value)


def arange(start, stop=None, step=1, dtype="int32"):
    if stop is None and start < 0:
        start = 0
    out = tf.range(start, limit=stop, delta=step, name="arange")
    return out if dtype == "int32" else tf.cast(out, dtype)


def dot(x, y):
    if ndim(x) > 2 or ndim(y) > 2:  # x's last axis against y's second-to-last, as NumPy's dot
        y_perm = list(range(ndim(y)))
        y_perm = [y_perm.pop(-2)] + y_perm
        xt = tf.reshape(x, [-1, x.shape[-1]])
        yt = tf.reshape(tf.transpose(y, perm=y_perm), [y.shape[-2], -1])
        return tf.reshape(tf.matmul(xt, yt), tuple(x.shape[:-1]) + tuple(y.shape[:-2]) + tuple(y.shape[-1:]))
    if is_sparse(x):
        return tf.sparse.sparse_dense_matmul(x, y)
    return tf.matmul(x, y)


def batch_dot(x, y, axes=None):
    """The product over ``axes`` of each batch entry (Keras's rules: a rank-2 input gains a unit axis)."""
    xn, yn = ndim(x), ndim(y)
    if xn < 2 or yn < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with tf.shapes "
                         f"{x.shape} and {y.shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [xn - 1, yn - 1 if yn == 2 else yn - 2]
    a0, a1 = (a + n if a < 0 else a for a, n in zip(axes, (xn, yn)))
    if 0 in (a0, a1):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy batch "
                         "dimension to your inputs using K.expand_dims(x, 0)")
    letters = "abcdefghijklmnopqrstuvwxyz"
    xs = "z" + letters[:xn - 1]
    ys = "z" + letters[xn - 1:xn + yn - 2]
    ys = ys[:a1] + xs[a0] + ys[a1 + 1:]
    out = "z" + "".join(c for i, c in enumerate(xs) if i not in (0, a0)) + "".join(
        c for i, c in enumerate(ys) if i not in (0, a1))
    result = tf.einsum(f"{xs},{ys}->{out}", x, y)
    return tf.expand_dims(result, -1) if len(out) == 1 else result


def l2_normalize(x, axis=None):
    return tf.linalg.l2_normalize(x, axis=axis)


def in_top_k(predictions, targets, k):
    return tf.math.in_top_k(targets, predictions, k)


# -- shapes ------------------------------------------------------------------------------------

def reshape(x, shape):
    return tf.reshape(x, shape)


def permute_dimensions(x, pattern):
    return tf.transpose(x, perm=pattern)


def transpose(x):
    return tf.transpose(x)


def expand_dims(x, axis=-1):
    return tf.expand_dims(x, axis)


def squeeze(x, axis):
    return tf.squeeze(x, [axis])


def flatten(x):
    return tf.reshape(x, [-1])


def batch_flatten(x):
    return tf.reshape(x, tf.stack([-1, tf.reduce_prod(tf.shape(x)[1:])]))


def concatenate(tensors, axis=-1):
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    if builtins.all(is_sparse(x) for x in tensors):
        return tf.sparse.concat(axis, tensors)
    return tf.concat([to_dense(x) for x in tensors], axis)


def stack(x, axis=0):
    return tf.stack(x, axis=axis)


def tile(x, n):
    return tf.tile(x, [n] if isinstance(n, int) else n)


def repeat(x, n):
    if ndim(x) != 2:
        raise ValueError(f"Expected `x` to have ndim 2. Received: x.shape={x.shape}")
    return tf.tile(tf.expand_dims(x, 1), tf.stack([1, n, 1]))


def repeat_elements(x, rep, axis):
    return tf.repeat(x, rep, axis=axis)


def reverse(x, axes):
    return tf.reverse(x, [axes] if isinstance(axes, int) else axes)


def gather(reference, indices):
    return tf.gather(reference, indices)


def one_hot(indices, num_classes):
    return tf.one_hot(indices, depth=num_classes, axis=-1)


def temporal_padding(x, padding=(1, 1)):
    return tf.pad(x, [[0, 0], list(padding), [0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    pads = [list(p) for p in padding]
    if (data_format or image_data_format()) == "channels_first":
        return tf.pad(x, [[0, 0], [0, 0]] + pads)
    return tf.pad(x, [[0, 0]] + pads + [[0, 0]])


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    pads = [list(p) for p in padding]
    if (data_format or image_data_format()) == "channels_first":
        return tf.pad(x, [[0, 0], [0, 0]] + pads)
    return tf.pad(x, [[0, 0]] + pads + [[0, 0]])


def stop_gradient(variables):
    if isinstance(variables, (list, tuple)):
        return [tf.stop_gradient(v) for v in variables]
    return tf.stop_gradient(variables)


def switch(condition, then_expression, else_expression):
    then_value = then_expression() if callable(then_expression) else then_expression
    else_value = else_expression() if callable(else_expression) else else_expression
    return tf.where(tf.cast(condition, tf.bool), then_value, else_value)


def map_fn(fn, elems, name=None, dtype=None):
    return tf.map_fn(fn, elems, name=name, dtype=dtype)


def name_scope(name):
    return tf.name_scope(name)


# -- activations and losses --------------------------------------------------------------------

def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    if alpha != 0.0 and max_value is None and threshold == 0:
        return tf.nn.leaky_relu(x, alpha=alpha)
    negative = tf.nn.relu(-x + threshold) if alpha != 0.0 else None
    if threshold != 0:
        x = x * tf.cast(tf.greater(x, threshold), x.dtype)
    elif max_value == 6:
        x, max_value = tf.nn.relu6(x), None
    else:
        x = tf.nn.relu(x)
    if max_value is not None:
        x = tf.clip_by_value(x, tf.constant(0, dtype=x.dtype), tf.constant(max_value, dtype=x.dtype))
    if negative is not None:
        x -= tf.constant(alpha, dtype=x.dtype) * negative
    return x


def elu(x, alpha=1.0):
    out = tf.nn.elu(x)
    return out if alpha == 1 else tf.where(x > 0, out, alpha * out)


def softmax(x, axis=-1):
    return tf.nn.softmax(x, axis=axis)


def softplus(x):
    return tf.math.softplus(x)


def softsign(x):
    return tf.math.softsign(x)


def hard_sigmoid(x):
    x = tf.add(tf.multiply(x, tf.constant(0.2, dtype=x.dtype)), tf.constant(0.5, dtype=x.dtype))
    return tf.clip_by_value(x, 0.0, 1.0)


def bias_add(x, bias, data_format=None):
    data_format = data_format or image_data_format()
    if len(bias.shape) == 1:
        return tf.nn.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")
    if data_format == "channels_first":
        return x + tf.reshape(bias, (1, bias.shape[-1]) + tuple(bias.shape[:-1]))
    return x + tf.reshape(bias, (1,) + tuple(bias.shape))


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=0.001):
    return tf.nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


def _clipped(output):
    eps = tf.constant(epsilon(), dtype=output.dtype)
    return tf.clip_by_value(output, eps, 1.0 - eps)


def binary_crossentropy(target, output, from_logits=False):
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clipped(output)
    bce = target * tf.math.log(output + epsilon())
    bce += (1 - target) * tf.math.log(1 - output + epsilon())
    return -bce


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = _clipped(output / tf.reduce_sum(output, axis, True))
    return -tf.reduce_sum(target * tf.math.log(output), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if not from_logits:
        output = tf.math.log(_clipped(output))
    if axis != -1 and axis != len(output.shape) - 1:
        perm = [a for a in range(len(output.shape)) if a != axis % len(output.shape)] + [axis % len(output.shape)]
        output = tf.transpose(output, perm)
    target = tf.cast(target, tf.int64)
    if len(target.shape) == len(output.shape):
        target = tf.squeeze(target, -1)
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)


def dropout(x, level, noise_shape=None, seed=None):
    return tf.nn.dropout(x, rate=level, noise_shape=noise_shape, seed=_seed(seed))


# -- random ------------------------------------------------------------------------------------

def _seed(seed):
    return int(np.random.randint(10_000_000)) if seed is None else seed


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return tf.random.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=_seed(seed))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return tf.random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return tf.random.truncated_normal(shape, mean, stddev, dtype=dtype or floatx(), seed=_seed(seed))


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    dtype = dtype or floatx()
    return tf.where(tf.random.uniform(shape, dtype=dtype, seed=_seed(seed)) <= p,
                    tf.ones(shape, dtype=dtype), tf.zeros(shape, dtype=dtype))


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    return variable(random_normal(shape, mean, scale, dtype, seed), dtype, name)


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    return variable(random_uniform(shape, low, high, dtype, seed), dtype, name)


def gradients(loss, variables):
    raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.")


__getattr__ = _missing("keras.backend")
