"""A trace as one self-contained HTML report, drawn by Plotly: the device timeline with copy
arrows, memory curves per device, the placement table (sortable, filterable) with reasons, and
the summary.

Plotly is the optional extra ``viz`` (``pip install 'devtrace[viz]'``); ``require_plotly`` says
in one line how to install it, and the CLI calls it before any work. plotly.js is embedded once,
inline, so the file opens offline in any browser.

The data is streamed into the file as the events are read (``write``): a JSON array of compact
records in ``<script type="application/json" id="dt-records">``, then the totals and device list
in ``id="dt-meta"``; the page's script (``_report_app``) turns them into Plotly figures and the
table. Past ``full_ops`` ops, one op in ``sample_every`` is kept (with the copies of the ops
kept); totals and memory figures stay exact and the report says how it was sampled.
"""

from __future__ import annotations

import json

from ..errors import UsageError
from ._report_app import APP, HEAD
from .sink import BufferedSink
from .timeline import MEASURED, Timeline, copy_name

FULL_OPS = 20_000  # a browser stays responsive with tens of thousands of ops drawn
SAMPLE_EVERY = 100
INSTALL = "pip install 'devtrace[viz]'"


def require_plotly(option: str = "--html") -> None:
    """Raise ``UsageError`` (one line: how to install it) when Plotly cannot be imported."""
    try:
        from plotly.offline import get_plotlyjs  # noqa: F401
    except ImportError:
        raise UsageError(f"{option} needs Plotly: {INSTALL}") from None


def plotly_js(option: str = "--html") -> str:
    """plotly.js itself (minified), to embed inline."""
    require_plotly(option)
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def _json(obj) -> str:
    """JSON safe inside a <script> element (no ``</script>``, no ``<!--``)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


class HtmlRecords(BufferedSink):
    def __init__(self, out):
        super().__init__(out, _json)

    def op(self, t, ts, dur, e, nbytes):
        self.emit(["o", t.index, ts, dur, e.seq, e.op, e.node, e.requested, e.reason, e.shape, e.dtype, nbytes,
                   e.duration_ns or 0, e.mem_in_use, e.src])

    def late_op(self, t, ts, dur, seq, name):
        self.emit(["l", t.index, ts, dur, seq, name])

    def copy(self, src, dst, ts, dur, c, producer, consumer, flow_id):
        self.emit(["c", src.index, dst.index, ts, dur, c.nbytes, c.seq, c.op, c.input_index,
                   producer[0] if producer else None, 1 if consumer is not None else 0,
                   copy_name(src.device_type, dst.device_type)])

    def counter(self, t, ts, values):
        self.emit(["m", t.index, ts, values.get("in_use"), values.get("reserved"), values.get("peak"),
                   values.get("limit")])

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
    """Stream ``events`` into ``out`` as the HTML report; returns the ``Timeline``.
    ``UsageError`` before anything is written when Plotly is missing."""
    js = plotly_js()
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
                     "order": [t.index for t in order], "layout": layout}))
    out.write('</script>\n<script id="plotly-js">\n')  # plotly.js, once, inline: the file opens offline
    out.write(js)
    del js
    out.write("\n</script>\n<script>\n" + APP + "</script>\n</body>\n</html>\n")
    return tl


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
