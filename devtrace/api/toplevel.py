"""More of tf's top level that is not one op: gradients in a graph (``gradients``,
``hessians``, ``AggregationMethod``, ``RegisterGradient``, ``no_gradient``, ``grad_pass_through``),
``get_current_name_scope``, ``is_symbolic_tensor``, ``CriticalSection``, tensor protos
(``make_tensor_proto``/``make_ndarray``), ``register_tensor_conversion_function``,
``variable_creator_scope``, and the names that cannot work here (``load_op_library``: no
TensorFlow kernels to load) failing as TensorFlow does or naming themselves."""

from __future__ import annotations

import contextlib
import os
import threading

import numpy as np

from ..errors import NotFoundError
from ..ops import API
from ..ops.declare import as_tensor, gradient as _register_gradient, not_differentiable
from ..runtime import dtypes
from ..runtime.context import context
from ..runtime.tensor import Tensor


class AggregationMethod:
    """How a graph's gradients sum the contributions to one tensor (devtrace always adds them: ``AddN``)."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients="none"):
    """The symbolic gradients of ``ys`` with respect to ``xs`` in a graph (a ``tf.function``'s):
    the recorded forward ops differentiated as a ``GradientTape`` would (TensorFlow 2 raises eagerly)."""
    if context().eager:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    from ..backprop.graph_gradients import gradients as graph_gradients
    from ..runtime.graph.graph import get_default_graph

    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    xs_list = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    grad_ys = [None] * len(ys) if grad_ys is None else (list(grad_ys) if isinstance(grad_ys, (list, tuple))
                                                         else [grad_ys])
    stops = list(stop_gradients) if isinstance(stop_gradients, (list, tuple)) else \
        ([] if stop_gradients is None else [stop_gradients])
    ys = [as_tensor(y) for y in ys]
    grad_ys = [API["ones_like"](y) if g is None else as_tensor(g) for y, g in zip(ys, grad_ys)]
    out = graph_gradients(get_default_graph(), ys, xs_list, grad_ys, stops)
    if str(getattr(unconnected_gradients, "value", unconnected_gradients)) == "zero":
        out = [API["zeros_like"](x) if g is None else g for x, g in zip(xs_list, out)]
    return out


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """Each ``xs``'s Hessian of ``sum(ys)``: the gradient of each entry of the gradient, stacked."""
    xs_list = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    out = []
    for x, g in zip(xs_list, gradients(ys, xs_list)):
        n = int(np.prod(x.shape.as_list()))
        flat = API["reshape"](g, [-1])
        rows = [gradients(flat[i], x)[0] for i in range(n)]
        rows = [API["zeros_like"](x) if r is None else r for r in rows]
        out.append(API["reshape"](API["stack"](rows), x.shape.as_list() + x.shape.as_list()))
    return out


class RegisterGradient:
    """``@tf.RegisterGradient("op_type")``: the decorated ``fn(op, *grads)`` is that op's gradient."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, fn):
        try:
            _register_gradient(self._op_type)(fn)
        except KeyError:
            _CUSTOM_GRADIENTS[self._op_type] = fn
        return fn


# gradients registered under names no op has (TensorFlow's gradient_override_map reads them)
_CUSTOM_GRADIENTS: dict = {}


def no_gradient(op_type):
    """``op_type`` has no gradient (TensorFlow's ``NotDifferentiable``)."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    try:
        not_differentiable(op_type)
    except KeyError:
        _CUSTOM_GRADIENTS[op_type] = None


def grad_pass_through(f):
    """``f`` whose gradient is the identity (the upstream gradient passes to its inputs unchanged)."""
    from ..backprop.backprop import custom_gradient

    @custom_gradient
    def passed(*args, **kwargs):
        return f(*args, **kwargs), lambda *grads: grads[0] if len(args) == 1 else grads

    return passed


def get_current_name_scope() -> str:
    ctx = context()
    if ctx.eager:
        return ctx.name_scope.rstrip("/")
    from ..runtime.graph.graph import get_default_graph

    return get_default_graph()._name_stack


def is_symbolic_tensor(tensor) -> bool:
    """A graph tensor (not an eager one, not a value)."""
    from ..runtime.graph.tensor import SymbolicTensor

    return isinstance(tensor, SymbolicTensor)


class CriticalSection:
    """``tf.CriticalSection``: ``execute(fn)`` runs ``fn`` with no other execution of the section at
    the same time (a lock held while it runs; TensorFlow's ``MutexLock``)."""

    def __init__(self, name=None, shared_name=None, critical_section_def=None, import_scope=None):
        self._name = name or "CriticalSection"
        self._lock = threading.RLock()

    @property
    def name(self):
        return self._name

    def execute(self, fn, exclusive_resource_access=True, name=None):
        with self._lock:
            return fn()


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A ``TensorProto`` of ``values`` (what ``tf.io.serialize_tensor`` serializes)."""
    from ..ops.io.tensor_proto import TensorProto

    if isinstance(values, Tensor):
        array = values.numpy()
    else:
        array = np.asarray(values, dtype=dtypes.as_dtype(dtype).np if dtype is not None else None)
        if dtype is None and array.dtype == np.float64 and not isinstance(values, np.ndarray):
            array = array.astype(np.float32)
        if dtype is None and array.dtype == np.int64 and not isinstance(values, np.ndarray):
            array = array.astype(np.int32)
    if shape is not None:
        shape = [int(d) for d in shape]
        if verify_shape and list(array.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {array.shape}.")
        if array.size == 1 and int(np.prod(shape)) != 1:
            array = np.broadcast_to(array.reshape(()), shape)
        elif array.size != int(np.prod(shape)):
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {array.shape}.")
        array = array.reshape(shape)
    return TensorProto.from_array(array)


def make_ndarray(tensor):
    """The NumPy array a ``TensorProto`` holds."""
    return tensor.to_array()


_CONVERSIONS: list = []


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Values of ``base_type`` become tensors through ``conversion_func(value, dtype, name, as_ref)``."""
    types = base_type if isinstance(base_type, tuple) else (base_type,)
    if any(not isinstance(t, type) for t in types):
        raise TypeError("Argument `base_type` must be a type or a tuple of types. Obtained: " + str(base_type))
    if any(issubclass(t, (int, float, complex, np.generic, np.ndarray)) for t in types):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")

    def convert(value, dtype=None, name=None):
        return conversion_func(value, dtype=dtype, name=name, as_ref=False)

    for t in types:
        t.__tf_tensor__ = convert


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Inside, ``tf.Variable(...)`` calls ``variable_creator(next_creator, **kwargs)``."""
    from ..runtime.eager import variables as _variables

    def next_creator(**kwargs):
        return _variables.Variable(**kwargs)  # the next creator down (this one is off the stack while it runs)

    def creator(*args, **kwargs):
        if args:
            kwargs["initial_value"] = args[0]
        return variable_creator(next_creator, **kwargs)

    _variables._creators.append(creator)
    try:
        yield
    finally:
        _variables._creators.remove(creator)


def load_op_library(library_filename):
    """TensorFlow loads a library of custom C++ kernels; devtrace has no TensorFlow runtime to load them into."""
    if not os.path.exists(library_filename):
        raise NotFoundError(None, None, f"{library_filename}: cannot open shared object file: No such file or "
                                        "directory")
    raise NotImplementedError("devtrace does not implement tf.load_op_library yet (custom C++ kernels)")


def load_library(library_location):
    if not os.path.exists(library_location):
        raise OSError(2, f"The file or folder to load kernel libraries from does not exist.", library_location)
    raise NotImplementedError("devtrace does not implement tf.load_library yet (custom C++ kernels)")


def nondifferentiable_batch_function(num_batch_threads, max_batch_size, batch_timeout_micros,
                                     allowed_batch_sizes=None, max_enqueued_batches=10,
                                     autograph=True, enable_large_batch_splitting=True):
    """A decorator batching concurrent calls of a function: one caller at a time here, each call its
    own batch, so the function runs as it is."""
    def decorate(fn):
        return fn
    return decorate
