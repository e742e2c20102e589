"""Eager tensors: a device buffer, its dtype, and the allocator handle freed with it."""

from __future__ import annotations

import numpy as np

from . import dtypes


class TensorShape(tuple):
    """A tuple that prints like TensorFlow's: ``str`` → ``(2, 2)``, ``repr`` → ``TensorShape([2, 2])``."""

    def __repr__(self):
        return f"TensorShape({list(self)})"

    def __str__(self):
        return tuple.__repr__(self)

    def as_list(self):
        return list(self)

    @property
    def rank(self):
        return len(self)


class Tensor:
    __slots__ = ("_value", "_device", "_handle", "_dtype", "_seq", "__weakref__")

    def __init__(self, value, device, handle, dtype, seq=0):
        self._value = value  # a NumPy or CuPy array, resident on ``device``
        self._device = device
        self._handle = handle
        self._dtype = dtype
        self._seq = seq  # the op that produced it (trace data edges)

    def __del__(self):
        handle = self._handle
        if handle is not None:
            self._handle = None
            try:
                self._device.allocator.free(handle)
            except Exception:  # interpreter shutdown: allocators may already be gone
                pass

    # -- properties ------------------------------------------------------------------------
    @property
    def device(self) -> str:
        return self._device.name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def ndim(self):
        return self._value.ndim

    def numpy(self):
        value = self._device.backend.to_host(self._value)
        return value.copy() if value.ndim else value[()]

    def __array__(self, dtype=None, copy=None):
        value = np.asarray(self._device.backend.to_host(self._value))
        return value.astype(dtype) if dtype is not None else value

    def __len__(self):
        if not self._value.ndim:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __bool__(self):
        return bool(self.numpy())

    def __float__(self):
        return float(self.numpy())

    def __int__(self):
        return int(self.numpy())

    def __index__(self):
        return int(self.numpy())

    __hash__ = object.__hash__

    # -- printing exactly as TensorFlow does -------------------------------------------------
    def _numpy_text(self, is_repr=False):
        value = self._device.backend.to_host(self._value)
        if self._dtype is dtypes.string:
            value = np.asarray(value)
        text = repr(value) if is_repr else str(value)
        if "\n" in text:
            text = "\n" + text
        return text

    def __str__(self):
        return f"tf.Tensor({self._numpy_text()}, shape={self.shape}, dtype={self._dtype.name})"

    def __repr__(self):
        return f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, numpy={self._numpy_text(True)}>"

    # -- operators -------------------------------------------------------------------------
    def __add__(self, other):
        return _ops.add(self, other)

    def __radd__(self, other):
        return _ops.add(other, self)

    def __sub__(self, other):
        return _ops.subtract(self, other)

    def __rsub__(self, other):
        return _ops.subtract(other, self)

    def __mul__(self, other):
        return _ops.multiply(self, other)

    def __rmul__(self, other):
        return _ops.multiply(other, self)

    def __truediv__(self, other):
        return _ops.divide(self, other)

    def __rtruediv__(self, other):
        return _ops.divide(other, self)

    def __matmul__(self, other):
        return _ops.matmul(self, other)

    def __rmatmul__(self, other):
        return _ops.matmul(other, self)

    def __neg__(self):
        return _ops.negative(self)

    def __lt__(self, other):
        return _ops.less(self, other)

    def __le__(self, other):
        return _ops.less_equal(self, other)

    def __gt__(self, other):
        return _ops.greater(self, other)

    def __ge__(self, other):
        return _ops.greater_equal(self, other)


from . import ops as _ops  # noqa: E402  (operators dispatch to the op functions)
