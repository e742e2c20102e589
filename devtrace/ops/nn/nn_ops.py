"""``tf.nn`` activations and softmax."""

from __future__ import annotations

import numpy as np

from ...runtime.dtypes import FLOATS, INTEGERS
from ...runtime.eager.executor import execute
from .. import shapes
from ..declare import as_tensor, op, public, unary
from ..math.math_ops import widened
from .native import loop, threads


def _relu(xp, x):
    """``maximum(x, 0)``; an array on the host in float32/64 in one C pass (NumPy's maximum takes
    several times a copy's time), the same values."""
    native = loop("relu", xp, x.dtype) if isinstance(x, np.ndarray) else None
    if native is None:
        return xp.maximum(x, 0)
    x = x if x.flags.c_contiguous else x.copy()
    out = np.empty_like(x)
    native(x, out, x.itemsize, threads(x.size))
    return out


relu = unary("Relu", _relu, FLOATS | {"int32", "int64"}, ("nn.relu",))
relu6 = unary("Relu6", lambda xp, x: xp.minimum(xp.maximum(x, 0), 6).astype(x.dtype), FLOATS | INTEGERS,
              ("nn.relu6",))
elu = unary("Elu", lambda xp, x: xp.where(x > 0, x, xp.expm1(x)), FLOATS, ("nn.elu",))
selu = unary("Selu", lambda xp, x: 1.0507009873554805 * xp.where(x > 0, x, 1.6732632423543772 * xp.expm1(x)),
             FLOATS, ("nn.selu",))
sigmoid = unary("Sigmoid", widened(lambda xp, x: 1 / (1 + xp.exp(-x))), FLOATS | {"complex64", "complex128"}, ("nn.sigmoid", "sigmoid", "math.sigmoid"))
softplus = unary("Softplus", lambda xp, x: xp.logaddexp(x, 0).astype(x.dtype), FLOATS, ("nn.softplus", "math.softplus"))
softsign = unary("Softsign", lambda xp, x: x / (1 + xp.abs(x)), FLOATS, ("nn.softsign", "math.softsign"))


def _softmax(xp, x):
    e = xp.exp(x - xp.max(x, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


def _log_softmax(xp, x):
    shifted = x - xp.max(x, axis=-1, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))


op("Softmax", _softmax, FLOATS, shape=shapes.same)
op("LogSoftmax", _log_softmax, FLOATS, shape=shapes.same)
op("LeakyRelu", lambda xp, x, alpha=0.2: xp.where(x > 0, x, x * alpha).astype(x.dtype), FLOATS, shape=shapes.same)


@public("nn.softmax", "math.softmax")
def softmax(logits, axis=None, name=None):
    x = as_tensor(logits)
    if axis is None or axis in (-1, len(x.shape) - 1):
        return execute("Softmax", (x,), name=name)
    from ..array.array_ops import transpose

    perm = list(range(len(x.shape)))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return transpose(execute("Softmax", (transpose(x, perm),)), perm)


@public("nn.log_softmax", "math.log_softmax")
def log_softmax(logits, axis=None, name=None):
    x = as_tensor(logits)
    return execute("LogSoftmax", (x,), name=name)


@public("nn.leaky_relu")
def leaky_relu(features, alpha=0.2, name=None):
    return execute("LeakyRelu", (as_tensor(features),), {"alpha": float(alpha)}, name=name)


@public("nn.gelu")
def gelu(features, approximate=False, name=None):
    """TensorFlow's composition (``Erfc`` exactly, ``Tanh`` approximately)."""
    from ..array.array_ops import cast
    from ..math.math_ops import erfc, pow_, tanh

    x = as_tensor(features)
    if not x.dtype.is_floating:
        raise ValueError(f"`features.dtype` must be a floating point tensor.Received:features.dtype={x.dtype}")
    if approximate:
        coeff = cast(0.044715, x.dtype)
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + coeff * pow_(x, 3))))
    return 0.5 * x * erfc(-x * cast(0.7071067811865476, x.dtype))


@public("nn.silu", "nn.swish")
def swish(features, beta=1.0):
    """``features * sigmoid(beta * features)``, ``beta`` a tensor cast to the features' dtype."""
    from ..array.array_ops import cast

    x = as_tensor(features)
    b = cast(as_tensor(beta), x.dtype)
    return x * sigmoid(b * x)


@public("math.log_sigmoid")
def log_sigmoid(x, name=None):
    """TensorFlow's composition: ``-softplus(-x)``."""
    from ..math.math_ops import negative

    x = as_tensor(x)
    return negative(softplus(negative(x)), name=name)


op("L2Loss", lambda xp, t: xp.asarray((t * t).sum() / 2, dtype=t.dtype), FLOATS,
   shape=lambda name, shapes_, attrs, dtype: (dtype, ()))


@public("nn.l2_loss")
def l2_loss(t, name=None):
    return execute("L2Loss", (as_tensor(t),), name=name)


def _depth_to_space(xp, x, block_size=2):
    n, h, w, c = x.shape
    b = block_size
    if c % (b * b):
        raise ValueError(f"Input depth dimension {c} should be divisible by: {b * b}")
    out = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return out.reshape(n, h * b, w * b, c // (b * b)).copy()


def _space_to_depth(xp, x, block_size=2):
    n, h, w, c = x.shape
    b = block_size
    if h % b or w % b:
        raise ValueError(f"Image width {w} and height {h} should be divisible by block_size: {b}")
    out = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return out.reshape(n, h // b, w // b, b * b * c).copy()


op("DepthToSpace", _depth_to_space)
op("SpaceToDepth", _space_to_depth)


@public("nn.depth_to_space")
def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002 (TensorFlow's name)
    return execute("DepthToSpace", (as_tensor(input),), {"block_size": int(block_size)}, name=name)


@public("nn.space_to_depth")
def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002 (TensorFlow's name)
    return execute("SpaceToDepth", (as_tensor(input),), {"block_size": int(block_size)}, name=name)
