"""Keras's step functions: ``fit``'s and ``evaluate``'s steps and ``predict``'s as ``tf.function``s,
named as Keras 3.15's are in TensorFlow's log (``multi_step_on_iterator``,
``one_step_on_data_distributed``), their nodes placed by the graph placer on the caller's device
scope and named by the layers' scopes. Each is traced once for batches of any size (batch ``None``,
as Keras's dataset specs have it) — for the static batch size when every batch has it (NumPy arrays
whose samples the batch size divides: TensorFlow then traces with that size, its shapes constants) —
else — devtrace's gradients need static shapes — per batch shape; a step devtrace cannot trace at
all (an op without a shape function) runs eagerly."""

from __future__ import annotations

import contextlib
import traceback

import devtrace as tf
from ..polymorphic_function.function import function as tf_function
from ..runtime.context import context
from ..runtime.tensor import Tensor

NAMES = {"train": "multi_step_on_iterator", "test": "multi_step_on_iterator",
         "train_weighted": "multi_step_on_iterator", "test_weighted": "multi_step_on_iterator",
         "predict": "one_step_on_data_distributed"}


def batch_spec(value, batch=None):
    """A ``TensorSpec`` with batch ``batch`` (None: any; None for several inputs: traced per shape)."""
    if isinstance(value, (list, dict)) or value is None:
        return None
    return tf.TensorSpec(shape=(batch,) + tuple(value.shape)[1:], dtype=value.dtype)


class StepFunctions:
    def __init__(self):
        self._functions: dict = {}
        self._eager: set = set()
        # per kind of step ("train", "train_weighted", "test", …): the batch size every batch of the data in use
        # has (NumPy arrays whose samples the batch size divides: Keras's dataset then has that static batch,
        # and TensorFlow traces the step for it), else None; set as fit/evaluate/predict begin (``set_static``)
        self.static: dict = {}
        self.metrics: list | None = None  # see set_static (train_on_batch before any fit needs it too)

    def set_static(self, step, batch) -> None:
        """``batch`` (or None) for the kinds of ``step`` ("train", "test", "predict")."""
        self.static[step] = self.static[step + "_weighted"] = batch
        # the metrics the built-in steps report, found at an epoch's first step (Keras finds them as
        # it traces its step) rather than at each; None until then
        self.metrics: list | None = None

    def ready(self, kind, args):
        """The function traced for ``kind`` and batches of these dtypes when each is a plain tensor
        (what ``get`` would find, without its checks: a step's fast path once traced); else None."""
        names = []
        for a in args:
            if type(a) is not Tensor:
                return None
            names.append(a._dtype.name)
        fn = self._functions.get((kind, tuple(names), self.static.get(kind)))
        return fn if fn is None or _fits(fn, args) else None

    def get(self, kind, body, args):
        """``(function, None)``; ``(None, the first trace's error)`` when the step must run eagerly.
        One per kind and dtypes of the batch (Keras's function retraces for float64 data after float32)
        and static batch size; once traced for one batch size, another's is the trace for any (TensorFlow's
        ``reduce_retracing`` relaxes the shape that changed)."""
        batch = self.static.get(kind)
        key = (kind, _dtypes(args), batch)
        if batch is not None and key not in self._functions and key not in self._eager and \
                any(k[:2] == key[:2] for k in self._functions):
            fn, error = self._traced(kind, body, args, key[:2] + (None,), None)
            if fn is not None:
                self._functions[key] = fn
            return fn, error
        return self._traced(kind, body, args, key, batch)

    def _traced(self, kind, body, args, key, batch):
        relaxed = None
        if key in self._functions:
            fn = self._functions[key]
            if _fits(fn, args):
                return fn, None
            # data of other shapes (a predict of longer sequences): traced again, the dimensions that
            # changed unknown (TensorFlow's ``reduce_retracing``, as Keras's step functions have it)
            relaxed = tuple(_relaxed(spec, a) for spec, a in zip(fn.input_signature, args))
        if key in self._eager:
            return None, None
        errors = []
        for spec in ((relaxed or tuple(batch_spec(a, batch) for a in args)), None):
            signature = list(spec) if spec and None not in spec else None
            fn = _make(body, NAMES[kind], signature)
            try:
                fn.get_concrete_function(*(signature or args))
            except Exception as traced:  # noqa: BLE001 (handed back: raised when the eager step fails alike)
                errors.append(_detached(traced))
                continue
            self._functions[key] = fn
            errors.clear()
            return fn, None
        self._eager.add(key)
        return None, errors.pop(0)  # not left in this frame's locals (see _detached)


def _fits(fn, args) -> bool:
    """Whether ``args`` fit ``fn``'s input signature (or it has none)."""
    signature = fn.input_signature
    if signature is None:
        return True
    for spec, a in zip(signature, args):
        if spec is None or not hasattr(a, "shape"):
            continue
        dims = spec.shape.as_list() if spec.shape.rank is not None else None
        if dims is None:
            continue
        shape = tuple(a.shape)
        if len(shape) != len(dims) or any(d is not None and d != n for d, n in zip(dims, shape)):
            return False
    return True


def _relaxed(spec, value):
    """``spec`` with each dimension ``value`` does not share unknown (another rank: any shape)."""
    dims = spec.shape.as_list() if spec.shape.rank is not None else None
    shape = tuple(value.shape)
    if dims is None or len(dims) != len(shape):
        return tf.TensorSpec(None, spec.dtype)
    return tf.TensorSpec([d if d == n else None for d, n in zip(dims, shape)], spec.dtype)


def _detached(error):
    """``error`` with its traceback's frames cleared (their lines kept for printing). A failed trace's
    frames hold its tapes and tensors, and link through ``f_back`` to the callers that hold the error:
    a cycle, which would keep device memory in use until the garbage collector ran (the memory figures
    would then depend on when it runs). Without this frame, the error starts at the trace."""
    seen = set()
    e = error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        traceback.clear_frames(e.__traceback__)
        e = e.__cause__ or e.__context__
    return error.with_traceback(error.__traceback__.tb_next)


def _dtypes(args) -> tuple:
    """The batch's dtypes, through lists, tuples and dicts (inputs by name)."""
    def one(a):
        if isinstance(a, dict):
            return tuple((k, one(a[k])) for k in sorted(a))
        if isinstance(a, (list, tuple)):
            return tuple(one(v) for v in a)
        return getattr(getattr(a, "dtype", None), "name", None)
    return one(tuple(args))


def _make(body, name, signature):
    scope = context().scope  # TF places a function's nodes on its call op's device: the caller's scope

    def step(*args):
        with tf.device(scope) if scope else contextlib.nullcontext():
            return body(*args)
    step.__name__ = step.__qualname__ = name
    return tf_function(step, input_signature=signature)
