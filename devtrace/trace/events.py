"""Trace events: plain records of every decision the runtime makes.

The runtime appends events to a ``Trace``; renderers turn them into text, tables, JSONL or
DOT. Events are slotted classes built positionally; an executed op is recorded as an
``OpRecord`` (``OpPlaced``'s fields in a tuple, read by name) so that recording one costs well
under a microsecond on the per-op hot path. ``to_dict``/``from_dict`` give the JSONL wire format
(``SCHEMA`` versions it; keys are snake_case, sizes are integer bytes).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import MISSING, dataclass, field, fields

SCHEMA = 1


class Event:
    """Base of every event: a generic repr and equality, so each dataclass generates only its
    ``__init__`` (the CLI's start-up imports this module; generated methods cost compile time)."""

    __slots__ = ()
    kind = "event"

    def __repr__(self):
        body = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"{type(self).__name__}({body})"

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, f.name) == getattr(other, f.name) for f in fields(self))

    __hash__ = None

# Placement reasons (OpPlaced.reason).
EXPLICIT = "explicit"
DEFAULT = "default"
FALLBACK = "fallback:no-GPU-kernel"
SOFT = "soft:unknown-device"
RESOURCE = "resource"
COLOCATED = "colocated"
IMPORTED = "imported"  # read from a TensorFlow log: TensorFlow never says why
REASONS = (EXPLICIT, DEFAULT, FALLBACK, SOFT, RESOURCE, COLOCATED, IMPORTED)


@dataclass(slots=True, repr=False, eq=False)
class TraceStart(Event):
    """First event of every trace: where it came from and in which mode it ran."""

    kind = "trace_start"
    mode: str = "eager"  # eager | graph | imported
    source: str = "devtrace"  # devtrace | tensorflow-log
    program: str | None = None
    backend: str | None = None  # simulated | nvml | cpu
    streamed: bool = False  # written as the program ran: a complete trace ends with a trace_end record
    # how ops on real GPUs (CuPy) were timed: "cuda-events" (the GPU's time between CUDA events around
    # each op's kernels), "launch" (the host's launch of kernels CuPy runs asynchronously); None: no CuPy
    gpu_times: str | None = None


@dataclass(slots=True, repr=False, eq=False)
class TraceEnd(Event):
    """Last event of a streamed trace: the run ended and devtrace closed the file. A streamed trace
    without one was cut off (``os._exit``, SIGKILL); it is complete up to its last line."""

    kind = "trace_end"
    status: int | None = None  # the program's exit status
    events: int = 0  # records before this one


@dataclass(slots=True, repr=False, eq=False)
class TraceLimited(Event):
    """Written before ``trace_end`` when ``devtrace run --trace-limit`` left records out: what they
    counted (``trace/limit.py``). The trace holds the run's first ``limit`` executed ops."""

    kind = "trace_limited"
    limit: int  # executed ops the trace keeps
    ops: int  # executed ops left out
    op_types: list = field(default_factory=list)  # [[op, device, ops, CPU fallbacks]] of the ops left out
    copies: int = 0  # tensor_copied records left out
    copy_bytes: int = 0
    calls: int = 0  # Session.run and tf.function calls left out


@dataclass(slots=True, repr=False, eq=False)
class DeviceCreated(Event):
    kind = "device_created"
    name: str  # full name, /job:localhost/replica:0/task:0/device:GPU:0
    device_type: str
    physical_index: int | None = None  # platform id of the backing GPU
    memory_limit: int | None = None  # bytes; None for host memory (unlimited)
    description: str = ""  # TF's short device description (device mapping line)
    simulated: bool = False


@dataclass(slots=True, repr=False, eq=False)
class OpPlaced(Event):
    kind = "op_placed"
    seq: int
    op: str  # TensorFlow op type: MatMul, AddV2, _EagerConst, ...
    node: str | None  # graph node name (graph mode) or the op's name= argument
    requested: str  # the device the program asked for ("" = none)
    device: str  # full name of the assigned device
    reason: str  # one of REASONS
    inputs: list = field(default_factory=list)  # seq of the op that produced each input (0: none);
    # where each input lived follows from its producer's OpPlaced and the TensorCopied events
    shape: list | None = None
    dtype: str | None = None
    duration_ns: int = 0
    mem_in_use: int | None = None  # bytes in use on the device once the output was accounted (None:
    # not known — an op without output, one that failed, an imported one, a trace from before the field)
    src: str | None = None  # the program's "path:line" that made the op (runtime/sources.py; None: not
    # recorded — a library run, an imported log, an op devtrace made on its own); JSONL writes it only when known

    def __post_init__(self):
        if type(self.inputs) is tuple:  # the eager hot path records a tuple: no GC-tracked list per op
            self.inputs = list(self.inputs)


def _record_type():
    """``OpRecord``'s base: ``OpPlaced``'s fields, in its order, with its defaults (``inputs``: ``()``)."""
    names, defaults = [], []
    for f in fields(OpPlaced):
        names.append(f.name)
        if f.default is not MISSING:
            defaults.append(f.default)
        elif f.default_factory is not MISSING:
            defaults.append(())
    return namedtuple("OpRecord", names, defaults=defaults)


class OpRecord(_record_type()):
    """An executed op as the execution step records it (``runtime/execution.py`` and its C twin in
    ``runtime/_fastpath.c``): ``OpPlaced``'s fields, by name, in a tuple. A tuple costs a tenth of
    an object to build; holding only ints, strings and tuples, the C side makes it untracked by the
    cyclic collector (which never untracks a tuple subclass itself). ``OpPlaced`` declares the layout (this type is made from its
    fields); ``_fastpath.configure`` is handed ``OpRecord._fields`` and fills each field at the
    index named here; ``Trace.events`` and every reader see the record as its ``OpPlaced``."""

    __slots__ = ()
    kind = OpPlaced.kind

    def event(self) -> OpPlaced:
        return OpPlaced(*self)

    def completed(self, shape, dtype, duration_ns, mem_in_use=None) -> OpRecord:
        """This record (what was known before the kernel ran) with what the run adds."""
        return _new_tuple(OpRecord, self[:_RUN] + (shape, dtype, duration_ns, mem_in_use, self[_SRC]))


_new_tuple = tuple.__new__  # OpRecord from a tuple of its fields, without namedtuple's __new__ frame
_RUN = OpRecord._fields.index("shape")  # the fields the run adds: shape and the three after it
_SRC = OpRecord._fields.index("src")
assert OpRecord._fields[_RUN:] == ("shape", "dtype", "duration_ns", "mem_in_use", "src"), "OpRecord.completed"
NOT_RUN = tuple(OpRecord._field_defaults[name] for name in OpRecord._fields[_RUN:])
"""The run's fields before the kernel ran, and no ``src``: ``_NEW(OpRecord, (seq, …, inputs) + NOT_RUN)``
is a record of what is known then, made without namedtuple's ``__new__`` frame (``OpRecord(seq, …,
inputs)``); ``not_run(src)`` is the same tail with the op's ``src``."""


def not_run(src) -> tuple:
    """``NOT_RUN`` with ``src`` (the tail of a record whose source line is known)."""
    return NOT_RUN if src is None else NOT_RUN[:-1] + (src,)


@dataclass(slots=True, repr=False, eq=False)
class TensorCopied(Event):
    kind = "tensor_copied"
    seq: int  # the op whose input needed the copy
    op: str
    input_index: int
    src: str
    dst: str
    nbytes: int


@dataclass(slots=True, repr=False, eq=False)
class MemoryReserved(Event):
    """An allocator took memory from its device (a region, or the whole limit up front)."""

    kind = "memory_reserved"
    device: str
    allocator: str
    nbytes: int
    total_reserved: int


@dataclass(slots=True, repr=False, eq=False)
class MemoryStats(Event):
    """Per-device memory figures, recorded when a run ends (and after an OOM)."""

    kind = "memory_stats"
    device: str
    allocator: str
    limit: int | None
    reserved: int
    in_use: int
    peak: int
    num_allocs: int
    largest_alloc: int
    num_regions: int
    num_ooms: int
    policy: str  # preallocate | growth | limit | fraction | host
    # a real GPU's CuPy pool: the bytes CuPy holds for itself (FFT plans' work areas, workspaces), owned
    # by no tensor and not in ``in_use``, now and at most at once (temporaries included); None elsewhere
    cupy_own: int | None = None
    cupy_own_peak: int | None = None


@dataclass(slots=True, repr=False, eq=False)
class OOM(Event):
    kind = "oom"
    seq: int
    op: str
    device: str
    allocator: str
    nbytes: int
    shape: list
    dtype: str
    live: list = field(default_factory=list)  # [{"nbytes", "op", "shape", "dtype"}], largest first


@dataclass(slots=True, repr=False, eq=False)
class ConfigRejected(Event):
    kind = "config_rejected"
    call: str
    message: str


@dataclass(slots=True, repr=False, eq=False)
class Message(Event):
    """A log line the runtime would print (INFO:tensorflow: ... and warnings)."""

    kind = "message"
    level: str  # INFO | WARNING | ERROR
    text: str


@dataclass(slots=True, repr=False, eq=False)
class DeviceMapping(Event):
    """TF1 Session start: the ``Device mapping:`` block (only GPUs have descriptions)."""

    kind = "device_mapping"
    devices: list = field(default_factory=list)  # [[full name, description], ...]


@dataclass(slots=True, repr=False, eq=False)
class SessionRun(Event):
    """A TF1 ``Session.run`` call: recorded when it starts (``end`` false) and when it returns or
    raises (``end`` true). The events between are what that call did: the nodes it placed (the first
    call places the graph; a node placed by an earlier call has no event of its own) and the copies
    its nodes needed. ``ops`` (on the end record): how many nodes it executed."""

    kind = "session_run"
    session: int  # the session's number in the trace, from 1 (the order of the DeviceMapping events)
    index: int  # the call's number within its session, from 1
    end: bool = False
    ops: int = 0
    error: str | None = None  # the exception's class name when the call raised


@dataclass(slots=True, repr=False, eq=False)
class FunctionCall(Event):
    """A ``tf.function`` call: recorded when it starts (``end`` false) and when it returns or raises
    (``end`` true); the events between are the nodes it ran and the copies they needed."""

    kind = "function_call"
    function: str  # the traced graph's name, __inference_<python name>_<uid>
    index: int  # the call's number for this traced graph, from 1
    end: bool = False
    ops: int = 0
    error: str | None = None


@dataclass(slots=True, repr=False, eq=False)
class ThreadSwitched(Event):
    """The records after this one come from another of the program's threads (``runtime/threads.py``).
    A trace starts on ``thread`` 0, the main thread; the others are numbered from 1 in the order
    they first used the runtime. In JSONL, each ``op_placed`` line of a thread other than 0 also carries
    ``"thread": N``."""

    kind = "thread"
    thread: int
    name: str  # the thread's name (threading.Thread.name)


@dataclass(slots=True, repr=False, eq=False)
class KernelGraph(Event):
    """The one-op function TensorFlow builds the first time an op signature runs eagerly, as its
    placer placed it (``_Arg`` nodes, the op, ``_Retval`` nodes): heard by the live placement log
    only, never recorded (the trace holds the op's ``OpPlaced``)."""

    kind = "kernel_graph"
    nodes: list = field(default_factory=list)  # [(node name, op type, full device name), ...]


# Bytes per element of each dtype name a trace can hold (imported TensorFlow logs included).
DTYPE_SIZES = {
    "bool": 1, "int8": 1, "uint8": 1, "qint8": 1, "quint8": 1, "float8_e4m3fn": 1, "float8_e5m2": 1,
    "int16": 2, "uint16": 2, "float16": 2, "bfloat16": 2, "half": 2,
    "int32": 4, "uint32": 4, "float32": 4, "float": 4, "qint32": 4,
    "int64": 8, "uint64": 8, "float64": 8, "double": 8, "complex64": 8, "complex128": 16,
}


def output_bytes(shape, dtype):
    """Bytes of an op's output from its shape and dtype; None when either is unknown."""
    size = DTYPE_SIZES.get(dtype) if dtype else None
    if size is None or shape is None:
        return None
    n = size
    for d in shape:
        if not isinstance(d, int) or d < 0:
            return None
        n *= d
    return n


EVENT_TYPES = {
    cls.kind: cls
    for cls in (TraceStart, TraceEnd, TraceLimited, DeviceCreated, OpPlaced, TensorCopied, MemoryReserved, MemoryStats,
                OOM, ConfigRejected, Message, DeviceMapping, SessionRun, FunctionCall, ThreadSwitched)
}


def to_dict(event) -> dict:
    d = {"event": event.kind}
    for f in fields(event):
        d[f.name] = getattr(event, f.name)
    if d.get("src", "") is None and d["event"] == "op_placed":  # an op's src is written only when known
        del d["src"]
    return d


def from_dict(d: dict):
    """Inverse of ``to_dict``; raises ``KeyError``/``TypeError`` on a malformed record."""
    cls = EVENT_TYPES[d["event"]]
    kwargs = {k: v for k, v in d.items() if k != "event" and k != "schema"}
    return cls(**kwargs)


class Trace:
    """An append-only list of events with listeners (e.g. the live placement log).

    The execution step records each op it ran as an ``OpRecord`` (``append``: the one way into the
    trace's buffer besides ``emit``, and what ``_fastpath.c`` does in C to the same list);
    ``events`` turns the records into ``OpPlaced`` objects when read.

    Listeners: ``message_listeners`` hear only ``Message`` events (warnings print whether or not
    the placement log is on); ``placement_listeners`` hear every event, but only while placement
    logging is on — ``listeners`` is the active list, usually empty, so the per-op path checks
    one list. ``graph_mode`` is true while a TF1 session's event is emitted (it logs as TF1 does),
    ``printf`` while a function body's node placement is (TensorFlow also prints those on stdout).

    Streaming (``stream``: an object with ``write(events)``): ``flush`` hands it every event but the
    last ``KEEP`` and forgets them, so memory stays bounded; ``events`` then holds only what was
    not flushed yet. Without a stream (a plain ``python prog.py``: nothing will read the trace
    back) ``flush`` forgets all but the last ``KEEP`` once more than ``UNSTREAMED`` events have piled up. The
    eager executor flushes every ``FLUSH_EVERY`` ops, a session run or
    function call when it ends — never while one is in progress (``holds``): its events are
    completed as it runs.
    """

    __slots__ = ("_events", "_done", "listeners", "placement_listeners", "message_listeners", "_seq",
                 "graph_mode", "printf", "stream", "holds", "mappings", "last_oom")

    KEEP = 64  # events kept on a flush: the ops before the next one may still be read (list arguments)
    FLUSH_EVERY = 4096  # a power of two: the executor tests ``seq & (FLUSH_EVERY - 1)``
    UNSTREAMED = 0  # events kept beyond the last KEEP when nothing streams them (records freed young cost less)

    def __init__(self):
        self._events: list = []
        self._done = 0  # everything before this index is an event object
        self.listeners: list = []
        self.placement_listeners: list = []
        self.message_listeners: list = []
        self._seq = 0
        self.graph_mode = False
        self.printf = False
        self.stream = None
        self.holds = 0  # session runs and function calls in progress
        self.mappings = 0  # DeviceMapping events so far (a session's number)
        self.last_oom = None

    @property
    def events(self) -> list:
        records = self._events
        for i in range(self._done, len(records)):
            if type(records[i]) is OpRecord:
                records[i] = OpPlaced(*records[i])
        self._done = len(records)
        return records

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def append(self, record) -> None:
        """Record ``record`` (an ``OpRecord``, or an event nobody listens to) as it is."""
        self._events.append(record)

    def drop_last(self, cls) -> bool:
        """Forget the latest record when it is a ``cls`` (a marker nothing followed); whether it was."""
        records = self._events
        if records and type(records[-1]) is cls:
            records.pop()
            return True
        return False

    def recent(self):
        """The records still held, the latest first."""
        return reversed(self._events)

    def announce(self, event) -> None:
        """Hand ``event`` to the placement listeners without recording it."""
        for listener in self.listeners:
            listener(event)

    def emit(self, event) -> None:
        self._events.append(event)
        for listener in self.listeners:
            listener(event)
        kind = event.kind
        if kind in _NOTED:
            self._note(event, kind)

    def _note(self, event, kind) -> None:
        if kind == "message":
            for listener in self.message_listeners:
                listener(event)
        elif kind == "device_mapping":
            self.mappings += 1
        elif kind == "oom":
            self.last_oom = event
        elif not event.end:
            self.holds += 1
        else:
            self.holds -= 1
            if len(self._events) >= self.FLUSH_EVERY:
                self.flush()

    def flush(self, final: bool = False) -> None:
        """Hand the stream what is complete (everything, when ``final``)."""
        stream = self.stream
        if self.holds and not final:
            return
        records = self._events  # OpRecords as they are: the stream writes them without making objects
        if stream is None:
            if len(records) > self.UNSTREAMED:
                self._forget(len(records) - self.KEEP)
            return
        cut = len(records) if final else len(records) - self.KEEP
        if cut <= 0:
            return
        from ..util import interrupts
        from ..util.runlock import LOCK

        with LOCK, interrupts.deferred():  # a signal waits: the batch is written and forgotten, or neither;
            # another thread's ops wait too (runtime/threads.py): batches are whole and in seq order
            records = self._events
            cut = len(records) if final else len(records) - self.KEEP
            if cut <= 0:
                return
            stream.write(records[:cut])
            self._forget(cut)
        if not final and getattr(stream, "gone", False):  # `--format jsonl | head`: the reader left, the program stops
            stream.gone = False
            raise interrupts.ReaderGone

    def _forget(self, cut: int) -> None:
        self._events = self._events[cut:]
        self._done = max(0, self._done - cut)

    def set_placement_logging(self, enabled: bool) -> None:
        self.listeners = list(self.placement_listeners) if enabled else []

    def emit_graph(self, event, log: bool = False) -> None:
        """Record a TF1 session's event; ``log`` (the session's ``log_device_placement``) sends it to
        the placement listeners even when process-wide placement logging is off."""
        self.graph_mode = True
        try:
            self.emit(event)
            if log and not self.listeners:
                for listener in self.placement_listeners:
                    listener(event)
        finally:
            self.graph_mode = False

    def emit_placer(self, event) -> None:
        """Record the placement of a function body's node (logged as TensorFlow's placer logs it)."""
        self.graph_mode = self.printf = True
        try:
            self.emit(event)
        finally:
            self.graph_mode = self.printf = False

    def of(self, cls) -> list:
        return [e for e in self.events if isinstance(e, cls)]


_NOTED = frozenset(("message", "device_mapping", "oom", "session_run", "function_call"))
