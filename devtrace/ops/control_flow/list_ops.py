"""TensorList ops: what a ``TensorArray`` is inside a ``tf.function`` (TensorFlow's list_ops).

A list is a ``variant`` tensor whose value (``dtypes.ListValue``) holds the item arrays; each op
returns a new list, so a list can be a loop variable of a ``While`` node.
"""

from __future__ import annotations

from ...runtime import dtypes
from ...runtime.dtypes import ListValue
from ...runtime.registry import ALL_TYPES, CPU, GPU
from ..declare import not_differentiable, op

_TYPES = ALL_TYPES


def _items(lst) -> list:
    return list(lst[()])


def _reserve(xp, num_elements, element_dtype="float32"):
    return ListValue.of([None] * int(num_elements))


def _set_item(xp, lst, index, item, resize_if_index_out_of_bounds=False):
    items, i = _items(lst), int(index)
    if i >= len(items):
        if not resize_if_index_out_of_bounds:
            raise IndexError(f"Trying to modify element {i} in a list with {len(items)} elements.")
        items.extend([None] * (i + 1 - len(items)))
    items[i] = item
    return ListValue.of(items)


def _get_item(xp, lst, index, element_dtype="float32", element_shape=None):
    """An item; one never written reads as zeros when the element shape is known (TensorFlow's
    kernel: a gradient list's untouched elements)."""
    items, i = _items(lst), int(index)
    if not 0 <= i < len(items):
        raise IndexError(f"Trying to access element {i} in a list with {len(items)} elements.")
    if items[i] is None:
        if element_shape is not None:
            return xp.zeros(tuple(element_shape), dtype=dtypes.as_dtype(element_dtype).np)
        raise ValueError(f"Trying to read an uninitialized tensor at index {i} of the list")
    return items[i].copy()


def _stack(xp, lst, element_dtype="float32", element_shape=None):
    items = _items(lst)
    known = next((a for a in items if a is not None), None)
    np_dtype = dtypes.as_dtype(element_dtype).np
    if known is None:
        return xp.zeros((len(items),) + tuple(element_shape or ()), dtype=np_dtype)
    return xp.stack([xp.zeros(known.shape, np_dtype) if a is None else a for a in items])


def add_lists(lists):
    """TensorFlow's aggregation of TensorLists (``AddN``: gradients of one list): an unwritten item is zeros."""
    out = []
    for column in zip(*(value[()] for value in lists)):
        present = [a for a in column if a is not None]
        out.append(sum(present[1:], present[0].copy()) if present else None)
    return ListValue.of(out)


op("TensorListReserve", _reserve, {CPU: _TYPES, GPU: _TYPES},
   shape=lambda name, shapes, attrs, dtype: (dtypes.variant, ()))
op("TensorListSetItem", _set_item, {CPU: _TYPES, GPU: _TYPES}, mixed_dtypes=True,
   shape=lambda name, shapes, attrs, dtype: (dtypes.variant, ()))
op("TensorListGetItem", _get_item, {CPU: _TYPES, GPU: _TYPES}, mixed_dtypes=True,
   shape=lambda name, shapes, attrs, dtype: (dtypes.as_dtype(attrs["element_dtype"]), attrs.get("element_shape")))
op("TensorListStack", _stack, {CPU: _TYPES, GPU: _TYPES},
   shape=lambda name, shapes, attrs, dtype: (dtypes.as_dtype(attrs["element_dtype"]), None))
op("TensorListLength", lambda xp, lst: xp.asarray(len(_items(lst)), dtype="int32"), {CPU: _TYPES, GPU: _TYPES},
   shape=lambda name, shapes, attrs, dtype: (dtypes.int32, ()))
op("TensorListFromTensor", lambda xp, t: ListValue.of([t[i].copy() for i in range(t.shape[0])]),
   {CPU: _TYPES, GPU: _TYPES}, shape=lambda name, shapes, attrs, dtype: (dtypes.variant, ()))


def _pop_back(xp, lst, shape_input, element_dtype="float32", element_shape=None):
    items = _items(lst)
    if not items:
        raise ValueError("Trying to pop from an empty list.")
    return ListValue.of(items[:-1]), items[-1].copy()


def _popped(name, shapes, attrs, dtype):
    return [(dtypes.variant, ()), (dtypes.as_dtype(attrs["element_dtype"]), attrs.get("element_shape"))], None


# a while loop's accumulators (while_grad.py): the forward body pushes an intermediate every iteration,
# the gradient's body pops them in reverse; the element shape is an input, as TensorFlow's (a Const node)
op("EmptyTensorList", lambda xp, element_shape, max_num_elements, element_dtype="float32": ListValue.of([]),
   {CPU: _TYPES, GPU: _TYPES}, mixed_dtypes=True, shape=lambda name, shapes, attrs, dtype: (dtypes.variant, ()))
op("TensorListPushBack", lambda xp, lst, item, element_dtype="float32": ListValue.of(_items(lst) + [item]),
   {CPU: _TYPES, GPU: _TYPES}, mixed_dtypes=True, shape=lambda name, shapes, attrs, dtype: (dtypes.variant, ()))
op("TensorListPopBack", _pop_back, {CPU: _TYPES, GPU: _TYPES}, mixed_dtypes=True, multi=True, shape=_popped)
not_differentiable("TensorListReserve", "TensorListLength")
