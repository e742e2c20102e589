"""Eager tensors: a device buffer, its dtype, and the allocator handle freed with it."""

from __future__ import annotations

import numpy as np

from . import dtypes
from . import threads as _threads
from .native import FASTPATH
from .tensor_shape import TensorShape


class _TensorBase:
    """An eager tensor's slots, its allocation freed with it: the Python reference of
    ``_fastpath.TensorBase``, which frees host memory in C and calls this ``__del__`` otherwise."""

    __slots__ = ("_value", "_device", "_handle", "_dtype", "_seq")

    def __del__(self):  # runs once per tensor: the handle needs no clearing
        handle = self._handle
        if handle is not None:
            try:
                if _threads.active:  # ops run from several threads: the allocator is theirs in turn
                    with _threads.LOCK:
                        self._device.allocator.free(handle)
                else:
                    self._device.allocator.free(handle)
            except Exception:  # interpreter shutdown: allocators may already be gone
                pass


if FASTPATH is not None:
    FASTPATH.set_release(_TensorBase.__del__)


class Tensor(FASTPATH.TensorBase if FASTPATH is not None else _TensorBase):
    """Operators (``+ - * / @``, comparisons) are installed by ``ops``, as TensorFlow's
    ``math_ops`` overrides them on its Tensor class."""

    __slots__ = ("__weakref__",)
    __array_priority__ = 100  # NumPy defers to the tensor's operators (ndarray + tensor is a tensor)

    def __init__(self, value, device, handle, dtype, seq=0):
        self._value = value  # a NumPy or CuPy array, resident on ``device``
        self._device = device
        self._handle = handle
        self._dtype = dtype
        self._seq = seq  # the op that produced it (trace data edges)

    # -- properties ------------------------------------------------------------------------
    @property
    def device(self) -> str:
        return self._device.name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return tuple.__new__(TensorShape, self._value.shape)  # NumPy's dims: known, non-negative

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
        return float(self._scalar())

    def __int__(self):
        return int(self._scalar())

    def _scalar(self):
        """The value of a 0-d tensor. TensorFlow 2.21 runs with NumPy >= 2.3, which refuses any other
        (older NumPy converts size-1 arrays with a warning): its error, whatever NumPy is here."""
        if self._value.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return self.numpy()

    def __index__(self):
        return self.numpy().__index__()  # an int tensor only, as TensorFlow's

    def __format__(self, spec):
        return self.numpy().__format__(spec)

    __hash__ = object.__hash__

    def __setitem__(self, key, value):  # TensorFlow's text: its tensors are immutable
        raise TypeError("'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment")

    def __copy__(self):
        return self  # immutable: TensorFlow's copies are equal values

    def __deepcopy__(self, memo):
        return self

    @property
    def backing_device(self) -> str:
        return self._device.name

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied shape {TensorShape(shape)}.")

    def ref(self) -> "Reference":
        """A hashable reference (``tf.Tensor.ref``): equal for the same tensor."""
        return Reference(self)

    def eval(self, feed_dict=None, session=None):
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() what you're "
                                  "looking for?")

    op = property(lambda self: _undefined("op"))
    name = property(lambda self: _undefined("name"))
    graph = property(lambda self: _undefined("graph"))

    # -- printing exactly as TensorFlow does -------------------------------------------------
    def _numpy_text(self, is_repr=False):
        value = self._device.backend.to_host(self._value)
        if self._dtype is dtypes.string:
            value = np.asarray(value)
        if is_repr and value.ndim == 0:  # TensorFlow shows a scalar as the Python value: numpy=0.10000000149011612
            item = value[()]
            text = repr(item if isinstance(item, bytes) else item.item())
        else:
            text = repr(value) if is_repr else str(value)
        if "\n" in text:
            text = "\n" + text
        return text

    def _variant_text(self):
        """A variant scalar holding a value that names itself (a dataset: ``<MapDatasetOp::Dataset>``)."""
        if self._dtype.name != "variant" or self._value.ndim:
            return None
        return getattr(np.asarray(self._value)[()], "variant_text", None)

    def __str__(self):
        text = self._variant_text()
        return f"tf.Tensor({text or self._numpy_text()}, shape={self.shape}, dtype={self._dtype.name})"

    def __repr__(self):
        text = self._variant_text()
        if text is not None:
            return f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, value={text}>"
        return f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, numpy={self._numpy_text(True)}>"


Tensor.__name__ = Tensor.__qualname__ = "EagerTensor"  # what type(t).__name__ says of an eager tensor in TensorFlow
EagerTensor = Tensor  # pickle finds the class by that name


def _undefined(what: str):
    raise AttributeError(f"Tensor.{what} is undefined when eager execution is enabled.")


class Reference:
    """What ``Tensor.ref()`` returns: hashable by the tensor's identity; ``deref()`` gives it back."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __eq__(self, other):
        return isinstance(other, Reference) and other._tensor is self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __repr__(self):
        return f"<Reference wrapping {self._tensor!r}>"
