"""``tf.random.uniform`` / ``normal`` / ``truncated_normal`` in a graph, as TensorFlow 2.21's Python
builds them: in their name scope (``random_uniform``, ``random_normal``, ``truncated_normal``) the
shape and the distribution's parameters as ``Const`` nodes (``shape``, ``min``/``max``,
``mean``/``stddev``), the random op, then the scaling, the last node named after the scope."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.values import constant
from ..math import math_ops
from ...runtime.graph.tensor import SymbolicTensor
from ..declare import op_scope, static_hint, with_host_inputs


def _shape(dims):
    """The ``shape`` input: a ``Const`` of static dims; a graph tensor (``tf.shape(x)``) as it is, the
    op's ``shape`` attr then its static hint (``None`` where unknown)."""
    if isinstance(dims, SymbolicTensor):
        return dims
    return constant(np.array(dims, np.int32), dtypes.int32, name="shape")


def _attrs(attrs, dims):
    if not isinstance(dims, SymbolicTensor):
        return attrs
    hint = static_hint(dims)
    return dict(attrs, shape=None if hint is None or isinstance(hint, int) else hint)


def uniform(dims, minval, maxval, dt, attrs, name):
    """``attrs``: the random op's (shape, dtype, seed; an integer one's bounds)."""
    zero = isinstance(minval, int) and minval == 0
    one = isinstance(maxval, int) and maxval == 1
    attrs = _attrs(attrs, dims)
    with op_scope("random_uniform", name) as scope:
        shape = _shape(dims)
        if dt.is_integer:
            bounds = (constant(minval, dt, name="min"), constant(maxval, dt, name="max"))
            return with_host_inputs("RandomUniformInt", (), (shape, *bounds), attrs, scope, dt)
        low, high = (None, None) if zero and one else (constant(minval, dt, name="min"), constant(maxval, dt, name="max"))
        rnd = with_host_inputs("RandomUniform", (), (shape,), attrs, None, dt)
        if zero:
            return rnd if one else math_ops.multiply(rnd, high)
        return math_ops.add(rnd * (high - low), low, name=scope)


def scaled(op_type, default, dims, mean, stddev, dt, attrs, name):
    """``rnd * stddev + mean`` of ``op_type`` (RandomStandardNormal, TruncatedNormal)."""
    attrs = _attrs(attrs, dims)
    with op_scope(default, name) as scope:
        shape = _shape(dims)
        mean_t, std_t = constant(mean, dt, name="mean"), constant(stddev, dt, name="stddev")
        rnd = with_host_inputs(op_type, (), (shape,), attrs, None, dt)
        return math_ops.add(rnd * std_t, mean_t, name=scope)
