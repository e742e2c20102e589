"""Gradient tapes, the runtime's side: which executed ops a tape records.

A tape records an op when one of its inputs is *tracked*: watched (``tape.watch``, or a
trainable variable read while the tape records) or the output of an op it recorded. The
backward pass (:mod:`devtrace.backprop.backprop`) replays the records in reverse through each op's
gradient function; its ops run under :func:`colocated`, on the forward op's device, with the
placement reason ``colocated`` — TensorFlow's colocate-gradients-with-ops behaviour.
"""

from __future__ import annotations

import contextlib

from ...devices.spec import DeviceSpec
from ...trace import events as ev
from .. import threads


class TapeRecord:
    """One recorded op: what its gradient function sees as ``op`` (TensorFlow's ``op.inputs``,
    ``op.outputs``, ``op.type``, ``op.get_attr``)."""

    __slots__ = ("type", "attrs", "inputs", "outputs", "device", "skip_input_indices", "scope")

    def __init__(self, op_type, attrs, inputs, output, device, scope=""):
        self.type = op_type
        self.attrs = attrs or {}
        self.inputs = tuple(inputs)
        self.outputs = output if type(output) is tuple else (output,)
        self.device = device
        self.skip_input_indices = ()  # inputs no source depends on: their gradients are not needed
        self.scope = scope  # the name scope the op was built in (a graph: its gradient's names)

    def get_attr(self, name):
        return self.attrs[name]


class Tape:
    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self.persistent = persistent
        self.watch_accessed_variables = watch_accessed_variables
        self.recording = True
        self.records: list[TapeRecord] = []
        self.tracked: dict[int, object] = {}  # id -> tensor (kept alive so ids stay unique)
        self.variables: dict[int, object] = {}  # id -> variable, in the order they were watched
        self.variable_values: dict[int, list] = {}  # id(variable) -> the value tensors it was read from

    def watch(self, tensor) -> None:
        self.tracked[id(tensor)] = tensor

    def watch_variable(self, variable) -> None:
        self.variables.setdefault(id(variable), variable)
        value = variable._value
        values = self.variable_values.setdefault(id(variable), [])
        if not any(v is value for v in values):
            values.append(value)
        self.watch(value)

    def record(self, op_type, attrs, inputs, output, device, scope="") -> None:
        tracked = self.tracked
        for t in inputs:
            if id(t) in tracked:
                rec = TapeRecord(op_type, attrs, inputs, output, device, scope)
                self.records.append(rec)
                for out in rec.outputs:
                    tracked[id(out)] = out
                return

    def reset(self) -> None:
        self.records.clear()
        self.tracked.clear()
        self.variables.clear()
        self.variable_values.clear()


CUSTOM = "__custom_gradient"  # a record whose gradient is a function of its own (``attrs["custom_gradient"]``)


def call_with_custom_gradient(ctx, f, args, identity):
    """TensorFlow's ``@custom_gradient`` around ``f(*args)``, which returns ``(y, grad_fn)``: ``f``'s
    own ops unrecorded, tapes see one ``identity`` step from ``args``' tensors to ``y`` whose
    gradient is ``grad_fn(upstream)``."""
    import inspect

    from ..tensor import Tensor

    tapes = [t for t in ctx.tapes if t.recording]
    for t in tapes:
        t.recording = False
    reads = Tape()  # the trainable variables ``f`` reads: ``grad_fn(variables=…)``'s
    ctx.tapes.append(reads)
    try:
        y, grad_fn = f(*args)
    finally:
        ctx.tapes.remove(reads)
        for t in tapes:
            t.recording = True
    out = identity(y)
    inputs = [a for a in args if isinstance(a, Tensor)]
    variables = list(reads.variables.values())
    if variables and "variables" not in inspect.signature(grad_fn).parameters:
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                        f"uses variables: {variables}")

    def grad(op, upstream):
        if variables:
            grads, variable_grads = grad_fn(upstream, variables=variables)
            grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
            return tuple(grads) + tuple(variable_grads)
        grads = grad_fn(upstream)
        return tuple(grads) if isinstance(grads, (list, tuple)) else (grads,)

    for t in tapes:
        for v in variables:
            if t.watch_accessed_variables:
                t.watch_variable(v)
        t.record(CUSTOM, {"custom_gradient": grad}, inputs + [v._value for v in variables], out, out._device)
    return out


def record(ctx, op_type, attrs, inputs, output, device, scope="") -> None:
    """The executor's hook: every active tape that is recording sees the op."""
    for tape in ctx.tapes:
        if tape.recording:
            tape.record(op_type, attrs, inputs, output, device, scope)


def variable_accessed(ctx, variable) -> None:
    """A variable is read: tapes that watch accessed variables watch its trainable ones."""
    for tape in ctx.tapes:
        if tape.recording and tape.watch_accessed_variables and getattr(variable, "trainable", True):
            tape.watch_variable(variable)


@contextlib.contextmanager
def colocated(ctx, device):
    """Ops inside run on ``device`` with the reason ``colocated`` (gradients with their forward op);
    with ops from several threads, the others wait meanwhile (the placement cache is swapped)."""
    with threads.LOCK if ctx.threaded else contextlib.nullcontext():
        if ctx.threaded:
            threads.own(ctx)
        saved = ctx.scope, ctx.scope_spec, ctx.scope_reason, ctx.placement_cache, ctx.outer_scope
        if ctx.scope_reason is not ev.COLOCATED:
            ctx.outer_scope = ctx.scope
        ctx.scope, ctx.scope_spec = device.name, DeviceSpec.from_string(device.name)
        ctx.scope_reason, ctx.placement_cache = ev.COLOCATED, ctx.colocation_cache
        try:
            yield
        finally:
            ctx.scope, ctx.scope_spec, ctx.scope_reason, ctx.placement_cache, ctx.outer_scope = saved
