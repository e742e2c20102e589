"""The small functions of ``tf.experimental`` and ``tf.experimental.dlpack``.

devtrace runs ops synchronously, so ``async_scope`` changes nothing and ``async_clear_error``
has nothing to clear; the function executor type does not change where ops run. DLPack
capsules hold a tensor's host array (NumPy's DLPack)."""

from __future__ import annotations

import contextlib
import os

import numpy as np

from ..errors import NotFoundError
from ..runtime.tensor import Tensor
from ..runtime.values import convert_to_tensor
from ..util.namespace import Namespace


def async_clear_error() -> None:
    """``tf.experimental.async_clear_error``: no pending asynchronous error to clear."""


@contextlib.contextmanager
def async_scope():
    """``tf.experimental.async_scope``: ops already run one after the other."""
    yield


@contextlib.contextmanager
def function_executor_type(executor_type):
    """``tf.experimental.function_executor_type``: functions run on devtrace's one executor."""
    yield


def enable_strict_mode() -> None:
    """``tf.experimental.enable_strict_mode``: devtrace keeps no deprecated behaviour to forbid."""


def register_filesystem_plugin(plugin_location):
    """``tf.experimental.register_filesystem_plugin``: a plugin is a shared library of
    TensorFlow's C API, which devtrace cannot load."""
    if not os.path.exists(plugin_location):
        raise NotFoundError(f"{plugin_location}; No such file or directory")
    raise NotImplementedError("devtrace does not implement tf.experimental.register_filesystem_plugin yet")


class _Capsule:
    """A DLPack capsule in the protocol NumPy's ``from_dlpack`` reads."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, *args, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def to_dlpack(tf_tensor):
    """``tf.experimental.dlpack.to_dlpack``: a capsule of the tensor's values."""
    tensor = tf_tensor if isinstance(tf_tensor, Tensor) else convert_to_tensor(tf_tensor)
    return np.ascontiguousarray(tensor.numpy()).__dlpack__()


def from_dlpack(dlcapsule):
    """``tf.experimental.dlpack.from_dlpack``: a tensor from a capsule (or an object with ``__dlpack__``)."""
    source = dlcapsule if hasattr(dlcapsule, "__dlpack__") else _Capsule(dlcapsule)
    return convert_to_tensor(np.from_dlpack(source).copy())


dlpack = Namespace(_prefix="experimental.dlpack", to_dlpack=to_dlpack, from_dlpack=from_dlpack)
