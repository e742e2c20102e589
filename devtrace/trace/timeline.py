"""The device timeline of a trace, built one event at a time (shared by the Trace Event Format
writer, ``render_timeline``, and the HTML report, ``render_html``).

Traces carry no wall-clock timestamps: the host runs ops one after another, so an op starts
when the previous one ended. ``measured`` layout gives each op its measured kernel time on the
host (simulated GPUs too; at least ``MIN_NS`` so every op stays visible; graph-mode and imported
ops have no measured time), ``sequence`` layout gives every op and copy one unit.

``Timeline`` keeps O(1) state per op (a few compact arrays indexed by seq) and passes each
drawable thing to a sink as soon as it is known, so that a writer can stream. Past
``full_ops`` ops it writes one op in ``sample_every`` (and the copies of the ops it writes);
counts, bytes and memory figures stay exact and ``meta()`` says how the ops were sampled.

Traces are read one line at a time (``jsonl.iter_read``) and written atomically
(``output.AtomicOutput``).
"""

from __future__ import annotations

from array import array

from .events import SCHEMA, output_bytes
from .limit import limited_note
from .render_table import device_sort_key, short_device

MEASURED = "measured"
SEQUENCE = "sequence"
LAYOUTS = (MEASURED, SEQUENCE)
MIN_NS = 1000  # an op shorter than 1 µs (or not measured) is drawn 1 µs long
COPY_NS = 1000  # copies are not timed: each is drawn 1 µs long
MAX_MESSAGES = 1000
# what an op's time on a real GPU is, by how the run timed it (TraceStart.gpu_times)
_GPU_TIMES = {
    "cuda-events": "; on real GPUs (CuPy) an op's time is the GPU's own, between CUDA events recorded around "
                   "its kernels (devtrace waited for each op's kernels while it recorded the trace)",
    "launch": "; on real GPUs (CuPy) an op's time is the host's launch of its kernels, which CuPy runs "
              "asynchronously: not the GPU's time",
}

class Track:
    """One logical device: a row of the timeline."""

    __slots__ = ("index", "name", "short", "device_type", "group", "physical_index", "description",
                 "simulated", "limit", "reserved", "in_use", "peak", "ops", "copies_in", "bytes_in",
                 "stats")

    def __init__(self, index, name, group):
        self.index = index
        self.name = name
        self.short = short_device(name)
        self.device_type = _device_type(name)
        self.group = group
        self.physical_index = None
        self.description = ""
        self.simulated = False
        self.limit = None
        self.reserved = 0
        self.in_use = 0
        self.peak = 0
        self.ops = 0
        self.copies_in = 0
        self.bytes_in = 0
        self.stats = None  # the last MemoryStats, as a dict

    def memory(self) -> dict:
        """Memory figures known now (bytes); ``limit`` only for devices that have one."""
        d = {"in_use": self.in_use, "reserved": self.reserved, "peak": self.peak}
        if self.limit is not None:
            d["limit"] = self.limit
        return d


class Group:
    """A physical device (or the host): the tracks that share it."""

    __slots__ = ("index", "key", "label", "sort_key", "tracks")

    def __init__(self, index, key, label, sort_key):
        self.index = index
        self.key = key
        self.label = label
        self.sort_key = sort_key
        self.tracks: list = []


def _device_type(name: str) -> str:
    tail = name.rsplit("/", 1)[-1]
    if tail.startswith("device:"):
        tail = tail[len("device:"):]
    return tail.split(":", 1)[0].upper() or "?"


def _model_name(description: str) -> str:
    """``devtrace Simulated GPU`` from ``device: 0, name: devtrace Simulated GPU, pci bus id: …``."""
    for part in (description or "").split(", "):
        if part.startswith("name: "):
            return part[len("name: "):]
    return ""


def _host_of(name: str) -> str:
    """``/job:localhost/replica:0/task:0`` of a full device name ('' when it has none)."""
    head, _, _tail = name.rpartition("/")
    return head if head.startswith("/job:") else ""


def copy_name(src_type: str, dst_type: str) -> str:
    """TensorFlow's profiler names: MemcpyHtoD, MemcpyDtoH, MemcpyDtoD (H = the host CPU)."""
    def side(t):
        return "H" if t == "CPU" else "D"
    return f"Memcpy{side(src_type)}to{side(dst_type)}"


class Timeline:
    """Feed events in trace order; the sink hears about tracks, ops, copies, counters, instants
    and sessions as soon as they are placed in time. ``ts``/``dur`` are in ns (measured layout)
    or steps (sequence layout); ``unit_ns`` says which."""

    def __init__(self, sink, layout: str = MEASURED, full_ops: int = 100_000, sample_every: int = 100):
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}")
        self.sink = sink
        self.layout = layout
        self.full_ops = max(0, int(full_ops))
        self.sample_every = max(1, int(sample_every))
        self.clock = 0
        self.start = {"mode": None, "source": None, "program": None, "backend": None, "gpu_times": None}
        self.groups: dict = {}
        self.tracks: dict = {}
        self.track_list: list = []
        self.ops = self.ops_written = 0
        self.copies = self.copies_written = self.copy_bytes = 0
        self.ooms = 0
        self.messages = 0
        self.reasons: dict = {}
        self.fallback_ops: dict = {}
        self.records = 0
        self.sampling_from = None  # seq of the first op past full_ops
        self.limited = None  # a --trace-limit trace's (limit, ops left out)
        # per seq (dense arrays; a dict for seqs far out of range)
        self._ts = array("d")
        self._dur = array("d")
        self._track = array("i")
        self._opname = array("i")
        self._written = bytearray()
        self._far: dict = {}
        self._names: list = []
        self._name_ids: dict = {}
        self._graph_inputs: dict = {}  # seq -> inputs, for graph-mode ops (their copies come later)
        self._graph = False
        self._pending: dict = {}  # seq -> [(copy event, ts, dur)]: eager copies wait for their op
        self._session = None  # (index, start, ops)
        self._sessions = 0
        self._run = None  # the Session.run call under way: (session, index, start, ops before it)
        self.runs = 0
        self._calls: list = []  # tf.function calls under way (nested calls nest): (function, index, start, ops)
        self.function_calls = 0
        self._flow = 0
        self.thread = 0  # the program's thread the current records come from (ThreadSwitched)
        self.threads: dict = {0: ["MainThread", 0]}  # number -> [name, ops]

    # -- tracks --------------------------------------------------------------------------------
    def track(self, name: str) -> Track:
        t = self.tracks.get(name)
        if t is None:
            t = self._new_track(name, None)
        return t

    def _new_track(self, name, physical_index, description="", simulated=False, limit=None) -> Track:
        dtype = _device_type(name)
        host = _host_of(name)
        if dtype == "GPU" and physical_index is not None:
            key = (host, "GPU", physical_index)
            label = f"GPU {physical_index} (physical)"
            sort = (device_sort_key(name)[:4], 1, physical_index)
        elif dtype == "CPU":
            key = (host, "host")
            label = "host" + (f" {host}" if host and host != "/job:localhost/replica:0/task:0" else "")
            sort = (device_sort_key(name)[:4], 0, 0)
        else:  # a GPU without a known physical device, or another type: a group of its own
            key = (host, "device", name)
            label = short_device(name)
            sort = (device_sort_key(name)[:4], 2, device_sort_key(name))
        g = self.groups.get(key)
        if g is None:
            if dtype == "GPU" and physical_index is not None:
                model = _model_name(description)
                label += (f": {model}" if model else "") + (" (simulated)" if simulated else "")
            g = self.groups[key] = Group(len(self.groups), key, label, sort)
            self.sink.group(g)
        t = self.tracks[name] = Track(len(self.track_list), name, g)
        t.physical_index = physical_index
        t.description, t.simulated, t.limit = description or "", simulated, limit
        g.tracks.append(t)
        self.track_list.append(t)
        self.sink.track(t)
        return t

    def host_track(self) -> Track:
        """The host CPU's track (for messages and sessions): the first CPU device seen, or one made up."""
        for t in self.track_list:
            if t.device_type == "CPU":
                return t
        return self.track("/job:localhost/replica:0/task:0/device:CPU:0")

    # -- per-seq storage -----------------------------------------------------------------------
    def _store(self, seq, ts, dur, track, name_id) -> None:
        n = len(self._ts)
        if 0 <= seq < n:
            self._ts[seq], self._dur[seq], self._track[seq], self._opname[seq] = ts, dur, track, name_id
        elif n <= seq <= 2 * n + 65536:
            grow = seq + 1 - n
            self._ts.extend(array("d", bytes(8 * grow)))
            self._dur.extend(array("d", bytes(8 * grow)))
            self._track.extend(array("i", [-1]) * grow)
            self._opname.extend(array("i", bytes(4 * grow)))
            self._written.extend(bytes(grow))
            self._ts[seq], self._dur[seq], self._track[seq], self._opname[seq] = ts, dur, track, name_id
        else:
            self._far[seq] = [ts, dur, track, name_id, 0]

    def _lookup(self, seq):
        """(ts, dur, track index, op name) of an op seen before, or None."""
        if isinstance(seq, int) and 0 <= seq < len(self._ts) and self._track[seq] >= 0:
            return self._ts[seq], self._dur[seq], self._track[seq], self._names[self._opname[seq]]
        far = self._far.get(seq)
        if far is not None:
            return far[0], far[1], far[2], self._names[far[3]]
        return None

    def _is_written(self, seq) -> bool:
        if 0 <= seq < len(self._written):
            return bool(self._written[seq])
        far = self._far.get(seq)
        return bool(far and far[4])

    def _mark_written(self, seq) -> None:
        if 0 <= seq < len(self._written):
            self._written[seq] = 1
        elif seq in self._far:
            self._far[seq][4] = 1

    def _name_id(self, name) -> int:
        i = self._name_ids.get(name)
        if i is None:
            i = self._name_ids[name] = len(self._names)
            self._names.append(name)
        return i

    # -- time ----------------------------------------------------------------------------------
    def _op_dur(self, duration_ns) -> float:
        if self.layout == SEQUENCE:
            return 1
        return max(int(duration_ns or 0), MIN_NS)

    def _copy_dur(self) -> float:
        return 1 if self.layout == SEQUENCE else COPY_NS

    @property
    def unit_ns(self):
        return None if self.layout == SEQUENCE else 1

    # -- events --------------------------------------------------------------------------------
    def feed(self, e) -> None:
        self.records += 1
        kind = e.kind
        if kind == "op_placed":
            self._op(e)
        elif kind == "tensor_copied":
            self._copy(e)
        elif kind == "memory_reserved":
            t = self.track(e.device)
            t.reserved = e.total_reserved
            self.sink.counter(t, self.clock, t.memory())
        elif kind == "memory_stats":
            t = self.track(e.device)
            t.limit = e.limit if e.limit is not None else t.limit
            t.reserved, t.in_use, t.peak = e.reserved, e.in_use, max(t.peak, e.peak)
            t.stats = {"in_use": e.in_use, "peak": e.peak, "reserved": e.reserved, "limit": e.limit,
                       "num_allocs": e.num_allocs, "largest_alloc": e.largest_alloc,
                       "num_ooms": e.num_ooms, "policy": e.policy, "allocator": e.allocator}
            if e.cupy_own is not None:  # a real GPU: CuPy's own pool bytes, apart from the tensors'
                t.stats.update(cupy_own=e.cupy_own, cupy_own_peak=e.cupy_own_peak)
            self.sink.counter(t, self.clock, t.memory())
        elif kind == "device_created":
            t = self.tracks.get(e.name)
            if t is None:
                t = self._new_track(e.name, e.physical_index, e.description, bool(e.simulated), e.memory_limit)
            else:
                t.description = e.description or t.description
                t.simulated = bool(e.simulated)
                t.limit = e.memory_limit
            self.sink.counter(t, self.clock, t.memory())
        elif kind == "oom":
            self.ooms += 1
            t = self.track(e.device)
            live = sum(a.get("nbytes", 0) for a in e.live if isinstance(a, dict))
            t.in_use = live
            t.peak = max(t.peak, live)
            self.sink.oom(t, self.clock, e, live)
            self.sink.counter(t, self.clock, t.memory())
        elif kind == "message":
            self.messages += 1
            if self.messages <= MAX_MESSAGES:
                self.sink.message(self.host_track(), self.clock, e)
        elif kind == "device_mapping":
            self._graph = True
            self._end_session()
            self._sessions += 1
            for name, description in e.devices:
                t = self.tracks.get(name)
                if t is not None and description and not t.description:
                    t.description = description
            self._session = [self._sessions, self.clock, 0]
        elif kind == "session_run":
            self._session_run(e)
        elif kind == "function_call":
            self._function_call(e)
        elif kind == "trace_limited":  # the ops --trace-limit left out: counted, never drawn
            self.limited = (e.limit, e.ops)
            self.ops += e.ops
            self.copies, self.copy_bytes = self.copies + e.copies, self.copy_bytes + e.copy_bytes
            for op, device, n, fallbacks in e.op_types:
                self.track(device).ops += n
                if fallbacks:
                    self.fallback_ops[op] = self.fallback_ops.get(op, 0) + fallbacks
        elif kind == "thread":
            self.thread = e.thread
            self.threads.setdefault(e.thread, [e.name, 0])[0] = e.name
            self.sink.thread(e.thread, e.name)
        elif kind == "trace_start":
            self.start = {"mode": e.mode, "source": e.source, "program": e.program, "backend": e.backend,
                          "gpu_times": e.gpu_times}
            if e.mode == "graph":
                self._graph = True

    def _op(self, e) -> None:
        self.ops += 1
        self.threads[self.thread][1] += 1
        seq = e.seq
        t = self.track(e.device)
        t.ops += 1
        self.reasons[e.reason] = self.reasons.get(e.reason, 0) + 1
        if e.reason == "fallback:no-GPU-kernel":
            self.fallback_ops[e.op] = self.fallback_ops.get(e.op, 0) + 1
        ts = self.clock
        dur = self._op_dur(e.duration_ns)
        self.clock += dur
        self._store(seq, ts, dur, t.index, self._name_id(e.op))
        self.sink.every_op(t, ts, dur, e.op)
        if self._session is not None:
            self._session[2] += 1
        if self.ops <= self.full_ops:
            write = True
        else:
            if self.sampling_from is None:
                self.sampling_from = seq
                self.sink.sampling_started(self.host_track(), ts, self.full_ops, self.sample_every)
            write = (self.ops - self.full_ops) % self.sample_every == 0
        mem = e.mem_in_use
        if mem is not None and mem != t.in_use:
            t.in_use = mem
            if mem > t.peak:
                t.peak = mem
        else:
            mem = None
        if write:
            self._mark_written(seq)
            self.sink.op(t, ts, dur, e, output_bytes(e.shape, e.dtype))
            if self.sampling_from is not None:
                self.sink.op_counter(t, ts)
            if mem is not None or self.sampling_from is not None and e.mem_in_use is not None:
                self.sink.counter(t, self.clock, t.memory())  # in use once the output was accounted
        if self._graph and e.inputs:
            self._graph_inputs[seq] = e.inputs
        pending = self._pending.pop(seq, None) if self._pending else None
        if pending:
            for c, cts, cdur, totals in pending:
                self._place_copy(c, cts, cdur, totals, e.inputs, (ts, dur, t), write)

    def _copy(self, c) -> None:
        self.copies += 1
        self.copy_bytes += c.nbytes
        dst = self.track(c.dst)
        dst.copies_in += 1
        dst.bytes_in += c.nbytes
        ts = self.clock
        dur = self._copy_dur()
        self.clock += dur
        totals = (dst.copies_in, dst.bytes_in)
        self.sink.every_copy(self.track(c.src), dst, ts, dur, c.nbytes)
        consumer = self._lookup(c.seq)
        if consumer is None:  # eager: the op that needs the copy comes next
            self._pending.setdefault(c.seq, []).append((c, ts, dur, totals))
            return
        # graph mode: the op was placed before the session ran it
        inputs = self._graph_inputs.get(c.seq, ())
        self._place_copy(c, ts, dur, totals, inputs, None, self._is_written(c.seq))

    def _place_copy(self, c, ts, dur, totals, inputs, consumer, write) -> None:
        """Hand a copy to the sink with its producer (drawing a sampled-out producer late);
        ``totals``: the destination's exact (copies, bytes) copied in so far."""
        if not write:
            return
        self.copies_written += 1
        src = self.track(c.src)
        dst = self.track(c.dst)
        producer_seq = inputs[c.input_index] if 0 <= c.input_index < len(inputs) else None
        producer = self._lookup(producer_seq) if producer_seq else None
        if producer is not None:
            pts, pdur, ptrack, pname = producer
            ptrack = self.track_list[ptrack]
            if not self._is_written(producer_seq):
                self._mark_written(producer_seq)
                self.sink.late_op(ptrack, pts, pdur, producer_seq, pname)
            producer = (producer_seq, pts, pdur, ptrack)
        self._flow += 1
        self.sink.copy(src, dst, ts, dur, c, producer, consumer, self._flow)
        self.sink.copy_counter(dst, ts, *totals)

    def _session_run(self, e) -> None:
        """A TF1 ``Session.run`` call: a slice from its start record to its end record."""
        if not e.end:
            self._run = (e.session, e.index, self.clock, self.ops)
            return
        run, self._run = self._run, None
        if run is None or run[:2] != (e.session, e.index):  # an end without its start
            run = (e.session, e.index, self.clock, self.ops)
        if self.clock == run[2]:  # it placed nothing and copied nothing: still a visible slice
            self.clock += self._copy_dur()
        self.runs += 1
        if self.sampling_from is None or self.runs % self.sample_every == 0:
            self.sink.session_run(self.host_track(), e, run[2], self.clock - run[2], self.ops - run[3])

    def _function_call(self, e) -> None:
        """A ``tf.function`` call: a slice from its start record to its end record."""
        if not e.end:
            self._calls.append((e.function, e.index, self.clock, self.ops))
            return
        call = self._calls.pop() if self._calls and self._calls[-1][:2] == (e.function, e.index) else \
            (e.function, e.index, self.clock, self.ops)
        if self.clock == call[2]:
            self.clock += self._copy_dur()
        self.function_calls += 1
        if self.sampling_from is None or self.function_calls % self.sample_every == 0:
            self.sink.function_call(self.host_track(), e, call[2], self.clock - call[2])

    def _end_session(self) -> None:
        if self._session is not None:
            index, start, ops = self._session
            self.sink.session(self.host_track(), index, start, self.clock - start, ops)
            self._session = None

    def finish(self) -> None:
        for seq, copies in list(self._pending.items()):  # copies whose op never came (it failed)
            for c, ts, dur, totals in copies:
                self._place_copy(c, ts, dur, totals, (), None, True)
        self._pending.clear()
        self._end_session()

    # -- summary -------------------------------------------------------------------------------
    def ordered_tracks(self) -> list:
        return sorted(self.track_list, key=lambda t: (t.group.sort_key, device_sort_key(t.name)))

    def meta(self) -> dict:
        """What the output says about itself: source, layout, time base, exact totals, sampling."""
        sampled = self.sampling_from is not None
        if self.layout == SEQUENCE:
            time = "sequence layout: ops and copies in trace order, one step each (1 step = 1 µs on the time axis)"
        else:
            time = ("measured kernel time of each op on the host (for simulated GPUs too: the NumPy kernel's "
                    f"time); ops laid end to end in trace order, each at least {MIN_NS // 1000} µs; copies are "
                    f"not timed and drawn {COPY_NS // 1000} µs long; imported ops have no measured time")
            time += _GPU_TIMES.get(self.start["gpu_times"], "")
        return {
            "generator": "devtrace",
            "trace_schema": SCHEMA,
            "program": self.start["program"],
            "mode": self.start["mode"],
            "source": self.start["source"],
            "backend": self.start["backend"],
            "layout": self.layout,
            "time": time,
            "ops": self.ops,
            "ops_written": self._count_written(),
            "copies": self.copies,
            "copies_written": self.copies_written,
            "copy_bytes": self.copy_bytes,
            "ooms": self.ooms,
            "session_runs": self.runs,
            "function_calls": self.function_calls,
            "messages": self.messages,
            "reasons": dict(sorted(self.reasons.items())),
            "fallback_ops": dict(sorted(self.fallback_ops.items())),
            # the program's threads that ran ops, once one besides the main thread did (runtime/threads.py)
            "threads": [{"thread": n, "name": name, "ops": ops} for n, (name, ops) in sorted(self.threads.items())
                        if ops] if len(self.threads) > 1 else [],
            "sampled": sampled,
            "limited": None if self.limited is None else limited_note(*self.limited),
            "sampling": (f"ops 1 to {self.full_ops} in full, then 1 op in {self.sample_every} (and the copies of "
                         f"the ops written, with their producers); counts, bytes and memory counters are exact"
                         if sampled else "none: every op and copy is written"),
            "devices": [{"name": t.name, "short": t.short, "type": t.device_type, "group": t.group.label,
                         "physical_index": t.physical_index, "simulated": t.simulated,
                         "description": t.description, "ops": t.ops, "copies_in": t.copies_in,
                         "bytes_in": t.bytes_in, "memory": t.stats} for t in self.ordered_tracks()],
        }

    def _count_written(self) -> int:
        return self._written.count(1) + sum(1 for v in self._far.values() if v[4])

    def empty(self) -> bool:
        return not self.track_list and self.ops == 0
