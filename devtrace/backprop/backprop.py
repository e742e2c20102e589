"""``tf.GradientTape``: reverse-mode autodiff over devtrace's ops.

The runtime's tapes (:mod:`devtrace.runtime.eager.tape`) record the ops that touch watched
tensors; ``gradient`` walks the records backwards through each op's registered gradient
function (``devtrace.ops.*_grad``). Gradient ops are ops: placed on the forward op's device
(reason ``colocated``), logged, traced and memory-accounted like the forward pass.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import sys

import numpy as np

from ..util.nest import flatten, pack_sequence_as
from ..ops.array import array_ops
from ..ops.math import math_ops
from ..ops.declare import gradient
from ..ops.sparse.indexed_slices import IndexedSlices
from ..runtime import dtypes, threads
from ..runtime.context import context
from ..runtime.eager.executor import execute
from ..runtime.eager.tape import CUSTOM, Tape, call_with_custom_gradient, colocated
from ..runtime.eager.variables import Variable
from ..runtime.registry import lookup
from ..runtime.tensor import Tensor
from ..runtime.values import convert_to_tensor




class UnconnectedGradients(enum.Enum):
    NONE = "none"
    ZERO = "zero"


def _is_list(tensor) -> bool:
    """A TensorList (a TensorArray in a function): differentiable, its gradient a list too."""
    return tensor.dtype is dtypes.variant


def zeros_for(tensor):
    """A zero gradient for ``tensor``: zeros, or for a list an unwritten list of its length."""
    if _is_list(tensor):
        length = execute("TensorListLength", (tensor,), dtype=dtypes.variant)
        return execute("TensorListReserve", (length,), {"element_dtype": "float32"})
    if tensor.shape.rank is not None and None not in tuple(tensor.shape):
        return array_ops.zeros(list(tensor.shape), tensor.dtype)
    return array_ops.zeros_like(tensor)


def _warn(text: str) -> None:
    sys.stderr.write(f"WARNING:tensorflow:{text}\n")


class GradientTape:
    """``with tf.GradientTape() as tape: …`` then ``tape.gradient(target, sources)``."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._tape = Tape(persistent, watch_accessed_variables)
        self._persistent = persistent
        self._used = False
        self._inside = False

    def __enter__(self):
        ctx = context()
        if ctx.threaded and not threads.owned():  # the tapes are this thread's (runtime/threads.py)
            return threads.locked(ctx, self.__enter__)
        ctx.tapes.append(self._tape)
        self._inside = True
        return self

    def __exit__(self, *exc):
        ctx = context()
        if ctx.threaded and not threads.owned():
            return threads.locked(ctx, self.__exit__, *exc)
        tapes = ctx.tapes
        if self._tape in tapes:
            tapes.remove(self._tape)
        self._inside = False
        return False

    def watch(self, tensor) -> None:
        for t in flatten(tensor):
            if isinstance(t, Variable):
                self._tape.watch_variable(t)
            elif isinstance(t, Tensor):
                if not _trainable(t):
                    _warn(f"The dtype of the watched tensor must be floating (e.g. tf.float32), got {t.dtype!r}")
                self._tape.watch(t)
            else:
                raise ValueError(f"Passed in object {t!r} of type '{type(t).__name__}', not tf.Tensor or tf.Variable "
                                 f"or ExtensionType.")

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops inside are not recorded."""
        if not self._inside:
            raise ValueError("Tape must be recording.")
        saved, self._tape.recording = self._tape.recording, False
        try:
            yield
        finally:
            self._tape.recording = saved

    def reset(self) -> None:
        self._tape.reset()

    def watched_variables(self) -> tuple:
        return tuple(self._tape.variables.values())

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        self._used = True
        unconnected = UnconnectedGradients(unconnected_gradients)
        targets = [self._variable_target(t) if isinstance(t, Variable) else t for t in flatten(target)]
        # an integer target: TensorFlow's note on it is a vlog line, not printed
        seeds = flatten(output_gradients) if output_gradients is not None else [None] * len(targets)
        flat_sources = [_replica_copy(s) for s in flatten(sources)]
        with self._paused():
            grads = _backprop(context(), self._tape, targets, seeds, flat_sources)
            out = [self._result(s, grads, unconnected) for s in flat_sources]
        return pack_sequence_as(sources, out)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i] / d source[j] for every element: shape ``target.shape + source.shape``.
        Computed one target element at a time (TensorFlow vectorises it with pfor: its ops differ)."""
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        self._used = True
        unconnected = UnconnectedGradients(unconnected_gradients)
        flat_sources = flatten(sources)
        shape, dtype = tuple(target.shape), target.dtype
        size = int(np.prod(shape)) if shape else 1
        rows = []
        with self._paused():
            for i in range(size):
                seed = np.zeros(size, dtype.as_numpy_dtype)
                seed[i] = 1
                grads = _backprop(context(), self._tape, [target], [array_ops.constant(seed.reshape(shape))],
                                  flat_sources)
                rows.append([self._result(s, grads, UnconnectedGradients.NONE) for s in flat_sources])
            out = [self._stack(rows, j, shape, s, unconnected) for j, s in enumerate(flat_sources)]
        return pack_sequence_as(sources, out)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """``[b, y..., x...]``: the gradient of ``target[:, y...]`` (summed over the batch, as
        TensorFlow computes it, exact when rows are independent) by ``source[b, x...]``."""
        full = self.jacobian(target, source, unconnected_gradients)
        if full is None:
            return None
        t_rest = len(target.shape) - 1
        if not context().eager:  # inside a function: by ops
            summed = math_ops.reduce_sum(full, 0)  # [y..., b, x...]
            rank = len(full.shape) - 1
            return array_ops.transpose(summed, [t_rest] + list(range(t_rest)) + list(range(t_rest + 1, rank)))
        summed = full.numpy().sum(axis=0)  # [y..., b, x...]
        return array_ops.constant(np.moveaxis(summed, t_rest, 0))

    @staticmethod
    def _stack(rows, j, shape, source, unconnected):
        parts = [row[j] for row in rows]
        value = source.value() if isinstance(source, Variable) else source
        if all(p is None for p in parts):
            if unconnected is UnconnectedGradients.NONE:
                return None
        if not context().eager:  # inside a function: by ops
            zeros = array_ops.zeros(list(value.shape), value.dtype)
            stacked = array_ops.stack([zeros if p is None else p for p in parts])
            return array_ops.reshape(stacked, list(shape) + list(value.shape))
        host = np.stack([np.zeros(value.shape, value.dtype.as_numpy_dtype) if p is None else p.numpy()
                         for p in parts])
        return array_ops.constant(host.reshape(shape + tuple(value.shape)))

    def _variable_target(self, variable):
        """A variable as a target is its current value (its own gradient is one), as TensorFlow treats it."""
        self._tape.watch_variable(variable)
        return variable._value

    @contextlib.contextmanager
    def _paused(self):
        """This tape records nothing of its own backward pass; outer tapes do (higher-order gradients)."""
        saved, self._tape.recording = self._tape.recording, False
        try:
            yield
        finally:
            self._tape.recording = saved

    def _result(self, source, grads, unconnected):
        if isinstance(source, Variable):
            if not _trainable(source):
                return None  # an integer variable is never watched: TensorFlow answers None
            parts = [g for v in self._tape.variable_values.get(id(source), ()) for g in grads.get(id(v), ())]
        else:
            if isinstance(source, Tensor) and not _trainable(source):
                return None  # TensorFlow's note on it is a vlog line, not printed (its watch() warns)
            parts = grads.get(id(source), [])
        if not parts:
            if unconnected is UnconnectedGradients.ZERO:
                value = source.value() if isinstance(source, Variable) else source
                return array_ops.zeros(list(value.shape), value.dtype)
            return None
        return aggregate(parts)


def aggregate(parts):
    """The sum of a tensor's gradient parts, as TensorFlow's eager tape sums them: ``AddN`` when
    one is a tensor (``IndexedSlices`` made dense); ``IndexedSlices`` only: one of all their slices."""
    if len(parts) == 1:
        return parts[0]
    if not all(isinstance(p, IndexedSlices) for p in parts):
        return math_ops.add_n([convert_to_tensor(p) if isinstance(p, IndexedSlices) else p for p in parts])
    if len({p.indices.dtype for p in parts}) > 1:  # TensorFlow's _as_indexed_slices_list: int64 indices
        parts = [IndexedSlices(p.values, array_ops.cast(p.indices, dtypes.int64), p.dense_shape) for p in parts]
    return IndexedSlices(array_ops.concat([p.values for p in parts], 0),
                         array_ops.concat([p.indices for p in parts], 0), parts[0].dense_shape)


def _trainable(t) -> bool:
    """TensorFlow's ``backprop_util.IsTrainable``: floating and complex tensors (and TensorLists) carry gradients."""
    return t.dtype.is_floating or t.dtype.is_complex or _is_list(t)


def _replica_copy(source):
    """A mirrored variable's gradient is its running replica's copy's, which the ops read."""
    local = getattr(source, "_local", None)
    return local() if callable(local) else source


def _seed(target, given):
    if given is not None:
        return given
    if not isinstance(target, Tensor) or target._device is None:  # a graph: TensorFlow's ``ones`` node
        shape = target.shape
        if shape.rank is not None and None not in tuple(shape):
            return array_ops.constant(np.ones(tuple(shape), target.dtype.as_numpy_dtype), target.dtype,
                                      name="ones")
        return array_ops.ones_like(target)
    if len(target.shape) == 0:
        return array_ops.constant(1, target.dtype)
    return array_ops.ones(list(target.shape), target.dtype)


def _backprop(ctx, tape, targets, seeds, sources, scoped=None) -> dict:
    """``{id(tensor): [gradient parts]}`` for every tensor the targets depend on. ``scoped(ctx,
    record)``: where and under which name an op's gradient is built (default: ``_colocated_with``)."""
    scoped = scoped or _colocated_with
    needed = _needed(tape, sources)
    grads: dict[int, list] = {}
    for t, given in zip(targets, seeds):
        if isinstance(t, Tensor) and id(t) in tape.tracked:
            grads.setdefault(id(t), []).append(_seed(t, given))
    for rec in _backward_order(tape.records, targets):
        upstream = _upstream(grads, rec, needed)
        if upstream is None:
            continue
        grad_fn = rec.attrs.get("custom_gradient") if rec.type == CUSTOM else lookup(rec.type).grad
        if grad_fn is None:
            raise LookupError(f"gradient registry has no entry for: {rec.type}")
        rec.skip_input_indices = tuple(i for i, t in enumerate(rec.inputs) if id(t) not in needed)
        with scoped(ctx, rec):
            input_grads = grad_fn(rec, *upstream)
        for i, (inp, g) in enumerate(zip(rec.inputs, input_grads)):
            if g is not None and i not in rec.skip_input_indices:
                grads.setdefault(id(inp), []).append(g)
    return grads


def _backward_order(records, targets) -> list:
    """The recorded ops the targets depend on, in the order TensorFlow's tape differentiates them
    (``tape.h``'s ``ComputeGradient``): an op is ready once every use of its outputs by the ops
    between it and the targets has been differentiated, and ready ops wait in a queue (first
    ready, first differentiated); the targets' producers start it, the latest first."""
    producer = {id(out): k for k, rec in enumerate(records) for out in rec.outputs}
    uses: dict[int, int] = {}
    ops, stack = set(), [id(t) for t in targets]
    while stack:  # the ops between the targets and the tape's inputs, and how often each tensor is used
        k = producer.get(stack.pop())
        if k is None or k in ops:
            continue
        ops.add(k)
        for t in records[k].inputs:
            if id(t) not in uses and id(t) in producer:
                stack.append(id(t))
            uses[id(t)] = uses.get(id(t), 0) + 1
    missing: dict[int, int] = {}
    for tid in uses:
        if tid in producer:
            missing[producer[tid]] = missing.get(producer[tid], 0) + 1
    queue, order = sorted(k for k in ops if k not in missing), []
    while queue:
        k = queue.pop()
        order.append(records[k])
        for t in records[k].inputs:
            uses[id(t)] -= 1
            p = producer.get(id(t))
            if not uses[id(t)] and p is not None:
                missing[p] -= 1
                if not missing[p]:
                    queue.insert(0, p)
    return order


_PASS_SLICES = frozenset(("ReadVariableOp", "Identity"))
# TensorFlow's FunctionsAcceptingNoneForIndicesMap (tape.h): outputs an op's gradient takes as None
_NONE_FOR = {"SoftmaxCrossEntropyWithLogits": (1,), "SparseSoftmaxCrossEntropyWithLogits": (1,)}


def _upstream(grads, rec, needed):
    """The gradient reaching each of the op's outputs (parts summed; zeros for an output nothing
    used, as TensorFlow passes), or ``None`` when none reaches it."""
    upstream, reached = [], False
    for out in rec.outputs:
        parts = grads.get(id(out)) if id(out) in needed else None
        if parts:
            reached = True
            if len(parts) > 1:
                grads[id(out)] = parts = [aggregate(parts)]  # kept: a source may be an intermediate
            # an op's gradient function takes tensors: IndexedSlices become dense on the way in, but
            # through a read or an identity, which pass them on as TensorFlow's do
            sparse = isinstance(parts[0], IndexedSlices) and rec.type not in _PASS_SLICES
            upstream.append(convert_to_tensor(parts[0]) if sparse else parts[0])
        else:
            upstream.append(None)
    if not reached:
        return None
    if len(upstream) > 1:
        # a resource output (a loop's variable handle) gets none, as TensorFlow's tape gives it; so do
        # the outputs whose missing gradient TensorFlow passes as None
        unused = _NONE_FOR.get(rec.type, ())
        upstream = [zeros_for(out) if g is None and k not in unused and out.dtype is not dtypes.resource else g
                    for k, (out, g) in enumerate(zip(rec.outputs, upstream))]
    return upstream


@contextlib.contextmanager
def _colocated_with(ctx, rec):
    """Where a gradient's ops go: the forward op's device (eager), or its colocation group (a
    function graph: the graph placer then puts them with the forward node), named as TensorFlow
    names them there: ``gradient_tape/<the forward op's name scope>/…``."""
    if rec.device is not None:
        with colocated(ctx, rec.device):
            yield
        return
    op = rec.outputs[0]._op
    with op._graph.colocate_with(op), op._graph.name_scope(f"gradient_tape/{rec.scope}/" if rec.scope
                                                            else "gradient_tape/"):
        yield


def _needed(tape, sources) -> set:
    """Ids of the tensors on a path from a source: only their gradients are computed."""
    needed = set()
    for s in sources:
        if isinstance(s, Variable):
            needed.update(id(v) for v in tape.variable_values.get(id(s), ()))
        else:
            needed.add(id(s))
    for rec in tape.records:
        if any(id(t) in needed for t in rec.inputs):
            needed.update(id(out) for out in rec.outputs)
    return needed


def custom_gradient(f):
    """``@tf.custom_gradient``: ``f(*x)`` returns ``(y, grad_fn)``; tapes see one step from ``x`` to
    ``y`` (an ``Identity`` op) whose gradient is ``grad_fn(upstream)``, not ``f``'s own ops."""
    @functools.wraps(f)
    def wrapped(*args):
        return call_with_custom_gradient(context(), f, args, array_ops.identity)
    return wrapped


def recompute_grad(f):
    """``tf.recompute_grad``: TensorFlow trades memory for recomputation in the backward pass;
    devtrace keeps the forward values, so the gradients are the same and ``f`` is returned as is."""
    return f


def _py_function_grad(op, *grads):
    """One more ``EagerPyFunc`` per input: the function run again eagerly under a tape (as
    TensorFlow's gradient of ``tf.py_function`` runs its recorded tape)."""
    func, n = op.attrs["func"], len(op.inputs)
    kept = [k for k, g in enumerate(grads) if g is not None]

    def gradient_of(k):
        def run(*args):
            xs, upstream = list(args[:n]), list(args[n:])
            with GradientTape() as tape:
                for x in xs:
                    tape.watch(x)
                y = func(*xs)
            ys = list(y) if isinstance(y, (list, tuple)) else [y]
            g = tape.gradient([ys[j] for j in kept], xs[k], output_gradients=upstream)
            return g if g is not None else np.zeros(tuple(xs[k].shape), xs[k].dtype.as_numpy_dtype)
        return run
    upstream = tuple(grads[j] for j in kept)
    return [execute("EagerPyFunc", tuple(op.inputs) + upstream, {"func": gradient_of(k), "Tout": [x.dtype]})[0]
            if _trainable(x) else None for k, x in enumerate(op.inputs)]


gradient("EagerPyFunc")(_py_function_grad)
