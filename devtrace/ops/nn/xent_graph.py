"""``tf.nn.softmax_cross_entropy_with_logits`` in a graph, as TensorFlow 2.21's Python builds it
(``nn_ops.softmax_cross_entropy_with_logits_v2_helper``): in its name scope, the logits and labels
flattened to 2-D (``_flatten_outer_dims``: ``Rank``, ``Shape``, ``Sub``, ``Slice`` of a packed begin,
``concat``, ``Reshape``), the op, and the loss reshaped to the logits' outer shape — every node
named as TensorFlow's, with static shapes (its ``Rank``/``Shape`` are constants then)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.values import constant
from ..math import math_ops
from ..declare import op_scope, with_host_inputs


def _int32(value, name):
    return constant(np.asarray(value, np.int32), dtypes.int32, name=name)


def _begin_or_size(value, name):
    """A slice's begin or size: a list of ints is a ``Const``, a list holding a tensor a ``Pack``."""
    if all(isinstance(v, (int, np.integer)) for v in value):
        return _int32(value, name)
    return execute("Pack", tuple(value), {"axis": 0}, name=name)


def _slice(x, begin, size, values):
    """``array_ops.slice(x, begin, size)``; ``values``: begin and size as ints, for the kernel."""
    with op_scope("Slice") as scope:
        nodes = (_begin_or_size(begin, "begin"), _begin_or_size(size, "size"))
        return with_host_inputs("Slice", (x,), nodes, {"begin": values[0], "size": values[1]}, scope)


def _flatten_outer_dims(x):
    shape = tuple(x.shape)
    rank = _int32(len(shape), "Rank")
    last = _slice(_int32(shape, "Shape"), [math_ops.subtract(rank, 1)], [1], ((len(shape) - 1,), (1,)))
    with op_scope("concat") as scope:
        new_shape = execute("ConcatV2", (_int32([-1], "values_0"), last), {"axis": 0}, name=scope)
    flat = (int(np.prod(shape[:-1])), shape[-1])
    return with_host_inputs("Reshape", (x,), (new_shape,), {"shape": flat})


def softmax_cross_entropy(logits, labels, scope):
    """The loss of ``logits`` and ``labels`` (tensors of one static shape) inside ``scope``."""
    shape = tuple(logits.shape)
    input_rank = _int32(len(shape), "Rank")
    input_shape = _int32(shape, "Shape")
    flat_logits, flat_labels = _flatten_outer_dims(logits), _flatten_outer_dims(labels)
    loss, _ = execute("SoftmaxCrossEntropyWithLogits", (flat_logits, flat_labels), name=scope)
    outer = _slice(input_shape, [0], [math_ops.subtract(input_rank, 1)], ((0,), (len(shape) - 1,)))
    return with_host_inputs("Reshape", (loss,), (outer,), {"shape": shape[:-1]})
