"""A trace as Chrome's Trace Event Format: the JSON that Perfetto (ui.perfetto.dev, "Open trace
file") and chrome://tracing open.

The file is one JSON object, ``{"traceEvents": [...], "displayTimeUnit": "ns", "otherData":
{...}}``, written as the events stream in (``write``):

- a process (``pid``) per physical device — the host CPU is one, each physical GPU another, so
  virtual GPUs visibly share a card — and a thread (``tid``) per logical device; their names and
  order come from metadata events (``ph: "M"``: ``process_name``, ``process_sort_index``,
  ``thread_name``, ``thread_sort_index``);
- each op a complete event (``ph: "X"``, ``ts``/``dur`` in µs) named by its TensorFlow op type,
  ``args``: seq, node, requested, device, reason, shape, dtype, bytes, inputs (and duration_ns);
- each cross-device copy a complete event (``MemcpyHtoD``/``DtoH``/``DtoD``, cat ``copy``) on the
  destination device's track, and a flow arrow (``ph: "s"`` on the producer, ``ph: "f"`` with
  ``bp: "e"`` on the consumer, same ``id``) named by its size;
- per-device memory counters (``ph: "C"``, ``memory <device>``: in_use, reserved, peak, limit in
  bytes) — in use after every op that changed it (each op records it), at each region reserved,
  at an OOM and at the end — and once ops are sampled, exact running totals (``ops <device>``,
  ``copied in <device>``) and the memory counters at the ops drawn;
- an OOM as an instant event (``ph: "i"``) on its device with the live allocations; a TF1
  ``Session`` as a slice enclosing the ops it placed and ran, and log messages as instants, on the
  host's ``sessions & log`` track; each ``Session.run`` call as a slice on the host's
  ``Session.run`` track, from the call's start to its end (the nodes it placed and the copies it
  made fall inside; a node placed by an earlier call is drawn where it was placed);
- ``otherData``: the program, how times were obtained, exact totals, and how ops were sampled.
"""

from __future__ import annotations

import json

from ..output import format_bytes
from .sink import BufferedSink
from .timeline import MEASURED, SEQUENCE, Timeline, copy_name

HOST_TID = 1_000_000  # the host's "sessions & log" track
RUN_TID = 1_000_001  # the host's "Session.run" track
FUNCTION_TID = 1_000_002  # the host's "tf.function" track
LIVE_SHOWN = 20  # largest live allocations listed on an OOM


class TraceEventWriter(BufferedSink):
    def __init__(self, out, layout):
        super().__init__(out, json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode)
        if layout == SEQUENCE:
            self.t = lambda v: v
        else:
            self.t = lambda ns: round(ns / 1000, 3)
        self.host_track_named = set()
        self.run_track_named = set()
        self.function_track_named = set()
        self.thread_name = None  # set once the trace names a thread (ThreadSwitched)

    # -- sink ----------------------------------------------------------------------------------
    @staticmethod
    def pid(t) -> int:
        return t.group.index + 1

    @staticmethod
    def tid(t) -> int:
        return t.index + 1

    def group(self, g):
        pid = g.index + 1
        self.emit({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": g.label}})
        self.emit({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0,
                   "args": {"sort_index": _rank(g.sort_key)}})

    def track(self, t):
        pid, tid = self.pid(t), self.tid(t)
        self.emit({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": t.short}})
        self.emit({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid, "args": {"sort_index": tid}})

    def _host(self, t):
        pid = self.pid(t)
        if pid not in self.host_track_named:
            self.host_track_named.add(pid)
            self.emit({"ph": "M", "name": "thread_name", "pid": pid, "tid": HOST_TID,
                       "args": {"name": "sessions & log"}})
            self.emit({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": HOST_TID,
                       "args": {"sort_index": HOST_TID}})
        return pid

    def op(self, t, ts, dur, e, nbytes):
        args = {"seq": e.seq, "node": e.node, "requested": e.requested, "device": t.name, "reason": e.reason,
                "shape": e.shape, "dtype": e.dtype, "bytes": nbytes, "inputs": e.inputs}
        if e.duration_ns:
            args["duration_ns"] = e.duration_ns
        if e.src is not None:
            args["src"] = e.src
        if self.thread_name is not None:
            args["thread"] = self.thread_name
        self.emit({"ph": "X", "cat": "op", "name": e.op, "ts": self.t(ts), "dur": self.t(dur),
                   "pid": self.pid(t), "tid": self.tid(t), "args": args})

    def thread(self, number, name):
        """The program's thread the next ops come from: named in each op's args once a program
        ran ops from more than one thread."""
        self.thread_name = name

    def late_op(self, t, ts, dur, seq, name):
        self.emit({"ph": "X", "cat": "op", "name": name, "ts": self.t(ts), "dur": self.t(dur),
                   "pid": self.pid(t), "tid": self.tid(t),
                   "args": {"seq": seq, "device": t.name,
                            "sampled": "written although sampled out: a copy reads its output"}})

    def copy(self, src, dst, ts, dur, c, producer, consumer, flow_id):
        label = f"{format_bytes(c.nbytes)} {src.short} → {dst.short}"
        pid, tid = self.pid(dst), self.tid(dst)
        self.emit({"ph": "X", "cat": "copy", "name": copy_name(src.device_type, dst.device_type),
                   "ts": self.t(ts), "dur": self.t(dur), "pid": pid, "tid": tid,
                   "args": {"bytes": c.nbytes, "src": c.src, "dst": c.dst, "for_seq": c.seq, "for_op": c.op,
                            "input_index": c.input_index,
                            "producer_seq": producer[0] if producer else None}})
        if producer is None:
            return
        _, pts, pdur, ptrack = producer
        self.emit({"ph": "s", "cat": "copy", "name": label, "id": flow_id, "ts": self.t(pts + pdur / 2),
                   "pid": self.pid(ptrack), "tid": self.tid(ptrack)})
        if consumer is not None:  # eager: the arrow ends on the op that needed the copy
            cts, cdur, _ = consumer
            end = cts + cdur / 2
        else:  # graph mode: the op was drawn when placed; the arrow ends on the copy
            end = ts + dur / 2
        self.emit({"ph": "f", "bp": "e", "cat": "copy", "name": label, "id": flow_id, "ts": self.t(end),
                   "pid": pid, "tid": tid})

    def counter(self, t, ts, values):
        self.emit({"ph": "C", "name": f"memory {t.short}", "pid": self.pid(t), "ts": self.t(ts), "args": values})

    def op_counter(self, t, ts):
        self.emit({"ph": "C", "name": f"ops {t.short}", "pid": self.pid(t), "ts": self.t(ts), "args": {"ops": t.ops}})

    def copy_counter(self, t, ts, copies, nbytes):
        self.emit({"ph": "C", "name": f"copied in {t.short}", "pid": self.pid(t), "ts": self.t(ts),
                   "args": {"copies": copies, "bytes": nbytes}})

    def oom(self, t, ts, e, live_bytes):
        self.emit({"ph": "i", "s": "t", "cat": "oom", "name": f"OOM: {e.op} asked for {format_bytes(e.nbytes)}",
                   "ts": self.t(ts), "pid": self.pid(t), "tid": self.tid(t),
                   "args": {"seq": e.seq, "op": e.op, "bytes": e.nbytes, "shape": e.shape, "dtype": e.dtype,
                            "allocator": e.allocator, "live_bytes": live_bytes, "live_count": len(e.live),
                            "live": e.live[:LIVE_SHOWN]}})

    def message(self, t, ts, e):
        pid = self._host(t)
        first = (e.text.splitlines() or [""])[0]
        self.emit({"ph": "i", "s": "t", "cat": "log", "name": f"{e.level}: {first[:100]}", "ts": self.t(ts),
                   "pid": pid, "tid": HOST_TID, "args": {"level": e.level, "text": e.text}})

    def session(self, t, index, ts, dur, ops):
        pid = self._host(t)
        self.emit({"ph": "X", "cat": "session", "name": f"tf.compat.v1.Session #{index}", "ts": self.t(ts),
                   "dur": self.t(dur), "pid": pid, "tid": HOST_TID,
                   "args": {"ops": ops, "note": "the ops this session placed and ran; Session.run calls, when "
                                                "the trace records them, are slices on the Session.run track"}})

    def session_run(self, t, e, ts, dur, placed):
        pid = self.pid(t)
        if pid not in self.run_track_named:
            self.run_track_named.add(pid)
            self.emit({"ph": "M", "name": "thread_name", "pid": pid, "tid": RUN_TID, "args": {"name": "Session.run"}})
            self.emit({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": RUN_TID,
                       "args": {"sort_index": RUN_TID}})
        args = {"session": e.session, "call": e.index, "ops_executed": e.ops, "ops_placed": placed}
        if e.error:
            args["error"] = e.error
        self.emit({"ph": "X", "cat": "session_run", "name": f"Session.run #{e.index}" + (
                   f" (session {e.session})" if e.session > 1 else ""), "ts": self.t(ts), "dur": self.t(dur),
                   "pid": pid, "tid": RUN_TID, "args": args})

    def function_call(self, t, e, ts, dur):
        pid = self.pid(t)
        if pid not in self.function_track_named:
            self.function_track_named.add(pid)
            self.emit({"ph": "M", "name": "thread_name", "pid": pid, "tid": FUNCTION_TID,
                       "args": {"name": "tf.function"}})
            self.emit({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": FUNCTION_TID,
                       "args": {"sort_index": FUNCTION_TID}})
        args = {"function": e.function, "call": e.index, "ops_executed": e.ops}
        if e.error:
            args["error"] = e.error
        self.emit({"ph": "X", "cat": "function_call", "name": f"{e.function} #{e.index}", "ts": self.t(ts),
                   "dur": self.t(dur), "pid": pid, "tid": FUNCTION_TID, "args": args})

    def sampling_started(self, t, ts, full_ops, sample_every):
        pid = self._host(t)
        self.emit({"ph": "i", "s": "g", "cat": "devtrace", "name": f"sampling: 1 op in {sample_every} from here",
                   "ts": self.t(ts), "pid": pid, "tid": HOST_TID,
                   "args": {"full_ops": full_ops, "sample_every": sample_every}})


def _rank(sort_key) -> int:
    """process_sort_index: the host first, then physical GPUs by index, then the rest."""
    _, kind, index = sort_key
    if kind == 1:
        return 1 + int(index)
    return 0 if kind == 0 else 100_000


def write(events, out, layout: str = MEASURED, full_ops: int = 100_000, sample_every: int = 100) -> dict:
    """Stream ``events`` (any iterable) into ``out`` (anything with ``write(str)``) as one Trace
    Event Format JSON object; returns the ``Timeline`` (``meta()`` is the ``otherData`` written)."""
    sink = TraceEventWriter(out, layout)
    out.write('{"traceEvents":[\n')
    tl = Timeline(sink, layout, full_ops, sample_every)
    for e in events:
        tl.feed(e)
    tl.finish()
    if tl.sampling_from is not None:  # final exact totals for every device
        for t in tl.track_list:
            sink.op_counter(t, tl.clock)
            sink.copy_counter(t, tl.clock, t.copies_in, t.bytes_in)
    sink.flush()
    meta = tl.meta()
    out.write('\n],\n"displayTimeUnit":"ns",\n"otherData":')
    out.write(json.dumps(meta, ensure_ascii=False))
    out.write("}\n")
    return tl


def render(events, layout: str = MEASURED) -> str:
    """The whole file as a string (for ``devtrace run --format timeline`` without ``-o``)."""
    import io

    buf = io.StringIO()
    write(events, buf, layout)
    return buf.getvalue()
