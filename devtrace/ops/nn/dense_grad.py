"""The gradients of a dense layer's ``Relu`` and ``BiasAdd`` through the ops TensorFlow runs for them
(``nn_grad.py``): ``ReluGrad`` (the upstream gradient where the output is positive) and
``BiasAddGrad`` (summed over every axis but the channels'); and those ops' own gradients, for
second-order gradients."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ..array import array_ops
from ..declare import gradient, op
from .native import loop, threads


def _bias_add_grad_shape(name, shapes, attrs, dtype):
    shape = shapes[0]
    return dtype, None if shape is None else (shape[-1],)


def _relu_grad_kernel(xp, dy, y):
    """``dy * (y > 0)`` as TensorFlow's (NaN and -0.0 alike), the mask made in ``dy``'s type first:
    a product of two float arrays, not of a float and a boolean one (a slower, casting loop)."""
    if dy.shape != y.shape:
        return (dy * (y > 0)).astype(dy.dtype, copy=False)
    native = loop("relu_grad", xp, dy.dtype) if isinstance(dy, np.ndarray) and y.dtype == dy.dtype else None
    if native is not None:  # one pass in C, the same product
        dy, y = (a if a.flags.c_contiguous else a.copy() for a in (dy, y))
        out = np.empty_like(dy)
        native(dy, y, out, dy.itemsize, threads(out.size))
        return out
    out = (y > 0).astype(dy.dtype)
    out *= dy
    return out


op("ReluGrad", _relu_grad_kernel, dtypes.FLOATS, shape=lambda n, s, a, d: (d, s[0]))


BIAS_BLOCK = 16  # rows summed side by side in BiasAddGrad


def _bias_add_grad_kernel(xp, dy):
    """Each channel's sum over every other axis. NumPy sums a float matrix's rows one after another,
    a loop of a few elements per row; on the host, ``BIAS_BLOCK`` rows are summed side by side
    (long loops, and partial sums: closer to the exact sum), then the blocks' sums."""
    if xp is not np or dy.dtype not in (np.float32, np.float64) or dy.ndim < 2 or not dy.size or \
            dy.size < BIAS_BLOCK * dy.shape[-1]:
        return xp.sum(dy, axis=tuple(range(dy.ndim - 1))).astype(dy.dtype)
    channels = dy.shape[-1]
    rows = dy.reshape(-1, channels)
    whole = rows.shape[0] - rows.shape[0] % BIAS_BLOCK
    blocks = rows[:whole].reshape(whole // BIAS_BLOCK, BIAS_BLOCK * channels).sum(axis=0)
    out = blocks.reshape(BIAS_BLOCK, channels).sum(axis=0)
    if whole < rows.shape[0]:
        out += rows[whole:].sum(axis=0)
    return out


op("BiasAddGrad", _bias_add_grad_kernel, dtypes.NUMERIC, shape=_bias_add_grad_shape)


@gradient("Relu")
def _relu_grad(op, grad):
    return (execute("ReluGrad", (grad, op.outputs[0])),)


@gradient("ReluGrad")
def _relu_grad_grad(op, grad):
    y = op.inputs[1]
    return execute("ReluGrad", (grad, y)), array_ops.zeros_like(y)


@gradient("BiasAdd")
def _bias_add_grad(op, grad):
    return grad, execute("BiasAddGrad", (grad,))


@gradient("BiasAddGrad")
def _bias_add_grad_grad(op, grad):
    """Each channel's gradient back over the summed axes."""
    return (array_ops.broadcast_to(grad, list(op.inputs[0].shape)),)
