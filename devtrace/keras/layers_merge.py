"""Keras's merge layers past ``Add`` and ``Concatenate`` (``Subtract``, ``Multiply``, ``Average``,
``Maximum``, ``Minimum``; their functional forms, ``layers.add([a, b])`` …, in ``layers``): inputs
of one shape, combined element by element (broadcast as Keras's ops broadcast)."""

from __future__ import annotations

import functools

import devtrace as tf
from .engine import Layer


def _broadcast_shape(shapes):
    rank = max(len(s) for s in shapes)
    out = []
    for dims in zip(*[(1,) * (rank - len(s)) + tuple(s) for s in shapes]):
        known = [d for d in dims if d not in (None, 1)]
        out.append(known[0] if known else (None if None in dims else 1))
    return tuple(out)


class _Merge(Layer):
    def _combine(self, xs):
        raise NotImplementedError

    def call(self, inputs):
        return self._combine([tf.convert_to_tensor(x) for x in inputs])

    def compute_output_shape(self, input_shape):
        return _broadcast_shape(input_shape)


class Subtract(_Merge):
    def _combine(self, xs):
        if len(xs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: inputs={xs}")
        return tf.subtract(xs[0], xs[1])


class Multiply(_Merge):
    def _combine(self, xs):
        return functools.reduce(tf.multiply, xs)


class Average(_Merge):
    def _combine(self, xs):
        return tf.add_n(xs) / len(xs) if len({tuple(x.shape) for x in xs}) == 1 \
            else functools.reduce(tf.add, xs) / len(xs)


class Maximum(_Merge):
    def _combine(self, xs):
        return functools.reduce(tf.maximum, xs)


class Minimum(_Merge):
    def _combine(self, xs):
        return functools.reduce(tf.minimum, xs)
