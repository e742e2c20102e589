"""Running a traced function graph: place it once (TensorFlow's placer, soft placement on, as
for functions), then run every node in creation order on its device through the shared
execution step, with the arguments, captures and variables fed in.

The first run records each node's placement as TensorFlow logs a function body
(``<node>: (<Op>): <device>``, :mod:`function_placement`); every run records the call itself as one eager op
(``__inference_<name>_<N>``), then a ``FunctionCall`` start, each node it executed (so the table
and summary views show one row per op) and a ``FunctionCall`` end — the timeline draws the call
as a slice around its nodes. Active gradient tapes see the body's ops as if they ran eagerly.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from ...trace import events as ev
from .. import collective
from .. import sources
from ...trace.events import OpRecord, not_run
from ..eager.executor import run_node, run_plan, run_planned
from ..eager.tape import record as tape_record
from ..eager.tape import variable_accessed
from ..backends import PoolExhausted
from ..execution import allocate, onto_device, oom, run_step
from ..registry import QUIET, REGISTRY
from ..tensor import Tensor
from .func_graph import RESOURCE_OPS
from .host_consts import host_memory_const, kernel_inputs, runtime_attrs
from .tensor import value_of
from . import function_placement, lowering, placer

CONTROL_FLOW = lowering.CONTROL_FLOW
CALL = sources.CALL
_CALLS = [None]  # the src of the function call in progress (its branches' nodes read it)
_COPIES = "copies"  # the key, in a run's values, of the copies made so far: {(id(tensor), device): (tensor, copy)}
_NEW = tuple.__new__
_TENSOR = Tensor.__new__  # Tensor(...) without the __init__ frame: the slots set by the caller
# the variables' ops a plan runs itself (see _make_plan): {op type: (reads the variable, assigns it)}
_VARIABLE_STEPS = {"ReadVariableOp": (True, False), "AssignVariableOp": (False, True),
                   "AssignAddVariableOp": (True, True), "AssignSubVariableOp": (True, True)}


def _fast_kernel(opdef, op):
    """What run_plan may call in place of the op's kernel while ``opdef.fn`` is still that kernel:
    ``(kernel, ufunc, inner, reuse)``: ``ufunc`` the op's NumPy ufunc on its one or two arrays
    (``a * b``: ``np.multiply``; None for a node with attributes), ``inner`` the kernel ``quiet``
    wraps: the ufunc, else ``inner``, runs under quiet's errstate, set from C (NumPy's Python wrapper
    costs more than most kernels); ``reuse`` the input positions whose array the ufunc may write its
    result into (filled in by ``_forwardable``); ``None`` when neither applies."""
    inner = QUIET.get(opdef.fn) if isinstance(opdef.fn, Hashable) else None
    ufunc = opdef.ufunc
    if ufunc is None or op._attrs or len(op._inputs) not in (1, 2) or getattr(ufunc, "nin", None) != len(op._inputs) or (
            inner is None and getattr(opdef.fn, "__wrapped__", None) is not None):
        ufunc = None
    if ufunc is None and inner is None:
        return None
    return (opdef.fn, ufunc, inner, ())


# the ufuncs whose result has its inputs' dtype and shape (floats of one dtype, one of them a 0-d
# array or both of one shape: checked from C) and may be written into a dead input's array
_FORWARDS = frozenset((np.add, np.subtract, np.multiply, np.true_divide, np.square, np.sqrt))


def _forwardable(graph, plan: list) -> None:
    """Give each planned ufunc step the input positions (``reuse`` in ``_fast_kernel``'s tuple) whose
    value no later node reads and the call does not return: as TensorFlow's kernels forward an input
    buffer no one else reads to their output (``OpKernelContext::forward_input``), run_plan may then
    compute the result into that input's NumPy array (``out=``) and save the host allocation, while
    the output is still allocated and accounted as its own tensor. run_plan checks at run time that
    nothing else holds the input tensor or its array (a variable, a fed array, a view, a copy)."""
    outputs = _symbolic(graph.outputs)
    if outputs is None:
        return
    kept = {t._op._id for t in outputs}
    last = {}
    for k, (i, op, device, step) in enumerate(plan):
        for t in op._inputs:
            last[(t._op._id, t._index)] = k
        if op._n_host:
            for t in kernel_inputs(op):
                last[(t._op._id, t._index)] = k
    kinds = {i: (step is not None and len(step) == 8) for i, op, device, step in plan}
    for k, (i, op, device, step) in enumerate(plan):
        if step is None or len(step) != 8 or step[7] is None or step[7][1] not in _FORWARDS:
            continue
        producers = step[2]
        reuse = tuple(p for p, key in enumerate(producers)
                      if last.get(key) == k and key[0] not in kept and kinds.get(key[0]) and producers.count(key) == 1)
        if reuse:
            plan[k] = (i, op, device, step[:7] + (step[7][:3] + (reuse,),))


def _host(tensor):
    return tensor._device.backend.to_host(tensor._value)


def _truth(tensor) -> bool:
    return bool(_host(tensor))


def _call_site(graph):
    """The program's frame that traced ``graph`` (a branch: the function around it)."""
    while graph is not None:
        site = getattr(graph, "call_site", None)
        if site is not None:
            return site
        graph = getattr(graph, "outer", None)
    return None


def _run_order(graph) -> list:
    """The nodes in creation order, but automatic control dependencies' ``NoOp`` (made last) just
    before the first output that waits for it, where TensorFlow's executor runs it."""
    ops = list(lowering.constructed_order(graph._ops))
    control = graph.control_output
    if control is not None:
        ops.remove(control)
        ops.insert(next(k for k, op in enumerate(ops) if control in op._control_inputs), control)
    return ops


def _prunable(op) -> bool:
    """A node TensorFlow drops from a function's body when nothing uses it: a stateless op that is
    no control flow, resource or collective op."""
    opdef = REGISTRY.get(op.type)
    return (opdef is not None and not opdef.stateful and op.type not in CONTROL_FLOW and op.type not in RESOURCE_OPS
            and op.type != collective.GROUPED and not op._dynamic)


def _needed(graph) -> set:
    """The ids of the nodes a call runs: what the outputs and the stateful nodes depend on (data and
    control inputs) — TensorFlow prunes the rest (``tf.gather(x, [1])`` whose value is unused never
    runs); ``None``: all of them."""
    outputs = _symbolic(graph.outputs)
    if outputs is None:  # a composite value (ragged, sparse, an extension type): every node runs
        return None
    roots = [t._op for t in outputs] + [op for op in graph._ops if not _prunable(op)]
    needed, stack = set(), roots
    while stack:
        op = stack.pop()
        if op._id in needed:
            continue
        needed.add(op._id)
        stack.extend(t._op for t in op._inputs)
        stack.extend(op._control_inputs)
    return needed


def _symbolic(structure):
    """The graph tensors in a function's returned structure; ``None`` if it holds other objects."""
    if isinstance(structure, Tensor):
        return [structure] if structure._device is None else []
    if structure is None or isinstance(structure, (bool, int, float, str, bytes)):
        return []
    if isinstance(structure, dict):
        structure = list(structure.values())
    if type(structure) in (list, tuple):
        found = [_symbolic(item) for item in structure]
        return None if any(f is None for f in found) else [t for f in found for t in f]
    return None


class PlacedFunction:
    """A function graph placed on the context's devices (``devices``: on those alone)."""

    logged_call = True  # each run is an eager op of its own (``__inference_…``), logged
    sinks = False  # tf.data's instantiation: a ``FakeSink<k>`` Identity per output, in its placement log

    def __init__(self, ctx, graph, call_name: str, lowered: dict | None = None, pinned: dict | None = None,
                 devices: list | None = None):
        devices = ctx.devices if devices is None else devices
        self.graph = graph
        self.call_name = call_name
        self.calls = 0
        # pinned: {argument placeholder id: Device} (the devices of the first call's arguments)
        # a function's graph is TensorFlow 2's alone (tf.function): its placer's order, also under --compat tf1
        placement = placer.place(graph, devices, allow_soft_placement=True, assigned=pinned, tf1=False)
        if graph.outer is None:
            for level, text in placement.messages:
                ctx.emit_graph(ev.Message(level, text))
        self.devices = placement.devices
        self.reasons = placement.reasons
        self.branches: dict = {}  # id(branch graph) -> its PlacedFunction (If / While bodies)
        self.order = _run_order(graph)
        self._plan = None  # made at the first run (see _make_plan)
        self._groups: dict = {}  # instance_key -> its CollectiveReduceV2 nodes (see _make_plan)
        self._sources = None  # node id -> its src, for the nodes _node runs (see _src)
        # the devices of the branches' nodes: where the placer put them in the lowered graph
        self.lowered = lowered if lowered is not None else {}
        if graph.outer is not None:  # a branch or loop body: placed as TensorFlow placed it inlined
            for op in graph._ops:
                device = self.lowered.get(id(op))
                if device is not None:
                    self.devices[op._id] = device
            return
        if any(op.type in CONTROL_FLOW for op in graph._ops):  # TensorFlow lowers and inlines it first
            lines, self.lowered = lowering.lowered(graph, self.devices, devices)
        else:  # a function: its instantiated graph, as TensorFlow's placer logs it
            lines = [(node, op_type, graph._by_name[node]._device if node in graph._by_name else "", device, reason)
                     for node, op_type, device, reason in function_placement.nodes(graph, self.devices, self.reasons,
                                                                                   self.sinks)]
        by_name = graph._by_name
        for node, op_type, requested, device, reason in lines:  # an _Arg sits with its input (no reason of its own)
            src = self._src(by_name.get(node), sources.here(2)) if sources.ENABLED else None
            ctx.trace.emit_placer(ev.OpPlaced(0, op_type, node, requested, device.name, reason or ev.COLOCATED, [],
                                              src=src))

    def run(self, ctx, args: list, capture_values: list) -> dict:
        """Values of every node (``{node id: Tensor | variable | None}``)."""
        graph, trace = self.graph, ctx.trace
        device = ctx.host if not ctx.scope else (ctx.find_device(ctx.scope) or ctx.host)
        trace._seq = call_seq = trace._seq + 1
        call_src = sources.here(2) if sources.ENABLED else None  # the program's line that called it
        if self.logged_call:
            trace.emit(ev.OpPlaced(call_seq, self.call_name, None, ctx.scope, device.name, ev.DEFAULT, [],
                                   src=call_src))
        call_tail = not_run(call_src)
        feeds = {t._op._id: v for t, v in zip(graph.inputs, args)}
        feeds.update({node._op._id: value for value, node in capture_values})
        values: dict = {}
        self.calls += 1
        trace.emit(ev.FunctionCall(self.call_name, self.calls))  # the slice of this call starts
        executed = [0]  # the nodes run so far (run_plan counts its own)
        plan = self._plan or self._make_plan()
        n, k = len(plan), 0
        saved, _CALLS[-1] = _CALLS[-1], call_src
        try:
            while k < n:
                if run_plan is not None:  # the loop below in C (_fastpath.c), up to an entry it leaves to it
                    k = run_plan(ctx, plan, k, values, feeds, call_src, CALL, executed)
                    if k >= n:
                        break
                i, op, device, step = plan[k]
                k += 1
                if i in feeds:
                    values[i] = feeds[i]
                    continue
                if device is None:  # a placeholder nothing fed
                    continue
                if step is None:
                    values[i] = self._node(ctx, op, device, values)
                    executed[0] += 1
                    continue
                if len(step) == 5:  # a Const: _node's, with its record made once but for the seq
                    array, dtype, fields, node, host = step
                    trace._seq = seq = trace._seq + 1
                    try:  # onto_device's and allocate's steps, spelled out
                        value = device.backend.from_host(array)
                    except PoolExhausted:
                        raise oom(ctx, device, array, "Const", seq, dtype, node) from None
                    trace.append(_NEW(OpRecord, (seq,) + (fields if fields[-1] is not CALL else
                                                          fields[:-1] + (call_src,))))
                    if host:
                        handle = None
                    else:
                        handle = device.allocator.allocate(value.nbytes, ("Const", value.shape, dtype.name))
                        if handle is None:
                            raise oom(ctx, device, value, "Const", seq, dtype, node)
                    t = _TENSOR(Tensor)
                    t._value, t._device, t._handle, t._dtype, t._seq = value, device, handle, dtype, seq
                    values[i] = t
                    executed[0] += 1
                    continue
                if len(step) == 11:  # a variable's read or assignment: _node's steps for it
                    values[i] = self._variable_op(ctx, op, device, values, step, call_tail)
                    executed[0] += 1
                    continue
                # _node's common case spelled out: inputs from this run's values, all on the node's device
                opdef, head, producers, attrs, op_type, node, tail, _ = step
                if run_planned is not None:  # the lines below in C (_fastpath.c), unless it answers NotImplemented
                    out = run_planned(ctx, device, values, producers, opdef, attrs, head,
                                      call_src if tail is CALL else tail[-1], node)
                    if out is not NotImplemented:
                        if ctx.tapes and out is not None:
                            inputs = [values[source][index] if type(values[source]) is tuple else values[source]
                                      for source, index in producers]
                            tape_record(ctx, op_type, attrs, inputs, out, device)
                        values[i] = out
                        executed[0] += 1
                        continue
                inputs = []
                for source, index in producers:
                    value = values[source]
                    inputs.append(value[index] if type(value) is tuple else value)
                for t in inputs:
                    if t._device is not device:
                        values[i] = self._node(ctx, op, device, values)
                        break
                else:
                    trace._seq = seq = trace._seq + 1
                    if run_node is not None:  # run_step in C (_fastpath.c), the record made there
                        out = run_node(ctx, device, opdef, [t._value for t in inputs], attrs, seq, head,
                                       [t._seq for t in inputs], (tail if tail is not CALL else call_tail)[-1], node)
                    else:
                        out = run_step(ctx, device, opdef, [t._value for t in inputs], attrs,
                                       _NEW(OpRecord, (seq, *head, [t._seq for t in inputs])
                                            + (tail if tail is not CALL else call_tail)), node)
                    if ctx.tapes and out is not None:
                        tape_record(ctx, op_type, attrs, inputs, out, device)
                    values[i] = out
                executed[0] += 1
        except BaseException as e:
            trace.emit(ev.FunctionCall(self.call_name, self.calls, True, executed[0], type(e).__name__))
            raise
        finally:
            _CALLS[-1] = saved
        trace.emit(ev.FunctionCall(self.call_name, self.calls, True, executed[0]))
        if ctx.op_callbacks:
            for callback in tuple(ctx.op_callbacks):
                callback.function(self, args, values)
        return values

    def _make_plan(self) -> list:
        """``(node id, op, device, step)`` per node in run order: ``device`` None for a placeholder,
        ``step`` None for a node ``_node`` runs (constants, control flow, variables' ops, host
        inputs known only at run time), else what running the node needs, looked up once."""
        plan = []
        self._groups = {}  # instance_key -> its CollectiveReduceV2 nodes, in run order
        recording = sources.ENABLED
        site = _call_site(self.graph)
        needed = _needed(self.graph) if self.graph.outer is None else None
        for op in self.order:
            i = op._id
            if needed is not None and i not in needed:  # pruned, as TensorFlow prunes a function's body
                continue
            if op.type == "Placeholder":
                plan.append((i, op, None, None))
                continue
            device = self.devices[i]
            step = None
            src = sources.of_node(op, site) if recording else None  # found once: every run's record holds it
            if op.type == "Const":  # OpPlaced's fields but the seq, as an OpRecord completes them
                array = op._attrs["value"]
                step = (array, op._outputs[0]._dtype, ("Const", op.name, op._device, device.name, self.reasons[i], [],
                                                       list(array.shape), op._outputs[0]._dtype.name, 0, None, src),
                        op.name, host_memory_const(op, device))
            elif op.type in _VARIABLE_STEPS and not op._dynamic and not op._n_host:
                reads, assigns = _VARIABLE_STEPS[op.type]
                step = (REGISTRY[op.type], (op.type, op.name, op._device, device.name, self.reasons[i]),
                        tuple((t._op._id, t._index) for t in op._inputs), op._attrs or None, reads, assigns,
                        op._kernel_dtype, CALL if src is CALL else not_run(src), op._attrs, op.type, op.name)
            elif op.type == collective.GROUPED:  # _node: the group's values meet first
                self._groups.setdefault(op._attrs["instance_key"], []).append(op)
            elif op.type not in CONTROL_FLOW and op.type not in RESOURCE_OPS and not op._dynamic:
                head = (op.type, op.name, op._device, device.name, self.reasons[i])
                producers = tuple((t._op._id, t._index) for t in (kernel_inputs(op) if op._n_host else op._inputs))
                opdef = REGISTRY[op.type]
                step = (opdef, head, producers, op._attrs or None, op.type, op.name,
                        CALL if src is CALL else not_run(src), _fast_kernel(opdef, op))
            plan.append((i, op, device, step))
        _forwardable(self.graph, plan)
        self._plan = plan
        return plan

    def _variable_op(self, ctx, op, device, values, step, call_tail):
        """``_node``'s steps for a variable's read or assignment, from the plan (``_make_plan``)."""
        opdef, head, producers, attrs, reads, assigns, kernel_dtype, tail, op_attrs, op_type, node = step
        inputs = []
        for source, index in producers:
            value = values[source]
            inputs.append(value[index] if type(value) is tuple else value)
        variable = inputs[0]
        inputs[0] = variable._value
        if not reads:
            del inputs[0]
        xp = device.xp
        for t in inputs:
            if t._device is not device:
                xp = None
        if xp is None:  # a copy to make, or --compute none's planner (its kernel dtype): _node
            return self._node(ctx, op, device, values)
        trace = ctx.trace
        trace._seq = seq = trace._seq + 1
        tail = tail if tail is not CALL else call_tail
        if run_node is not None:
            out = run_node(ctx, device, opdef, [t._value for t in inputs], attrs, seq, head, [t._seq for t in inputs],
                           tail[-1], node)
        else:
            out = run_step(ctx, device, opdef, [t._value for t in inputs], attrs,
                           _NEW(OpRecord, (seq, *head, [t._seq for t in inputs]) + tail), node, kernel_dtype)
        if assigns:
            variable._value = out
            return out
        if ctx.tapes and out is not None:
            variable_accessed(ctx, variable)
            tape_record(ctx, op_type, op_attrs, inputs, out, device)
        return out

    def run_branch(self, ctx, graph, args: list, captured: list) -> tuple:
        """Run a branch or loop body of a control-flow node: its placeholders fed with ``args``
        (then, loop variables) and ``captured`` (the values of its outer captures); its outputs."""
        placed = self.branches.get(id(graph))
        if placed is None:
            placed = self.branches[id(graph)] = PlacedFunction(ctx, graph, graph.name, self.lowered)
        feeds = {t._op._id: v for t, v in zip(graph.inputs, args)}
        feeds.update({node._op._id: v for (_, node), v in zip(graph.outer_captures, captured)})
        values: dict = {}
        for op in graph._ops:
            i = op._id
            if i in feeds:
                values[i] = feeds[i]
            elif op.type != "Placeholder":
                values[i] = placed._node(ctx, op, placed.devices[i], values)
        return tuple(value_of(values, t) for t in graph.flat_outputs) + tuple(value_of(values, t)
                                                                              for _, t in graph.carried)

    def _control_flow(self, ctx, op, device, values):
        """``If`` / ``While`` nodes: Python picks the branch or repeats the body, each run as a
        function graph on its own placed devices."""
        inputs = [value_of(values, t) for t in op._inputs]
        attrs = op._attrs
        trace = ctx.trace  # the node's run: one row (its branches' nodes follow)
        trace._seq = seq = trace._seq + 1
        trace.append(ev.OpPlaced(seq, op.type, op.name, op._device, device.name, self.reasons[op._id],
                                 [getattr(t, "_seq", 0) for t in inputs], src=self._src(op)))
        if op.type in lowering.CALL_OPS:  # a tf.function's call: its graph, on the arguments and captures
            graph, positions = attrs["f"]
            n = attrs["n_args"]
            return self.run_branch(ctx, graph, inputs[:n], [inputs[n + k] for k in positions])
        if op.type in lowering.IF_OPS or op.type in lowering.CASE_OPS:
            if op.type in lowering.IF_OPS:
                branch, positions = attrs["then_branch" if _truth(inputs[0]) else "else_branch"]
            else:  # Case: an index out of range runs the last branch
                index = int(inputs[0]._device.backend.to_host(inputs[0]._value))
                branches = attrs["branches"]
                branch, positions = branches[index if 0 <= index < len(branches) else -1]
            return self.run_branch(ctx, branch, [], [inputs[1 + k] for k in positions])
        n = attrs["num_loop_vars"]
        loop, outer = inputs[:n], inputs[n:]
        (cond, cond_positions), (body, body_positions) = attrs["cond"], attrs["body"]
        places = {id(p): k for (_, p), k in zip(body.outer_captures, body_positions)}
        carried = [places[id(p)] for p, _ in body.carried]  # captures the body passes on changed
        while _truth(self.run_branch(ctx, cond, loop, [outer[k] for k in cond_positions])[0]):
            out = self.run_branch(ctx, body, loop, [outer[k] for k in body_positions])
            loop = list(out[:n])
            for k, value in zip(carried, out[n:]):
                outer[k] = value
        return tuple(loop) + tuple(outer)

    def _node(self, ctx, op, device, values):
        if op.type in CONTROL_FLOW:
            return self._control_flow(ctx, op, device, values)
        trace = ctx.trace
        trace._seq = seq = trace._seq + 1
        if op.type == "Const":
            array = op._attrs["value"]
            dtype = op._outputs[0]._dtype
            value = onto_device(ctx, device, lambda: device.backend.from_host(array), array, "Const", seq, dtype,
                                op.name)
            trace.append(ev.OpPlaced(seq, "Const", op.name, op._device, device.name, self.reasons[op._id], [],
                                     list(array.shape), dtype.name, src=self._src(op)))
            handle = None if host_memory_const(op, device) else allocate(ctx, device, value, "Const", seq, dtype,
                                                                         op.name)
            return Tensor(value, device, handle, dtype, seq)
        inputs = [value_of(values, t) for t in (kernel_inputs(op) if op._n_host else op._inputs)]
        variable = None
        if op.type in RESOURCE_OPS:
            variable, inputs = inputs[0], inputs[1:]
            inputs = ([variable._value] if op.type != "AssignVariableOp" else []) + inputs
        copies = [self._on(ctx, t, device, seq, op, k, values) for k, t in enumerate(inputs)]
        record = tuple.__new__(OpRecord, (seq, op.type, op.name, op._device, device.name, self.reasons[op._id],
                                          [t._seq for t in inputs]) + not_run(self._src(op)))
        attrs = runtime_attrs(op, lambda t: _host(value_of(values, t))) if op._dynamic else op._attrs
        group = self._groups.get(attrs["instance_key"]) if op.type == collective.GROUPED else None
        if group is not None and op is group[0]:
            ctx.trace.flush()  # this worker may wait here for ever (a peer died): its trace so far is written
            collective.gather(attrs["instance_key"], [_host(value_of(values, o._inputs[0])) for o in group])
        try:
            out = run_step(ctx, device, REGISTRY[op.type], [c._value for c in copies], attrs or None, record, op.name,
                           op._kernel_dtype)
        finally:
            if group is not None and op is group[-1]:
                collective.release(attrs["instance_key"])
        if variable is not None and op.type.startswith("Assign"):
            variable._value = out
            return out
        if ctx.tapes and out is not None:
            if variable is not None:
                variable_accessed(ctx, variable)
            tape_record(ctx, op.type, attrs, inputs, out, device)
        return out

    def _src(self, op, call_src=None):
        """The node's ``src`` (``sources.of_node``, found once per placed graph); a node made at the
        line that traced its function, this call's (``call_src``, else the call in progress)."""
        if not sources.ENABLED or op is None:
            return None
        found = self._sources
        if found is None:
            found = self._sources = {}
        src = found.get(op._id, found)
        if src is found:
            src = found[op._id] = sources.of_node(op, _call_site(self.graph))
        if src is CALL:
            return call_src if call_src is not None else _CALLS[-1]
        return src

    @staticmethod
    def _on(ctx, tensor, device, seq, op, index, values):
        """The tensor on ``device``: itself, or a copy there (recorded and accounted) — one per tensor
        and device in a run, as TensorFlow's partitioned graph has one ``_Send``/``_Recv`` pair for
        each tensor a device reads from another."""
        if tensor._device is device:
            return tensor
        moved_already = values.setdefault(_COPIES, {})
        key = (id(tensor), device.name)
        if key in moved_already:
            return moved_already[key][1]
        moved = onto_device(ctx, device, lambda: device.backend.copy_from(tensor._value, tensor._device.backend),
                            tensor._value, "_Send/_Recv", seq, tensor._dtype, op.name)
        ctx.trace.emit(ev.TensorCopied(seq, op.type, index, tensor._device.name, device.name,
                                       int(tensor._value.nbytes)))
        handle = allocate(ctx, device, moved, "_Send/_Recv", seq, tensor._dtype, op.name)
        copy = Tensor(moved, device, handle, tensor._dtype, seq)
        moved_already[key] = (tensor, copy)  # the source kept alive: its id names it for the whole run
        return copy
