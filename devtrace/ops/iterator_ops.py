"""``IteratorGetNext`` in a ``tf.function``: ``next(iterator)`` while a function is traced makes
this node, and each run of the function takes the iterator's next element (TensorFlow's iterator
resource and its ``IteratorGetNext`` op, on the CPU). The iterator is the node's ``source``
attribute: a callable returning the next element's leaves as arrays (``StopIteration`` at the end:
TensorFlow's ``OutOfRangeError``)."""

from __future__ import annotations

from ..errors import OutOfRangeError
from ..runtime import dtypes
from ..runtime.context import context
from ..runtime.eager.executor import execute
from ..runtime.scopes import device
from .declare import op


def _get_next(xp, source=None, output_types=(), output_shapes=()):
    try:
        leaves = source()
    except StopIteration:
        raise OutOfRangeError(None, "IteratorGetNext", "End of sequence") from None
    return tuple(xp.asarray(a).astype(dtypes.as_dtype(t).np, copy=False) for a, t in zip(leaves, output_types))


def _get_next_shape(name, shapes, attrs, dtype):
    return [(dtypes.as_dtype(t), tuple(s)) for t, s in zip(attrs["output_types"], attrs["output_shapes"])], None


# TensorFlow registers it for the CPU and the GPU (its outputs in host memory); it runs where its
# iterator resource is, the CPU
op("IteratorGetNext", _get_next, shape=_get_next_shape, multi=True, mixed_dtypes=True, stateful=True)


def get_next(source, specs: list) -> tuple:
    """The node, on this task's CPU: ``specs`` one ``(dtype, shape)`` per leaf (a ``None``
    dimension: any size)."""
    attrs = {"source": source, "output_types": tuple(dtypes.as_dtype(t).name for t, _ in specs),
             "output_shapes": tuple(tuple(s) for _, s in specs)}
    with device(f"{context().task}/device:CPU:0"):
        return execute("IteratorGetNext", (), attrs)
