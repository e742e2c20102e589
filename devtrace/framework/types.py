"""``tf.types.experimental``: the abstract types TensorFlow's functions and tensors are
instances of (devtrace's ``tf.function`` and its traces registered as theirs), and
``TensorLike``, the annotation of a value that converts to a tensor."""

from __future__ import annotations

import abc
import typing

import numpy as np

from ..polymorphic_function.function import ConcreteFunction as _Concrete, Function as _Function
from ..runtime.tensor import Tensor
from ..util.namespace import Namespace


class Callable(abc.ABC):  # noqa: B024 (abstract types for isinstance)
    """``tf.types.experimental.Callable``: a TensorFlow function."""


class AtomicFunction(Callable):
    """``tf.types.experimental.AtomicFunction``: one function graph, called as it is."""


class ConcreteFunction(Callable):
    """``tf.types.experimental.ConcreteFunction``: one trace of a ``tf.function``."""


class PolymorphicFunction(Callable):
    """``tf.types.experimental.PolymorphicFunction`` (``GenericFunction``): what ``tf.function`` makes."""


class FunctionType(abc.ABC):  # noqa: B024
    """``tf.types.experimental.FunctionType``: a function's signature as tracing sees it."""


class TraceType(abc.ABC):  # noqa: B024
    """``tf.types.experimental.TraceType``: the type a value has for tracing."""


@typing.runtime_checkable
class SupportsTracingProtocol(typing.Protocol):
    """``tf.types.experimental.SupportsTracingProtocol``: a value that says its ``TraceType``."""

    def __tf_tracing_type__(self, context) -> TraceType: ...


class Mirrored(abc.ABC):  # noqa: B024
    """``tf.types.experimental.distributed.Mirrored``."""


class PerReplica(abc.ABC):  # noqa: B024
    """``tf.types.experimental.distributed.PerReplica``."""


ConcreteFunction.register(_Concrete)
PolymorphicFunction.register(_Function)

TensorLike = typing.Union[Tensor, int, float, bool, str, bytes, complex, tuple, list, np.ndarray, np.generic]

namespace = Namespace(_prefix="types", experimental=Namespace(
    _prefix="types.experimental", AtomicFunction=AtomicFunction, Callable=Callable, ConcreteFunction=ConcreteFunction,
    FunctionType=FunctionType, GenericFunction=PolymorphicFunction, PolymorphicFunction=PolymorphicFunction,
    SupportsTracingProtocol=SupportsTracingProtocol, TensorLike=TensorLike, TraceType=TraceType,
    distributed=Namespace(_prefix="types.experimental.distributed", Mirrored=Mirrored, PerReplica=PerReplica)))
