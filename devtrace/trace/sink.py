"""What the timeline's writers implement (``Sink``: every method optional), and the buffered
JSON-records output the Trace Event Format writer and the HTML report share."""

from __future__ import annotations

BUFFER = 2000  # JSON records per write


class Sink:
    """What a writer implements (every method optional)."""

    def group(self, g): pass
    def track(self, t): pass
    def op(self, t, ts, dur, e, nbytes): pass
    def late_op(self, t, ts, dur, seq, name): pass
    def copy(self, src, dst, ts, dur, c, producer, consumer, flow_id): pass
    def counter(self, t, ts, values): pass
    def op_counter(self, t, ts): pass
    def every_op(self, t, ts, dur, name): pass  # each op, written or sampled out
    def every_copy(self, src, dst, ts, dur, nbytes): pass  # each copy, written or not
    def copy_counter(self, t, ts, copies, nbytes): pass
    def oom(self, t, ts, e, live_bytes): pass
    def message(self, t, ts, e): pass
    def session(self, t, index, ts, dur, ops): pass
    def session_run(self, t, e, ts, dur, placed): pass
    def function_call(self, t, e, ts, dur): pass
    def sampling_started(self, t, ts, full_ops, sample_every): pass
    def thread(self, number, name): pass


class BufferedSink(Sink):
    """Records written as a comma-separated JSON sequence, ``BUFFER`` at a time (streaming)."""

    def __init__(self, out, encode):
        self.out = out
        self.buf: list = []
        self.first = True
        self.encode = encode

    def emit(self, record) -> None:
        self.buf.append(self.encode(record))
        if len(self.buf) >= BUFFER:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            text = ",\n".join(self.buf)
            self.out.write(text if self.first else ",\n" + text)
            self.first = False
            self.buf.clear()
