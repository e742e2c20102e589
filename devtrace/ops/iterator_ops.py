"""``IteratorGetNext`` in a ``tf.function``: ``next(iterator)`` while a function is traced makes
this node, and each run of the function takes the iterator's next element (TensorFlow's iterator
resource and its ``IteratorGetNext`` op, on the CPU). The iterator is the node's ``source``
attribute: a callable returning the next element's leaves as arrays (``StopIteration`` at the end:
TensorFlow's ``OutOfRangeError``)."""

from __future__ import annotations

from ..errors import OutOfRangeError
from ..runtime import dtypes
from ..runtime.eager.executor import execute
from ..runtime.context import context
from ..runtime.registry import CPU, GPU
from ..runtime.scopes import device as host_scope
from .declare import op


def _get_next(xp, source=None, output_types=(), output_shapes=()):
    try:
        leaves = source()
    except StopIteration:
        raise OutOfRangeError(None, "IteratorGetNext", "End of sequence") from None
    return tuple(xp.asarray(a).astype(dtypes.as_dtype(t).np, copy=False) for a, t in zip(leaves, output_types))


def _get_next_shape(name, shapes, attrs, dtype):
    return [(dtypes.as_dtype(t), tuple(s)) for t, s in zip(attrs["output_types"], attrs["output_shapes"])], None


# TensorFlow 2.21 registers it for every device type; the node sits with its iterator, on the host
op("IteratorGetNext", _get_next, None, shape=_get_next_shape, multi=True, mixed_dtypes=True,
   stateful=True, devices=(CPU, GPU))


def get_next(source, specs: list) -> tuple:
    """The node: ``specs`` one ``(dtype, shape)`` per leaf (a ``None`` dimension: any size), on
    the host as its iterator resource (TensorFlow colocates the op with it)."""
    ctx = context()
    with host_scope("/device:CPU:0") if ctx.eager else ctx.graph_builder.device("/device:CPU:0"):
        return _node(source, specs)


def _node(source, specs: list) -> tuple:
    return execute("IteratorGetNext", (), {"source": source, "output_types": tuple(dtypes.as_dtype(t).name for t, _ in specs),
                                           "output_shapes": tuple(tuple(s) for _, s in specs)})
