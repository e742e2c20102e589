"""A trace as one self-contained HTML report: the device timeline with copy arrows (or, when
many, per-device-pair flows), memory curves per device, the placement table (sortable,
filterable) with reasons, and the summary.

The page draws itself (``_report_app``: a few hundred lines of script on canvases, no chart
library), so the file is the data plus ~40 KB and opens offline in any browser: a 400k-op run's
report is ~2 MB and draws in well under a second (issue 34; bench/report_scale.py measures it).

The data is streamed into the file as the events are read (``write``): a JSON array of compact
records in ``<script type="application/json" id="dt-records">``, then the totals, device list and
the density of every op (``density.Density``) in ``id="dt-meta"``. Past ``full_ops`` ops, one op
in ``sample_every`` is kept with its details (with the copies of the ops kept); totals, memory
figures and the density stay exact and the report says how it was sampled.
"""

from __future__ import annotations

import json

from ._report_app import APP, HEAD
from .density import Density
from .sink import BufferedSink
from .timeline import MEASURED, Timeline, copy_name

FULL_OPS = 20_000  # a browser stays responsive with tens of thousands of ops drawn
SAMPLE_EVERY = 100


def _json(obj) -> str:
    """JSON safe inside a <script> element (no ``</script>``, no ``<!--``)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


class HtmlRecords(BufferedSink):
    """The records; repeated strings (op types, node names, requested devices, reasons, dtypes) as
    indexes into ``strings`` (written in the meta), which halves a large report."""

    def __init__(self, out):
        super().__init__(out, _json)
        self.density = Density()
        self.strings: dict = {}
        self.last_counter: dict = {}

    def s(self, value):
        """``value``'s index in ``strings`` (the page looks numbers up there; anything else is as written)."""
        try:
            return self.strings.setdefault(value, len(self.strings))
        except TypeError:  # unhashable (a hostile trace): as it is
            return value

    def every_op(self, t, ts, dur, name):
        self.density.op(t.index, ts, dur, name)

    def every_copy(self, src, dst, ts, dur, nbytes):
        self.density.copy(src.index, dst.index, ts, dur, nbytes)

    def op(self, t, ts, dur, e, nbytes):
        s = self.s
        self.emit(["o", t.index, ts, dur, e.seq, s(e.op), s(e.node), s(e.requested), s(e.reason), e.shape, s(e.dtype),
                   nbytes, e.duration_ns or 0, e.mem_in_use, s(e.src)])

    def late_op(self, t, ts, dur, seq, name):
        self.emit(["l", t.index, ts, dur, seq, self.s(name)])

    def copy(self, src, dst, ts, dur, c, producer, consumer, flow_id):
        self.emit(["c", src.index, dst.index, ts, dur, c.nbytes, c.seq, c.op, c.input_index,
                   producer[0] if producer else None, 1 if consumer is not None else 0,
                   copy_name(src.device_type, dst.device_type)])

    def counter(self, t, ts, values):
        """In use, reserved, peak, limit: the trailing ones equal to the device's last counter left out
        (the page carries them forward)."""
        record = ["m", t.index, ts, values.get("in_use"), values.get("reserved"), values.get("peak"), values.get("limit")]
        last = self.last_counter.get(t.index)
        self.last_counter[t.index] = record
        n = len(record)
        while last is not None and n > 4 and record[n - 1] == last[n - 1]:
            n -= 1
        self.emit(record[:n])

    def oom(self, t, ts, e, live_bytes):
        self.emit(["x", t.index, ts, e.seq, e.op, e.nbytes, live_bytes, len(e.live)])

    def message(self, t, ts, e):
        self.emit(["g", ts, e.level, e.text[:2000]])

    def session(self, t, index, ts, dur, ops):
        self.emit(["s", index, ts, dur, ops])

    def session_run(self, t, e, ts, dur, placed):
        self.emit(["r", ts, dur, e.session, e.index, e.ops, placed, e.error])

    def function_call(self, t, e, ts, dur):
        self.emit(["f", ts, dur, e.function, e.index, e.ops, e.error])

    def sampling_started(self, t, ts, full_ops, sample_every):
        self.emit(["p", ts, full_ops, sample_every])


def write(events, out, layout: str = MEASURED, full_ops: int = FULL_OPS, sample_every: int = SAMPLE_EVERY,
          title: str | None = None):
    """Stream ``events`` into ``out`` as the HTML report; returns the ``Timeline``."""
    sink = HtmlRecords(out)
    out.write(HEAD.replace("{{title}}", _escape(title or "devtrace report")))
    out.write('<script type="application/json" id="dt-records">[\n')
    tl = Timeline(sink, layout, full_ops, sample_every)
    for e in events:
        tl.feed(e)
    tl.finish()
    sink.flush()
    out.write('\n]</script>\n<script type="application/json" id="dt-meta">')
    order = tl.ordered_tracks()
    tracks = [{"i": t.index, "name": t.name, "short": t.short, "type": t.device_type, "group": t.group.index,
               "physical": t.physical_index, "limit": t.limit} for t in tl.track_list]
    groups = [{"i": g.index, "label": g.label} for g in tl.groups.values()]
    out.write(_json({"meta": tl.meta(), "tracks": tracks, "groups": groups,
                     "order": [t.index for t in order], "layout": layout, "clock": tl.clock,
                     "density": sink.density.to_json(), "strings": list(sink.strings)}))
    out.write("</script>\n<script>\n" + APP + "</script>\n</body>\n</html>\n")
    return tl


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
