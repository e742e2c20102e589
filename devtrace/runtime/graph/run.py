"""Running a placed graph: the nodes a ``Session.run`` needs, in dependency order, each on its
device through the execution step eager mode runs (:mod:`..execution`) — the same kernels,
copies, memory accounting and trace records.

Order: a post-order depth-first walk from the fetched nodes, inputs before consumers.

An intermediate value is freed as soon as its last consumer ran (TensorFlow's executor does
the same), fetched values when ``run`` returns, variables when the session closes.
"""

from __future__ import annotations

import numpy as np

from ...errors import FailedPreconditionError, InvalidArgumentError
from ...trace import events as ev
from ..execution import allocate, onto_device, run_binary, run_step
from ..registry import REGISTRY
from ..tensor import Tensor
from .host_consts import host_memory_const, kernel_inputs, runtime_attrs


def post_order(ops, roots, fed, uses, folded) -> list[int]:
    """Node ids reachable from ``roots`` (ids) through inputs and control inputs, inputs before
    consumers; a node in ``fed`` is a leaf (its inputs are not needed). ``uses`` (a list by node
    id) counts, for each node, the inputs of the nodes returned that it feeds; ``folded`` (a set)
    receives the ``Rank`` nodes answered from their input's static rank, leaves too (``folds``)."""
    done = bytearray(len(ops))
    out = []
    emit = out.append
    for root in roots:
        if done[root]:
            continue
        stack = [root]
        push, pop = stack.append, stack.pop
        while stack:
            i = pop()
            if i < 0:
                emit(~i)
                continue
            if done[i]:
                continue
            done[i] = 1
            push(~i)
            if fed and i in fed:
                continue
            op = ops[i]
            if op.type == "Rank" and folds(op):
                folded.add(i)
                continue
            for c in op._control_inputs:
                if not done[c._id]:
                    push(c._id)
            for t in op._inputs:
                j = t._op._id
                uses[j] += 1
                if not done[j]:
                    push(j)
    return out


def folds(op) -> bool:
    """Whether a session answers this ``Rank`` node from its input's static rank without running the
    input (TensorFlow's graph optimiser folds it: a resource variable's rank is known even before it is
    initialised) — not the rank of a ref variable's snapshot, which TensorFlow 2.21 reads (and fails
    on when the variable is not initialised). ``tests/tf221_oracle`` ``tf1_uninitialized``."""
    if op._inputs[0]._shape is None:
        return False
    source = op._inputs[0]._op
    return not (source.type == "Identity" and source._inputs and source._inputs[0]._op.type == "VariableV2")


class VariableRef:
    """The output of ``VariableV2`` (and ``Assign``): a reference to the session's buffer."""

    __slots__ = ("var_id", "name")

    def __init__(self, var_id, name):
        self.var_id = var_id
        self.name = name


class GraphRun:
    """One ``Session.run`` step over the session's placed graph."""

    def __init__(self, session, feeds):
        self.session = session
        self.ctx = session._ctx
        self.ops = session._graph._ops
        self.feeds = feeds
        self.values: dict[int, object] = {}
        self.copies: dict[int, dict] = {}  # producer id → {device name: its copy there}
        self.executed = 0  # nodes run so far (SessionRun.ops)

    def run(self, target_ids, keep) -> dict:
        """Execute what ``target_ids`` need; returns ``{id: Tensor | VariableRef | None}`` for ``keep``."""
        ops, feeds, values, copies = self.ops, self.feeds, self.values, self.copies
        uses, folded = [0] * len(ops), set()
        order = post_order(ops, target_ids, feeds, uses, folded)
        leaves = feeds.keys() | folded if folded else feeds
        keep = set(keep)
        session = self.session
        placed, events, ctx = session._placed, session._records, self.ctx
        for i in order:
            op = ops[i]
            inputs = op._inputs
            if i in leaves:  # fed, or a folded Rank: its inputs are not run
                values[i] = self.execute(op) if i in feeds else self.rank_of(op)
                self.executed += 1
                continue
            if op.type in _SPECIAL or op._n_host or op._attrs:
                values[i] = self.execute(op)
            else:  # an ordinary kernel without attributes: its inputs' values where they are, else through ``input``
                device = placed[i]
                if len(inputs) == 2:  # most nodes: spelled out (x and y live on until the next such node)
                    x, y = values[inputs[0]._op._id], values[inputs[1]._op._id]
                    if type(x) is Tensor and type(y) is Tensor and x._device is device and y._device is device:
                        if device.xp is not None:  # a NumPy device: the step's two-input case
                            values[i] = run_binary(ctx, device, REGISTRY[op.type], x._value, y._value, events[i],
                                                   op.name)
                            arrays = None
                        else:
                            arrays = [x._value, y._value]
                    else:
                        arrays = self.inputs(op, inputs, device)
                else:
                    arrays = self.inputs(op, inputs, device)
                if arrays is not None:
                    values[i] = run_step(ctx, device, REGISTRY[op.type], arrays, None, events[i], op.name,
                                         op._kernel_dtype)
            self.executed += 1
            for t in inputs:
                j = t._op._id
                left = uses[j] = uses[j] - 1
                if not left and j not in keep:
                    values.pop(j, None)
                    if copies:
                        copies.pop(j, None)
        return {i: values[i] for i in keep}

    def inputs(self, op, inputs, device) -> list:
        """The arrays of an ordinary kernel's inputs on ``device``: where they are, else through ``input``."""
        values, out = self.values, []
        for k, t in enumerate(inputs):
            value = values[t._op._id]
            out.append(value._value if type(value) is Tensor and value._device is device
                       else self.input(op, k, t, device, self.session._seqs[op._id]))
        return out

    # -- one node --------------------------------------------------------------------------
    def execute(self, op):
        """A node that is not an ordinary kernel call: fed, a constant, a variable, an assignment …"""
        session = self.session
        i = op._id
        device = session._placed[i]
        seq = session._seqs[i]
        kind = op.type
        if i in self.feeds:
            return self.materialize(op, self.feeds[i], device, seq)
        if kind == "Const":
            return self.materialize(op, op._attrs["value"], device, seq)
        if kind == "Placeholder":
            raise _unfed(op)
        if kind == "VariableV2":
            return VariableRef(i, op.name)
        if kind == "VarHandleOp":
            return VariableRef(i, op._attrs["shared_name"])
        if kind == "NoOp":
            return None
        inputs = kernel_inputs(op)  # host inputs: the kernel has attrs
        arrays = [self.input(op, k, t, device, seq) for k, t in enumerate(inputs)]
        if kind == "Assign":
            return self.assign(op, arrays, device, seq)
        if kind in REF_UPDATES:  # AssignAdd/AssignSub: the variable's value, updated (uninitialised: TF's error)
            out = run_step(self.ctx, device, REGISTRY[kind], [self.read(arrays[0], op)._value, arrays[1]], None,
                           session._records[i], op.name, op._kernel_dtype)
            return self.assign(op, [arrays[0], out._value], device, seq)
        if kind in RESOURCE_OPS:
            return self.resource(op, arrays, device, seq)
        attrs = runtime_attrs(op, self.host_value) if op._dynamic else op._attrs or None
        if attrs and len(attrs.get("seed") or ()) == 3:  # a graph node's seeded random kernel: each session
            attrs = dict(attrs, seed=attrs["seed"] + (session._number,))  # has its own, its stream restarts
        return run_step(self.ctx, device, REGISTRY[kind], arrays, attrs, session._records[i], op.name, op._kernel_dtype)

    def host_value(self, tensor):
        """A run node's output on the host (a dynamic host input's value)."""
        value = self.values[tensor._op._id]
        value = value[tensor._index] if type(value) is tuple else value
        return value._device.backend.to_host(value._value)

    def rank_of(self, op) -> Tensor:
        """A folded ``Rank``: its input's static rank."""
        i = op._id
        return self.materialize(op, np.int32(len(op._inputs[0]._shape)), self.session._placed[i], self.session._seqs[i])

    def materialize(self, op, array: np.ndarray, device, seq) -> Tensor:
        dtype = op._outputs[0]._dtype
        value = onto_device(self.ctx, device, lambda: device.backend.from_host(array), array, op.type, seq, dtype,
                            op.name)
        handle = None if host_memory_const(op, device) else self.allocate(op, device, value, seq, dtype)
        tensor = Tensor(value, device, handle, dtype, seq)
        event = self.session._records[op._id]
        if event is not None and event.mem_in_use is None:  # its first run: in use with it accounted
            event.mem_in_use = device.allocator.bytes_in_use
        return tensor

    def allocate(self, op, device, array, seq, dtype, what=None):
        """Account ``array`` for node ``op`` (TensorFlow's graph-mode OOM tail: ``[[{{node …}}]]``)."""
        return allocate(self.ctx, device, array, what or op.type, seq, dtype, op.name)

    def read(self, ref: VariableRef, consumer) -> Tensor:
        value = self.session._variables.get(ref.var_id)
        if value is None:
            raise FailedPreconditionError(f"Attempting to use uninitialized value {ref.name}\n\t "
                                          f"[[{{{{node {consumer.name}}}}}]]", op=consumer.type)
        return value

    def input(self, op, index, tensor, device, seq):
        j = tensor._op._id
        value = self.values[j]
        if type(value) is tuple:  # a multi-output node: its copies are kept per output
            value, j = value[tensor._index], (j, tensor._index)
        if isinstance(value, VariableRef):
            if index == 0 and (op.type in REF_UPDATES or op.type in RESOURCE_OPS):
                return value
            value = self.read(value, op)
        if value._device is device:
            return value._value
        copies = self.copies.setdefault(j, {})
        copy = copies.get(device.name)
        if copy is None:
            src = value._device
            moved = onto_device(self.ctx, device, lambda: device.backend.copy_from(value._value, src.backend),
                                value._value, "_Send/_Recv", seq, value._dtype, op.name)
            self.ctx.emit_graph(ev.TensorCopied(seq, op.type, index, src.name, device.name, int(value._value.nbytes)))
            copy = Tensor(moved, device, self.allocate(op, device, moved, seq, value._dtype, "_Send/_Recv"),
                          value._dtype, seq)
            copies[device.name] = copy
        return copy._value

    def assign(self, op, arrays, device, seq):
        ref, value = arrays
        variables = self.session._variables
        old = variables.get(ref.var_id)
        if old is not None and old._value.shape != value.shape:
            raise InvalidArgumentError(f"Assign requires shapes of both tensors to match. lhs shape= "
                                       f"{list(old._value.shape)} rhs shape= {list(value.shape)}\n\t "
                                       f"[[{{{{node {op.name}}}}}]]", op="Assign")
        dtype = op._outputs[0]._dtype
        out = onto_device(self.ctx, device, lambda: device.backend.run(
            REGISTRY["Assign"].fn, [value if old is None else old._value, value], None, REGISTRY["Assign"], dtype),
            value, "Assign", seq, dtype, op.name)
        del old
        variables.pop(ref.var_id, None)  # the old buffer is freed before the new one is accounted
        variables[ref.var_id] = Tensor(out, device, self.allocate(op, device, out, seq, dtype), dtype, seq)
        return ref


    # -- resource variables (VarHandleOp's consumers) ---------------------------------------------
    def resource(self, op, arrays, device, seq):
        """``VarIsInitializedOp``, ``ReadVariableOp`` and the assignments, on the session's value
        of the variable whose handle is the first input."""
        ref, kind = arrays[0], op.type
        variables = self.session._variables
        if kind in ("VarIsInitializedOp", "IsVariableInitialized"):
            return self.materialize(op, np.array(ref.var_id in variables), device, seq)
        if kind == "AssignVariableOp":
            self.assign(op, arrays, device, seq)
            return None
        current = variables.get(ref.var_id)
        if current is None:
            detail = (f"Resource localhost/{ref.name}/N10tensorflow3VarE does not exist." if variables else
                      f"Container localhost does not exist. (Could not find resource: localhost/{ref.name})")
            raise FailedPreconditionError(
                f"Could not find variable {ref.name}. This could mean that the variable has been deleted. In TF1, "
                f"it can also mean the variable is uninitialized. Debug info: container=localhost, status error "
                f"message={detail}\n\t [[{{{{node {op.name}}}}}]]", op=kind)
        event = self.session._records[op._id]
        out = run_step(self.ctx, device, REGISTRY[kind], [current._value] + arrays[1:], None, event, op.name,
                       op._kernel_dtype)
        if kind != "ReadVariableOp":
            self.assign(op, [ref, out._value], device, seq)
            return None
        return out


REF_UPDATES = frozenset(("Assign", "AssignAdd", "AssignSub"))  # ops taking a ref variable's buffer
RESOURCE_OPS = frozenset(("VarIsInitializedOp", "IsVariableInitialized", "ReadVariableOp", "AssignVariableOp",
                          "AssignAddVariableOp", "AssignSubVariableOp"))
_SPECIAL = frozenset(("Const", "Placeholder", "VariableV2", "VarHandleOp", "NoOp")) | REF_UPDATES | RESOURCE_OPS


def _unfed(op) -> InvalidArgumentError:
    out = op._outputs[0]
    text = f"You must feed a value for placeholder tensor '{op.name}' with dtype {out._dtype.c_name}"
    if out._shape:
        text += " and shape [" + ",".join("?" if d is None else str(d) for d in out._shape) + "]"
    return InvalidArgumentError(f"{text}\n\t [[{{{{node {op.name}}}}}]]", op="Placeholder")


def fetch_value(run: GraphRun, element_id: int, value):
    """The numpy value ``Session.run`` returns for a fetched tensor."""
    if isinstance(value, VariableRef):
        value = run.read(value, run.ops[element_id])
    host = value._device.backend.to_host(value._value)
    host = np.array(host, copy=True)
    return host if host.ndim else host[()]
