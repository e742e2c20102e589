"""Symbolic tensors: the outputs of TF1 graph nodes — a name, a dtype, a static shape, and no
value until a ``Session`` runs them."""

from __future__ import annotations

from ...errors import OperatorNotAllowedInGraphError
from ..tensor import Tensor
from ..tensor_shape import TensorShape
from .default_session import default_session
from .operation import consumers_of

# Ops whose single output is a ref: 0 inputs + ref output = a "ref generator" (the variable).
REF_OUTPUTS = frozenset(("VariableV2", "Assign"))


def output_of(op, multi=False):
    """What building ``op`` returns: its output, its outputs (a multi-output op: a tuple, however
    many), or the op itself (an op without outputs)."""
    if multi:
        return op._outputs
    return op._outputs[0] if op._outputs else op


def value_of(values: dict, tensor):
    """``tensor``'s value among a run's ``{node id: value}`` (a multi-output node's is a tuple)."""
    value = values[tensor._op._id]
    return value[tensor._index] if type(value) is tuple else value


def _shape_of(shape):
    return TensorShape(None) if shape is None else TensorShape(shape)


class SymbolicTensor(Tensor):
    """An output of a graph node: a name, a dtype, a static shape — no value until a Session runs it."""

    __slots__ = ("_op", "_index", "_shape")

    def __init__(self, op, index, dtype, shape):
        self._value = self._device = self._handle = None
        self._seq = 0
        self._dtype = dtype
        self._op = op
        self._index = index
        self._shape = shape

    def __format__(self, spec):
        return format(str(self), spec)

    @property
    def name(self) -> str:
        return f"{self._op.name}:{self._index}"

    @property
    def op(self):
        return self._op

    @property
    def graph(self):
        return self._op._graph

    @property
    def device(self) -> str:
        """The device the node *requested* (TensorFlow's ``Tensor.device`` in graph mode)."""
        return self._op._device

    @property
    def shape(self) -> TensorShape:
        return _shape_of(self._shape)

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """TensorFlow's: the static shape narrowed to what ``shape`` also says (``(None, None, 3)`` and
        ``[28, 28, 3]``: ``(28, 28, 3)``); an incompatible one is a ValueError."""
        super().set_shape(shape)
        merged = self.shape.merge_with(TensorShape(shape))
        self._shape = None if merged.rank is None else tuple(merged.as_list())

    @property
    def ndim(self):
        return None if self._shape is None else len(self._shape)

    @property
    def value_index(self) -> int:
        return self._index

    def consumers(self) -> list:
        return [self._op._graph._ops[i] for i in consumers_of(self._op)
                if any(t is self for t in self._op._graph._ops[i]._inputs)]

    def eval(self, feed_dict=None, session=None):
        return default_session(session, "Tensor").run(self, feed_dict)

    def _dtype_text(self) -> str:
        return self._dtype.name + ("_ref" if self._op.type in REF_OUTPUTS else "")

    def __str__(self):
        shape = f", shape={self.shape}" if self.shape.rank is not None else ""  # TensorFlow's: none when unknown
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype_text()})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self._dtype_text()}>"

    @property
    def numpy(self):
        """TensorFlow 2.21's graph tensors have no ``numpy`` (``hasattr(t, "numpy")`` is false); a
        tensor leaked from a ``tf.function`` says so when read."""
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This "
                                  f"error may indicate that you're trying to pass a Tensor to a NumPy call, "
                                  f"which is not supported.")

    def _disallow_in_function(self, task: str) -> None:
        """Inside a tf.function's tracing: TensorFlow's OperatorNotAllowedInGraphError for ``task``."""
        if getattr(self._op._graph, "captures", None) is not None:
            raise OperatorNotAllowedInGraphError(
                f"{task} is not allowed. You can attempt the following resolutions to the problem: If you are "
                "running in Graph mode, use Eager execution mode or decorate this function with @tf.function. If "
                "you are using AutoGraph, you can try decorating this function with @tf.function. If that does not "
                "work, then you may be using an unsupported feature or your source code may not be visible to "
                "AutoGraph. See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
                "g3doc/reference/limitations.md#access-to-source-code for more information.")

    def __bool__(self):
        self._disallow_in_function("Using a symbolic `tf.Tensor` as a Python `bool`")
        raise TypeError("Using a `tf.Tensor` as a Python `bool` is not allowed in Graph execution. Use Eager "
                        "execution or decorate this function with @tf.function.")

    def __len__(self):
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please call `x.shape` "
                        f"rather than `len(x)` for shape information.")

    def __iter__(self):
        self._disallow_in_function("Iterating over a symbolic `tf.Tensor`")
        raise TypeError("Tensor objects are only iterable when eager execution is enabled. To iterate over "
                        "this tensor use tf.map_fn.")

    __hash__ = object.__hash__
