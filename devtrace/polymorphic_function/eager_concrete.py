"""``get_concrete_function`` of ragged or sparse arguments (values, or ``RaggedTensorSpec`` /
``SparseTensorSpec`` in an ``input_signature``): devtrace runs such a function eagerly (no trace of a
composite tensor's components, README's deliberate differences), so its concrete function is the
Python function, carrying the signature TensorFlow's would (``structured_input_signature``)."""

from __future__ import annotations

from ..ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from ..runtime.tensor import Tensor
from ..util.nest import flatten, map_structure


def composite_spec(args, kwargs) -> bool:
    """A ``RaggedTensorSpec`` or ``SparseTensorSpec`` among the arguments."""
    return any(isinstance(v, (RaggedTensorSpec, SparseTensorSpec)) for v in flatten((list(args), kwargs)))


def _spec(value, tensor_spec):
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.shape, value.dtype)
    return tensor_spec.from_tensor(value) if isinstance(value, Tensor) else value


class EagerConcreteFunction:
    """The Python function, called as it is; its signature the arguments' specs (``tensor_spec``:
    the ``TensorSpec`` class, for plain tensors)."""

    def __init__(self, python_function, args, kwargs, tensor_spec):
        self._python_function = python_function
        spec = lambda value: _spec(value, tensor_spec)  # noqa: E731
        self.structured_input_signature = (tuple(map_structure(spec, a) for a in args),
                                           {k: map_structure(spec, v) for k, v in kwargs.items()})

    def __call__(self, *args, **kwargs):
        return self._python_function(*args, **kwargs)
