"""How ``tf.function`` decides whether a call retraces, and when it warns about it.

``reduce_retracing=True``: a call no trace matches exactly may still run a trace whose tensor
specs accept it (``(None,)`` takes any vector); failing that, it is traced with the specs
generalised against an earlier trace of the same structure — dims that differ become ``None``
— so later calls of other sizes reuse it (TensorFlow's most specific common supertype).

The retracing warning is TensorFlow's frequent-tracing detector: one per Python function (its
code, so re-creating the ``tf.function`` in a loop is caught too), which warns when 5 of the
last 10 calls or so traced, at most twice.
"""

from __future__ import annotations

import sys

from ..runtime.tensor import Tensor

_MAX_CALL_HISTORY = 10
_THRESHOLD = 5
_MAX_WARNINGS = 2


def _accepts(signature, args, TensorSpec) -> bool:  # noqa: N803 (the class, passed in)
    if len(signature) != len(args):
        return False
    for spec, value in zip(signature, args):
        if isinstance(spec, TensorSpec):
            if not (isinstance(value, Tensor) and spec.is_compatible_with(value)):
                return False
        elif isinstance(value, Tensor) or spec != value:
            return False
    return True


def matching(concretes, args, kwargs, TensorSpec):  # noqa: N803
    """A trace whose signature accepts the call (``None``: none does)."""
    for concrete in concretes:
        sig_args, sig_kwargs = concrete.structured_input_signature
        if not sig_kwargs and not kwargs and _accepts(sig_args, args, TensorSpec):
            return concrete
    return None


def generalized(concretes, args, TensorSpec) -> tuple:  # noqa: N803
    """``args`` with each tensor as a TensorSpec merged with the latest trace of the same shape
    (rank, dtypes, Python values): dims that differ become ``None``."""
    for concrete in reversed(list(concretes)):
        sig_args, sig_kwargs = concrete.structured_input_signature
        if sig_kwargs or len(sig_args) != len(args):
            continue
        out = []
        for spec, value in zip(sig_args, args):
            if isinstance(spec, TensorSpec) and isinstance(value, Tensor) and spec.dtype is value.dtype:
                known = spec._dims()
                if known is None or len(known) != len(value.shape):  # another rank: any shape
                    out.append(TensorSpec(None, value.dtype))
                else:
                    out.append(TensorSpec([a if a == b else None for a, b in zip(known, tuple(value.shape))],
                                          value.dtype))
            elif not isinstance(spec, TensorSpec) and not isinstance(value, Tensor) and spec == value:
                out.append(value)
            else:
                break
        else:
            return tuple(out)
    return tuple(args)


class TracingDetector:
    """TensorFlow's ``_FrequentTracingDetector``."""

    def __init__(self):
        self.calls_per_tracing: list = []
        self.call_count = 0
        self.warnings = 0

    def called_with_tracing(self, function) -> None:
        self.call_count += 1
        self.calls_per_tracing.append(1)
        while self.calls_per_tracing and self.call_count - self.calls_per_tracing[0] > _MAX_CALL_HISTORY:
            self.call_count -= self.calls_per_tracing.pop(0)
        if self.warnings >= _MAX_WARNINGS or len(self.calls_per_tracing) < _THRESHOLD:
            return
        self.warnings += 1
        sys.stderr.write(
            f"WARNING:tensorflow:{len(self.calls_per_tracing)} out of the last {self.call_count} calls to "
            f"{function!r} triggered tf.function retracing. Tracing is expensive and the excessive number of "
            f"tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with "
            f"different shapes, (3) passing Python objects instead of tensors. For (1), please define your "
            f"@tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True option that can "
            f"avoid unnecessary retracing. For (3), please refer to "
            f"https://www.tensorflow.org/guide/function#controlling_retracing and "
            f"https://www.tensorflow.org/api_docs/python/tf/function for  more details.\n")

    def called_without_tracing(self) -> None:
        if not self.calls_per_tracing:
            self.calls_per_tracing = [0]
        self.calls_per_tracing[-1] += 1
        self.call_count += 1


_DETECTORS: dict = {}


def detector(python_function) -> TracingDetector:
    """The detector of a Python function (by its code, as TensorFlow keys it)."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "func", target)  # a method bound by functools.partial
    target = getattr(target, "__func__", target)
    key = getattr(target, "__code__", target)
    hit = _DETECTORS.get(key)
    if hit is None:
        hit = _DETECTORS[key] = TracingDetector()
    return hit
