"""``tf.test.compute_gradient``: the Jacobians of ``f`` at ``x`` by the tape (theoretical) and by
central differences (numerical), as TensorFlow's ``gradient_checker_v2`` computes them: one
``(y size, x size)`` matrix per argument, the step ``1/1024`` unless given."""

from __future__ import annotations

import numpy as np

from ..backprop.backprop import GradientTape
from ..ops.declare import as_tensor
from ..runtime.values import constant


def _theoretical(f, xs, param):
    x = xs[param]
    x_size = int(np.prod(x.shape, dtype=np.int64))
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = as_tensor(f(*xs))
    y_flat = y.numpy().reshape(-1)
    out = np.zeros((y_flat.size, x_size), dtype=x.dtype.as_numpy_dtype)
    for row in range(y_flat.size):
        one_hot = np.zeros(y_flat.size, y.dtype.as_numpy_dtype)
        one_hot[row] = 1
        grad = tape.gradient(y, x, output_gradients=constant(one_hot.reshape(y.shape), y.dtype))
        if grad is not None:
            out[row, :] = np.asarray(grad.numpy()).reshape(-1)
    return out


def _numerical(f, xs, param, delta):
    values = [np.array(x.numpy()) for x in xs]
    dtypes = [x.dtype for x in xs]
    x = values[param]
    y_dtype = as_tensor(f(*xs)).dtype.as_numpy_dtype
    scale = np.asarray(2 * delta, y_dtype)[()]

    def call(col, step):
        moved = x.copy().reshape(-1)
        moved[col] += step
        args = [constant(moved.reshape(x.shape) if i == param else v, d)
                for i, (v, d) in enumerate(zip(values, dtypes))]
        return as_tensor(f(*args)).numpy()

    y_size = as_tensor(f(*xs)).numpy().size
    out = np.zeros((y_size, x.size), dtype=x.dtype)
    for col in range(x.size):
        out[:, col] = ((call(col, delta) - call(col, -delta)) / scale).reshape(-1)
    return out


def compute_gradient(f, x, delta=None):
    """``((theoretical Jacobian per argument), (numerical Jacobian per argument))``."""
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"`x` must be a list or tuple of values convertible to a Tensor (arguments to `f`), "
                         f"not a {type(x)}")
    delta = 1.0 / 1024 if delta is None else delta
    xs = [as_tensor(v) for v in x]
    return (tuple(_theoretical(f, xs, i) for i in range(len(xs))),
            tuple(_numerical(f, xs, i, delta) for i in range(len(xs))))
