"""``tf.IndexedSlices``: slices of a larger tensor at given indices of its first axis (``values``,
``indices``, ``dense_shape``), as TensorFlow's — kept as given, converted to a dense tensor by an
``UnsortedSegmentSum`` of its values (``dense_shape[0]`` segments) where a tensor is needed — and
a resource variable's ``scatter_*`` methods, which apply one (TensorFlow's ``ResourceScatter*`` ops)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.dtypes import NUMERIC, REAL
from ...runtime.eager.variables import Variable
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ...runtime.tensor_shape import TensorShape
from ...runtime.values import convert_to_tensor
from ..declare import API, DISPATCH, on_host, op, public
from ..math.segment_ops import unsorted_segment_sum


@public("IndexedSlices", "compat.v1.IndexedSlices")
class IndexedSlices:
    """``IndexedSlices(values, indices, dense_shape=None)``: the dense tensor it stands for has
    ``dense[indices[i], ...] = values[i, ...]`` (repeated indices add up)."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    name = property(lambda self: self._values.name)
    device = property(lambda self: self._values.device)
    op = property(lambda self: self._values.op)
    dtype = property(lambda self: self._values.dtype)
    graph = property(lambda self: self._values.graph)

    @property
    def shape(self) -> TensorShape:
        """The dense tensor's shape (unknown without ``dense_shape``)."""
        if self._dense_shape is None:
            return TensorShape(None)
        shape = self._dense_shape
        return TensorShape([int(d) for d in np.asarray(shape.numpy() if hasattr(shape, "numpy") else shape)])

    def __str__(self):
        dense = f", dense_shape={self._dense_shape!s}" if self._dense_shape is not None else ""
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{dense})"

    def __repr__(self):
        return f"<tensorflow.python.framework.indexed_slices.IndexedSlices object at {id(self):#x}>"

    def __neg__(self):
        return IndexedSlices(-self._values, self._indices, self._dense_shape)

    def __tf_tensor__(self, dtype=None, name=None):
        """TensorFlow's conversion: ``UnsortedSegmentSum(values, indices, dense_shape[0])``."""
        if dtype is not None and dtypes.as_dtype(dtype) is not self.dtype:
            raise ValueError(f"Incompatible tensor conversion requested to `dtype` {dtypes.as_dtype(dtype).name} for "
                             f"IndexedSlices ({self}) with dtype {self.dtype.name}")
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices for argument `value` without "
                             f"dense_shape: {self!s}")
        rows = convert_to_tensor(self._dense_shape)[0]
        return unsorted_segment_sum(self._values, self._indices, rows, name=name)


# -- Variable.scatter_*: TensorFlow's ResourceScatter* ops, in place on the variable's buffer -------

def _scatter_kernel(kind):
    def kernel(xp, v, indices, updates):
        out, keys = v.copy(), on_host(xp, indices).astype(np.int64).reshape(-1)
        values = xp.broadcast_to(updates, keys.shape + v.shape[1:]) if updates.ndim == 0 else \
            updates.reshape(keys.shape + v.shape[1:])
        for row in range(keys.shape[0]):
            key = int(keys[row])
            if not 0 <= key < v.shape[0]:
                raise ValueError(f"indices[{row}] = {key} is not in [0, {v.shape[0]})")
            out[key] = _COMBINE[kind](out[key], values[row])
        return out
    return kernel


_COMBINE = {"Update": lambda old, new: new, "Add": lambda old, new: old + new, "Sub": lambda old, new: old - new,
            "Mul": lambda old, new: old * new, "Div": lambda old, new: old / new,
            "Max": lambda old, new: np.maximum(old, new), "Min": lambda old, new: np.minimum(old, new)}
for _kind in _COMBINE:
    op(f"ResourceScatter{_kind}", _scatter_kernel(_kind),
       {CPU: ALL_TYPES, GPU: DEVICE_SAFE} if _kind == "Update" else REAL if _kind in ("Max", "Min") else NUMERIC,
       stateful=True, mixed_dtypes=True)


def _scatter_method(kind):
    def method(self, sparse_delta, use_locking=False, name=None):
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: {sparse_delta}")
        indices = convert_to_tensor(sparse_delta.indices)
        updates = convert_to_tensor(sparse_delta.values, self.dtype)
        return self._assign(f"ResourceScatter{kind}", (self._value, indices, updates))._lazy_read()
    method.__name__ = f"scatter_{kind.lower()}"
    return method


for _kind in _COMBINE:
    setattr(Variable, f"scatter_{_kind.lower()}", _scatter_method(_kind))


DISPATCH["cast", IndexedSlices] = lambda slices, dtype, name=None: IndexedSlices(
    API["cast"](slices.values, dtype, name), slices.indices, slices.dense_shape)
