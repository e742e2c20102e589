"""``tf.TensorArray``: eagerly a Python list of tensors (as TensorFlow's eager TensorArray is:
no op runs until ``stack``), inside a ``tf.function`` a TensorList (``list_ops``) — a ``variant``
tensor each write replaces, so the array can be a ``while`` loop's variable."""

from __future__ import annotations

import numpy as np

from ...errors import OutOfRangeError
from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.values import constant
from ..array import array_ops
from . import list_ops
from ..array import split_ops  # noqa: F401 (list_ops: the TensorList ops)
from ..declare import as_tensor, public


@public("TensorArray")
class TensorArray:
    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic = bool(dynamic_size)
        self._element_shape = element_shape
        # in a function: the element shape, shared by every array derived from this one (TensorFlow's
        # infer_shape: the first write sets it, also inside a loop body), and the size when static
        self._shape_cell = [None if element_shape is None else tuple(element_shape)]
        self._static_size = None if dynamic_size or not isinstance(size, (int, np.integer)) else int(size)
        # eagerly, TensorFlow's default clears an element once read (later reads, stack and concat see
        # zeros of the element shape there)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        if flow is not None:  # a new list value for the same array (a write, a loop iteration)
            self._items, self._list = None, flow
        elif context().eager:
            self._items, self._list = [None] * int(0 if size is None else size), None
        else:
            self._items = None
            self._list = execute("TensorListReserve", (as_tensor(0 if size is None else size),),
                                 {"element_dtype": self._dtype.name})

    def __repr__(self):
        return f"<tensorflow.python.ops.tensor_array_ops.TensorArray object at {id(self):#x}>"

    @property
    def dtype(self):
        return self._dtype

    @property
    def element_shape(self):
        """The elements' shape: given, or learned from the first write (unknown before)."""
        from ...runtime.tensor_shape import TensorShape

        return TensorShape(self._shape_cell[0])

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic

    @property
    def flow(self):
        return self._list

    def _with(self, new_list) -> "TensorArray":
        out = TensorArray(self._dtype, dynamic_size=self._dynamic, element_shape=self._element_shape, flow=new_list)
        out._shape_cell, out._static_size = self._shape_cell, self._static_size
        return out

    def _shaped(self, tensor, lead=()):
        """A list op's output with the static shape the array knows (its elements', its size)."""
        if self._shape_cell[0] is not None:
            tensor._shape = tuple(lead) + self._shape_cell[0]
        return tensor

    # a loop variable: the list tensor goes through the While node, a new TensorArray comes out
    def _loop_component(self):
        if self._list is None:
            raise ValueError("devtrace: a TensorArray made eagerly cannot be a loop variable inside tf.function")
        return self._list

    def _rebuild(self, component) -> "TensorArray":
        return self._with(component)

    def write(self, index, value, name=None) -> "TensorArray":
        value = as_tensor(value) if not isinstance(value, (int, float)) else constant(value, self._dtype)
        if self._list is not None:
            if self._shape_cell[0] is None and value._shape is not None and None not in tuple(value._shape):
                self._shape_cell[0] = tuple(value._shape)
            return self._with(execute("TensorListSetItem", (self._list, as_tensor(index), value),
                                      {"resize_if_index_out_of_bounds": self._dynamic}))
        i = int(index)
        if i >= len(self._items):
            if not self._dynamic:
                raise OutOfRangeError(f"Tried to write to index {i} but array is not resizeable and size is: "
                                      f"{len(self._items)} ")
            self._items.extend([None] * (i + 1 - len(self._items)))
        self._items[i] = value
        if self._shape_cell[0] is None:
            self._shape_cell[0] = tuple(value.shape)
        return self

    def read(self, index, name=None):
        if self._list is not None:
            return self._shaped(execute("TensorListGetItem", (self._list, as_tensor(index)),
                                        {"element_dtype": self._dtype.name}, dtype=dtypes.variant))
        i = int(index)
        if not 0 <= i < len(self._items):
            raise OutOfRangeError(f"Tried to read from index {i} but array size is: {len(self._items)} ")
        value = self._maybe_zero(i)
        if self._clear_after_read:
            self._items[i] = None
        return value

    def _maybe_zero(self, i):
        if self._items[i] is None:
            return array_ops.zeros(self._shape_cell[0] or self._element_shape or [], self._dtype)
        return self._items[i]

    def stack(self, name=None):
        if self._list is not None:
            return self._shaped(execute("TensorListStack", (self._list,), {"element_dtype": self._dtype.name},
                                        dtype=dtypes.variant), (self._static_size,))
        if not self._items:
            return array_ops.zeros([0] + list(self._element_shape or []), self._dtype)
        return array_ops.stack([self._maybe_zero(i) for i in range(len(self._items))])

    def gather(self, indices, name=None):
        if self._list is None:
            return array_ops.stack([self._maybe_zero(int(i)) for i in as_tensor(indices).numpy()])
        return array_ops.stack([self.read(int(i)) for i in as_tensor(indices).numpy()])

    def concat(self, name=None):
        return array_ops.concat([self._maybe_zero(i) for i in range(len(self._items))], 0)

    def unstack(self, value, name=None) -> "TensorArray":
        value = as_tensor(value)
        if self._list is not None:
            shape = tuple(value.shape.as_list()) if value.shape.rank is not None else None
            if self._shape_cell[0] is None and shape and None not in shape[1:]:
                self._shape_cell[0] = shape[1:]  # TensorFlow's infer_shape: the rows' shape
            return self._with(execute("TensorListFromTensor", (value,)))
        self._items = list(split_ops.unstack(value))
        return self

    def scatter(self, indices, value, name=None) -> "TensorArray":
        for i, item in zip(as_tensor(indices).numpy(), split_ops.unstack(as_tensor(value))):
            self.write(int(i), item)
        return self

    def size(self, name=None):
        if self._list is not None:
            return execute("TensorListLength", (self._list,), dtype=dtypes.variant)
        return constant(len(self._items), dtypes.int32)

    def close(self, name=None):
        return None
