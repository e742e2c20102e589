"""``keras.ops.linalg`` on devtrace's ``tf.linalg``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (Keras's keyword)
    x = tf.convert_to_tensor(x)
    if not x.dtype.is_floating:
        x = tf.cast(x, tf.float32)
    if ord is None:
        return tf.sqrt(tf.reduce_sum(tf.square(tf.abs(x)), axis=axis, keepdims=keepdims))
    return tf.norm(x, ord=ord, axis=axis, keepdims=keepdims)


def inv(x):
    return tf.linalg.inv(x)


def det(x):
    return tf.linalg.det(x)


def cholesky(x, upper=False):
    out = tf.linalg.cholesky(x)
    return tf.linalg.adjoint(out) if upper else out


def qr(x, mode="reduced"):
    return tf.linalg.qr(x, full_matrices=mode == "complete")


def solve(a, b):
    return tf.linalg.solve(a, b)


def pinv(x, rcond=None):
    return tf.linalg.pinv(tf.convert_to_tensor(x), rcond=rcond)


def matrix_rank(x, tol=None):
    return tf.linalg.matrix_rank(tf.convert_to_tensor(x), tol=tol)


__all__ = ["cholesky", "det", "inv", "matrix_rank", "norm", "pinv", "qr", "solve"]
__getattr__ = _missing("keras.ops.linalg")
