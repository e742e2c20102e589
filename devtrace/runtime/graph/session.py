"""TF1 ``Session``: places its graph at the first ``run`` and runs the nodes each fetch needs.

Creating a session applies its ``ConfigProto`` to the runtime (the first session's GPU options
configure the process, :mod:`devtrace.runtime.graph.config_proto`) and records the ``Device
mapping``. The first ``run`` places every node of the graph (:mod:`devtrace.runtime.graph.placer`)
and records one ``OpPlaced`` per node; a later ``run`` places only nodes added since. With
``log_device_placement`` the live log prints both as TensorFlow 1 does.
"""

from __future__ import annotations

import contextlib
import gc

from ...trace import events as ev
from .. import context as _context_mod
from .. import threads
from .. import sources
from ...errors import InvalidArgumentError, OpError
from . import config_proto, fetch, graph_errors, placer
from .config_proto import ConfigProto
from .default_session import _AsDefault, get_default_session  # noqa: F401 (compat.v1 exports it from here)
from .graph import get_default_graph
from ..registry import REGISTRY
from .run import GraphRun, fetch_value
from .tensor import SymbolicTensor, value_of

class Session:
    """``tf.compat.v1.Session(target='', graph=None, config=None)``."""

    def __init__(self, target="", graph=None, config=None):
        if config is not None and not isinstance(config, ConfigProto):
            raise TypeError(f"config must be a tf.ConfigProto, but got {type(config)}")
        self._closed = True  # until the configuration is applied (a failed __init__ leaves a closed session)
        self._variables: dict = {}  # VariableV2 node id → its buffer (a Tensor)
        self._graph = graph if graph is not None else get_default_graph()
        self._config = config if config is not None else ConfigProto()
        self._target = target
        self._ctx = ctx = _context_mod.context()
        config_proto.configure(ctx, self._config)
        self._devices = config_proto.session_devices(ctx, self._config)
        self._log = bool(self._config.log_device_placement)
        self._placed: list = []  # Device of each placed node, by node id
        self._seqs: list[int] = []  # its OpPlaced seq
        self._records: list = []  # its OpPlaced event
        self._managers: list = []
        self._closed = False
        self._runs = 0  # Session.run calls so far
        _mark_graph_mode(ctx.trace)
        mapping = [[d.name, d.description] for d in self._devices if d.description]
        ctx.emit_graph(ev.DeviceMapping(mapping), self._log)
        self._number = ctx.trace.mappings  # SessionRun.session

    # -- properties ------------------------------------------------------------------------
    @property
    def graph(self):
        return self._graph

    @property
    def sess_str(self) -> str:
        return self._target

    def list_devices(self) -> list:
        return [config_proto.DeviceAttributes(d) for d in self._devices]

    # -- running ---------------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Evaluate ``fetches`` (a tensor, an op, a name, or a list/tuple/dict of them)."""
        ctx = _context_mod._context
        if ctx is not None and ctx.threaded and not threads.owned():  # one op at a time (runtime/threads.py)
            return threads.locked(ctx, self.run, fetches, feed_dict, options, run_metadata)
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        graph = self._graph
        if graph.version == 0:
            raise RuntimeError("The Session graph is empty.  Add operations to the graph before calling run().")
        feeds = fetch.feeds(graph, feed_dict)
        elements, rebuild = fetch.flatten(graph, fetches)
        self._runs += 1
        ctx = self._ctx
        ctx.emit_graph(ev.SessionRun(self._number, self._runs))  # the slice of this call starts
        step = GraphRun(self, feeds)
        try:
            with _collector_paused():
                self._place()
                keep = [e._op._id for e in elements if isinstance(e, SymbolicTensor)]
                values = step.run([op._id for op in fetch.targets(elements)], keep)
        except BaseException as e:
            ctx.emit_graph(ev.SessionRun(self._number, self._runs, True, step.executed, type(e).__name__))
            if isinstance(e, OpError) and not placer.tf1_graphs():
                raise graph_errors.enveloped(e, graph, getattr(e, "placement_node", None)) from None
            raise
        ctx.emit_graph(ev.SessionRun(self._number, self._runs, True, step.executed))
        return rebuild([fetch_value(step, e._op._id, value_of(values, e)) if isinstance(e, SymbolicTensor) else None
                        for e in elements])

    def _place(self) -> None:
        """Place the graph when it grew since the last run. TensorFlow 2 places the whole graph
        again and logs every node (nodes of stateful ops keep their device); TensorFlow 1 (a
        ``--compat tf1``) places and logs only the new nodes."""
        graph = self._graph
        ops = graph._ops
        n, placed = len(ops), len(self._placed)
        if placed == n:
            return
        tf1 = placer.tf1_graphs()
        kept = {i: d for i, d in enumerate(self._placed) if tf1 or REGISTRY[ops[i].type].stateful}
        try:
            placement = placer.place(graph, self._devices, self._config.allow_soft_placement, kept, tf1)
        except InvalidArgumentError as e:
            partial = getattr(e, "partial", None)
            if partial is not None:  # what TensorFlow logged before the failing node
                self._record(partial, partial.order, list(self._records) + [None] * (n - placed), False)
            raise
        self._placed = placement.devices
        self._seqs.extend([0] * (n - placed))
        old, self._records = self._records, self._records + [None] * (n - placed)
        self._record(placement, [i for i in placement.order if i >= placed] if tf1 else placement.order, old, True)

    def _record(self, placement, logged, old, keep: bool) -> None:
        """Emit the placer's messages and one ``OpPlaced`` per logged node (``keep``: remembered
        as the nodes' placement, which their runs complete)."""
        ctx, ops, devices = self._ctx, self._graph._ops, placement.devices
        for level, text in placement.messages:
            ctx.emit_graph(ev.Message(level, text), self._log)
        seqs = self._seqs if keep else list(self._seqs) + [0] * (len(ops) - len(self._seqs))
        trace = ctx.trace
        first = trace._seq + 1  # Trace.next_seq for each, in one step
        for k, i in enumerate(logged, first):
            seqs[i] = k
        trace._seq += len(logged)
        reasons, events, log, OpPlaced, new = placement.reasons, self._records, self._log, ev.OpPlaced, object.__new__
        quiet, record = not log and not trace.listeners, trace.append
        recording, of_node = sources.ENABLED, sources.of_node
        for i in logged:
            op = ops[i]
            inputs = op._inputs
            if len(inputs) == 2:  # most nodes: spelled out, as a comprehension costs more
                producers = [seqs[inputs[0]._op._id], seqs[inputs[1]._op._id]]
            else:
                producers = [seqs[t._op._id] for t in inputs] if inputs else []
            shape = dtype = None
            if op._outputs:
                out = op._outputs[0]
                shape, dtype = out._shape, out._dtype.name  # a tuple, as an eager op's (no list to collect)
            event = new(OpPlaced)  # OpPlaced(...) without its __init__ and __post_init__ frames: every field set,
            event.seq, event.op, event.node = seqs[i], op.type, op.name  # three at a time (no tuple built)
            event.requested, event.device, event.reason = op._device, devices[i].name, reasons[i] or old[i].reason
            event.inputs, event.shape, event.dtype = producers, shape, dtype
            event.duration_ns = 0
            event.mem_in_use = None
            event.src = of_node(op) if recording else None
            if keep:
                events[i] = event
            if quiet:  # nobody listens: recorded as emit_graph records it
                record(event)
            else:
                ctx.emit_graph(event, log)

    # -- lifetime --------------------------------------------------------------------------
    def close(self) -> None:
        """Free the session's variables; later ``run`` calls raise ``RuntimeError``."""
        self._closed = True
        self._variables.clear()

    def as_default(self):
        return _AsDefault(self)

    def __enter__(self):
        if self._managers:
            raise RuntimeError("Session context managers are not re-entrant. Use `Session.as_default()` if you "
                               "want to enter a session multiple times.")
        self._managers = [self._graph.as_default(), self.as_default()]
        for manager in self._managers:
            manager.__enter__()
        return self

    def __exit__(self, *exc):
        managers, self._managers = self._managers, []
        for manager in reversed(managers):
            manager.__exit__(*exc)
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass


@contextlib.contextmanager
def _collector_paused():
    """Placing a graph makes a few objects per node and frees none, running it a tensor per node
    that reference counting frees: the cyclic collector, which would walk the whole graph again
    and again meanwhile, waits until the step is done (its kernels make no cycles)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _mark_graph_mode(trace) -> None:
    """The trace's ``TraceStart`` says ``graph`` when no op ran eagerly before the first session."""
    events = trace.events
    if events and isinstance(events[0], ev.TraceStart) and events[0].mode == "eager" \
            and not any(isinstance(e, ev.OpPlaced) for e in events):
        events[0].mode = "graph"
