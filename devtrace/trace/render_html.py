"""A trace as one self-contained HTML report: the device timeline with copy arrows, memory
curves per device, the placement table (sortable, filterable) with reasons, and the summary.

Everything is inline — a few hundred lines of plain JavaScript drawing SVG, and CSS — so the file
opens offline in any browser and needs no optional dependency. The data is streamed into the
file as the events are read (``write``): a JSON array of compact records in
``<script type="application/json" id="dt-records">``, then the totals and device list in
``id="dt-meta"``. Past ``full_ops`` ops, one op in ``sample_every`` is kept (with the copies of
the ops kept); totals and memory figures stay exact and the report says how it was sampled.
"""

from __future__ import annotations

import json

from .timeline import MEASURED, Sink, Timeline, copy_name

BUFFER = 2000
FULL_OPS = 20_000  # a browser stays responsive with tens of thousands of SVG elements
SAMPLE_EVERY = 100


def _json(obj) -> str:
    """JSON safe inside a <script> element (no ``</script>``, no ``<!--``)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


class HtmlRecords(Sink):
    def __init__(self, out):
        self.out = out
        self.buf: list = []
        self.first = True

    def emit(self, record) -> None:
        self.buf.append(_json(record))
        if len(self.buf) >= BUFFER:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            text = ",\n".join(self.buf)
            self.out.write(text if self.first else ",\n" + text)
            self.first = False
            self.buf.clear()

    def op(self, t, ts, dur, e, nbytes):
        self.emit(["o", t.index, ts, dur, e.seq, e.op, e.node, e.requested, e.reason, e.shape, e.dtype, nbytes,
                   e.duration_ns or 0])

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

    def sampling_started(self, t, ts, full_ops, sample_every):
        self.emit(["p", ts, full_ops, sample_every])


def write(events, out, layout: str = MEASURED, full_ops: int = FULL_OPS, sample_every: int = SAMPLE_EVERY,
          title: str | None = None):
    """Stream ``events`` into ``out`` as the HTML report; returns the ``Timeline``."""
    sink = HtmlRecords(out)
    out.write(_HEAD.replace("{{title}}", _escape(title or "devtrace report")))
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
    out.write("</script>\n<script>\n" + _SCRIPT + "</script>\n</body>\n</html>\n")
    return tl


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="devtrace">
<title>{{title}}</title>
<style>
:root { --fg:#1d232b; --muted:#5f6b7a; --line:#d8dee6; --bg:#f6f8fa; --card:#fff; --accent:#2457c5; }
* { box-sizing: border-box; }
body { margin:0; font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif; color:var(--fg); background:var(--bg); }
header { padding:10px 18px 6px; background:#1f2a38; color:#fff; }
header h1 { margin:0; font-size:17px; font-weight:600; }
header .sub { color:#b9c4d2; font-size:12px; margin-top:2px; }
main { padding:8px 18px 24px; }
section { background:var(--card); border:1px solid var(--line); border-radius:6px; margin:8px 0; padding:8px 12px; }
h2 { font-size:14px; margin:0 0 6px; display:flex; gap:10px; align-items:center; }
h2 .ctl { margin-left:auto; font-weight:normal; font-size:12px; display:flex; gap:6px; align-items:center; }
button, select, input { font:inherit; font-size:12px; padding:2px 6px; border:1px solid var(--line); border-radius:4px; background:#fff; }
button.on { background:var(--accent); color:#fff; border-color:var(--accent); }
.cards { display:flex; flex-wrap:wrap; gap:8px; }
.card { border:1px solid var(--line); border-radius:5px; padding:4px 10px; min-width:92px; }
.card b { display:block; font-size:16px; }
.card span { color:var(--muted); font-size:11px; }
.note { color:var(--muted); font-size:11.5px; margin-top:6px; }
.note.warn { color:#8a4b00; }
.tl { display:flex; border:1px solid var(--line); border-radius:4px; overflow:hidden; }
.tl-labels { flex:0 0 auto; width:230px; border-right:1px solid var(--line); background:#fbfcfd; }
.tl-labels div { white-space:nowrap; overflow:hidden; text-overflow:ellipsis; padding:0 8px; }
.tl-labels .grp { font-size:11px; color:var(--muted); background:#eef2f6; }
.tl-labels .dev { font-weight:600; }
.tl-labels .dev small { font-weight:normal; color:var(--muted); }
.tl-scroll { flex:1 1 auto; overflow-x:auto; overflow-y:hidden; }
svg text { font:10px system-ui,sans-serif; fill:var(--muted); }
.op { stroke:rgba(0,0,0,.25); stroke-width:.5; }
.op.fallback { stroke:#c62828; stroke-width:2; }
.op.soft { stroke:#ef6c00; stroke-width:2; }
.op.late { opacity:.55; }
.copy { fill:#37474f; stroke:#fff; stroke-width:.6; }
.copy-arrow { fill:none; stroke:#d81b60; stroke-width:1.4; opacity:.85; }
.session { fill:#cfd8e3; stroke:#90a4ae; }
.oom { fill:#c62828; }
.legend { display:flex; flex-wrap:wrap; gap:10px; margin-top:6px; font-size:11px; color:var(--muted); }
.legend i { display:inline-block; width:12px; height:10px; margin-right:4px; vertical-align:-1px; border-radius:2px; }
.mem-grid { display:grid; grid-template-columns:repeat(auto-fill,minmax(230px,1fr)); gap:8px; }
.mem-chart { border:1px solid var(--line); border-radius:4px; padding:4px 6px; }
.mem-chart .t { font-weight:600; font-size:12px; }
.mem-chart .t small { font-weight:normal; color:var(--muted); }
.mem-chart svg { display:block; width:100%; height:64px; }
.l-res { stroke:#1e88e5; fill:none; stroke-width:1.5; }
.l-use { stroke:#fb8c00; fill:none; stroke-width:1.5; }
.l-peak { stroke:#8e24aa; fill:none; stroke-width:1; stroke-dasharray:2 2; }
.l-lim { stroke:#c62828; fill:none; stroke-width:1; stroke-dasharray:5 3; }
table { border-collapse:collapse; width:100%; font-size:12px; }
th, td { text-align:left; padding:2px 8px; border-bottom:1px solid #edf0f3; white-space:nowrap; }
th { position:sticky; top:0; background:#f0f3f7; cursor:pointer; user-select:none; }
th.num, td.num { text-align:right; }
th.sorted-asc::after { content:" \\25B2"; font-size:9px; } th.sorted-desc::after { content:" \\25BC"; font-size:9px; }
td.r-fallback { color:#c62828; font-weight:600; } td.r-soft { color:#ef6c00; font-weight:600; }
.tablewrap { max-height:420px; overflow:auto; border:1px solid var(--line); border-radius:4px; }
.filters { display:flex; gap:6px; margin-bottom:6px; align-items:center; }
.filters input { width:260px; }
</style>
</head>
<body>
<header><h1 id="dt-title">devtrace report</h1><div class="sub" id="dt-sub"></div></header>
<main>
<section id="summary"><h2>Summary</h2><div class="cards" id="dt-cards"></div><div id="dt-notes"></div></section>
<section id="timeline"><h2>Device timeline <span class="ctl">layout
<button id="lay-measured">measured</button><button id="lay-sequence">sequence</button>
zoom <button id="zoom-out">&minus;</button><button id="zoom-fit">fit</button><button id="zoom-in">+</button></span></h2>
<div class="tl"><div class="tl-labels" id="tl-labels"></div><div class="tl-scroll" id="tl-scroll"><svg id="tl-svg" xmlns="http://www.w3.org/2000/svg"></svg></div></div>
<div class="legend" id="tl-legend"></div></section>
<section id="memory"><h2>Memory per device <span class="ctl" style="font-size:11px;color:#5f6b7a">log scale &middot;
<svg width="18" height="8"><line x1="0" y1="4" x2="18" y2="4" class="l-use"/></svg>in use
<svg width="18" height="8"><line x1="0" y1="4" x2="18" y2="4" class="l-peak"/></svg>peak
<svg width="18" height="8"><line x1="0" y1="4" x2="18" y2="4" class="l-res"/></svg>reserved
<svg width="18" height="8"><line x1="0" y1="4" x2="18" y2="4" class="l-lim"/></svg>limit</span></h2>
<div class="mem-grid" id="mem-grid"></div><div class="note" id="mem-note"></div></section>
<section id="placement"><h2>Placement</h2>
<div class="filters"><input id="f-text" type="search" placeholder="filter: op, node, device, requested…">
<select id="f-reason"><option value="">every reason</option></select>
<select id="f-device"><option value="">every device</option></select><span class="note" id="f-count"></span></div>
<div class="tablewrap"><table id="placement-table"><thead><tr></tr></thead><tbody></tbody></table></div></section>
</main>
"""

_SCRIPT = r"""
(function () {
"use strict";
var R = JSON.parse(document.getElementById("dt-records").textContent);
var M = JSON.parse(document.getElementById("dt-meta").textContent);
var meta = M.meta, tracks = M.tracks, groups = M.groups;
var NS = "http://www.w3.org/2000/svg";
function esc(s) { return String(s == null ? "" : s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
function fmtBytes(n) {
  if (n == null) return "?";
  if (n < 1024) return n + " B";
  var u = ["KiB", "MiB", "GiB", "TiB"], i = -1;
  do { n /= 1024; i++; } while (n >= 1024 && i < u.length - 1);
  return n.toFixed(1) + " " + u[i];
}
function fmtNs(ns) { return ns >= 1e6 ? (ns / 1e6).toFixed(2) + " ms" : (ns / 1e3).toFixed(1) + " \u00b5s"; }
function hue(name) { var h = 0; for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0; return h % 360; }
function color(name) { return name === "_EagerConst" || name === "Const" ? "hsl(210,12%,78%)" : "hsl(" + hue(name) + ",58%,62%)"; }
function reasonClass(r) { return r && r.indexOf("fallback") === 0 ? "fallback" : (r && r.indexOf("soft") === 0 ? "soft" : ""); }

// -- data -----------------------------------------------------------------------------------
var ops = [], copies = [], mems = [], ooms = [], sessions = [], messages = [], sampling = null;
var bySeq = {};
R.forEach(function (r) {
  var k = r[0];
  if (k === "o") { var o = {t: r[1], ts: r[2], dur: r[3], seq: r[4], op: r[5], node: r[6], req: r[7], reason: r[8], shape: r[9], dtype: r[10], bytes: r[11], ns: r[12], cin: 0}; ops.push(o); bySeq[o.seq] = o; }
  else if (k === "l") { var l = {t: r[1], ts: r[2], dur: r[3], seq: r[4], op: r[5], late: true}; ops.push(l); bySeq[l.seq] = l; }
  else if (k === "c") copies.push({src: r[1], t: r[2], ts: r[3], dur: r[4], bytes: r[5], seq: r[6], op: r[7], index: r[8], producer: r[9], eager: r[10], name: r[11]});
  else if (k === "m") mems.push({t: r[1], ts: r[2], use: r[3], res: r[4], peak: r[5], lim: r[6]});
  else if (k === "x") ooms.push({t: r[1], ts: r[2], seq: r[3], op: r[4], bytes: r[5], live: r[6], n: r[7]});
  else if (k === "s") sessions.push({i: r[1], ts: r[2], dur: r[3], ops: r[4]});
  else if (k === "g") messages.push({ts: r[1], level: r[2], text: r[3]});
  else if (k === "p") sampling = {ts: r[1], full: r[2], every: r[3]};
});
copies.forEach(function (c) { var o = bySeq[c.seq]; if (o && !o.late) o.cin++; });

// Sequence layout, computed here too: every op and copy one step, in time order.
var items = ops.concat(copies).sort(function (a, b) { return a.ts - b.ts; });
var starts = items.map(function (it) { return it.ts; });
items.forEach(function (it, i) { it.sx = i; it.sdur = 1; });
var endMeasured = 0;
items.forEach(function (it) { endMeasured = Math.max(endMeasured, it.ts + it.dur); });
sessions.forEach(function (s) { endMeasured = Math.max(endMeasured, s.ts + s.dur); });
function rank(ts) { var lo = 0, hi = starts.length; while (lo < hi) { var mid = (lo + hi) >> 1; if (starts[mid] < ts) lo = mid + 1; else hi = mid; } return lo; }
var measured = M.layout === "measured";  // else the data's times are already steps
var layout = M.layout;
function useTs() { return layout === "measured" || !measured; }
function X(it) { return useTs() ? it.ts : it.sx; }
function W(it) { return useTs() ? it.dur : 1; }
function T(ts) { return useTs() ? ts : rank(ts); }
function total() { return useTs() ? endMeasured : items.length; }
function unitText(v) { return layout === "measured" ? fmtNs(v) : Math.round(v) + ""; }

// -- header and summary ----------------------------------------------------------------------
var title = "devtrace report" + (meta.program ? ": " + meta.program : "");
document.getElementById("dt-title").textContent = title;
document.title = title;
document.getElementById("dt-sub").textContent = [meta.mode ? meta.mode + " mode" : null, meta.source === "tensorflow-log" ? "imported from a TensorFlow log" : null,
  meta.backend ? meta.backend + " devices" : null, tracks.length + " devices", meta.ops + " ops"].filter(Boolean).join(" \u00b7 ");
var fb = 0; Object.keys(meta.fallback_ops).forEach(function (k) { fb += meta.fallback_ops[k]; });
var cards = [[meta.ops, "ops"], [meta.copies, "copies"], [fmtBytes(meta.copy_bytes), "copied"], [fb, "CPU fallbacks"], [meta.ooms, "OOMs"]];
cards.splice(1, 0, [tracks.length, "devices"]);
document.getElementById("dt-cards").innerHTML = cards.map(function (c) { return '<div class="card"><b>' + esc(c[0]) + "</b><span>" + esc(c[1]) + "</span></div>"; }).join("");
var notes = [];
if (meta.sampled) notes.push('<div class="note warn" id="dt-sampling">Sampled: ' + esc(meta.sampling) + " \u2014 " + meta.ops_written + " of " + meta.ops + " ops and " + meta.copies_written + " of " + meta.copies + " copies drawn.</div>");
notes.push('<div class="note">Times: ' + esc(meta.time) + ".</div>");
if (fb) notes.push('<div class="note">Fell back to the CPU (no GPU kernel): ' + esc(Object.keys(meta.fallback_ops).map(function (k) { return k + " \u00d7" + meta.fallback_ops[k]; }).join(", ")) + "</div>");
messages.filter(function (m) { return m.level !== "INFO"; }).slice(0, 5).forEach(function (m) { notes.push('<div class="note warn">' + esc(m.level + ": " + m.text.split("\n")[0]) + "</div>"); });
document.getElementById("dt-notes").innerHTML = notes.join("");

// -- timeline --------------------------------------------------------------------------------
var ROW = 26, GRP = 18, PAD = 3;
var rows = [], rowOf = {}, y = 0, labels = [];
var seenGroup = {}, perGroup = {}, opsOn = {};
tracks.forEach(function (t) { perGroup[t.group] = (perGroup[t.group] || 0) + 1; });
meta.devices.forEach(function (d) { opsOn[d.name] = d.ops; });
M.order.forEach(function (ti) {
  var t = tracks[ti], g = groups[t.group], shared = perGroup[t.group] > 1;
  if (shared && !seenGroup[g.i]) {  // logical devices sharing one physical device: a header row
    seenGroup[g.i] = true;
    labels.push('<div class="grp" style="height:' + GRP + 'px;line-height:' + GRP + 'px" title="' + esc(g.label) + '">' + esc(g.label) + " \u2014 " + perGroup[t.group] + " logical devices</div>");
    rows.push({grp: g, y: y}); y += GRP;
  }
  rowOf[ti] = {y: y, t: t};
  var sub = shared ? "logical" : (t.type === "CPU" ? g.label : g.label.replace(/ \(physical\)/, ""));
  labels.push('<div class="dev" style="height:' + ROW + 'px;line-height:' + ROW + 'px' + (shared ? ';padding-left:18px' : '') + '" title="' + esc(t.name + " \u2014 " + g.label) + '">' + esc(t.short) + " <small>" + esc((opsOn[t.name] || 0) + ((opsOn[t.name] || 0) === 1 ? " op" : " ops") + " \u00b7 " + sub) + "</small></div>");
  rows.push({t: t, y: y}); y += ROW;
});
var hostRow = null;
if (sessions.length || messages.length || ooms.length || sampling) { hostRow = y; labels.push('<div class="grp" style="height:' + ROW + 'px;line-height:' + ROW + 'px">sessions &amp; log</div>'); y += ROW; }
var AXIS = 16, H = y + AXIS;
document.getElementById("tl-labels").innerHTML = '<div class="grp" style="height:' + AXIS + 'px"></div>' + labels.join("");
var scroller = document.getElementById("tl-scroll"), svg = document.getElementById("tl-svg");
var zoom = 1;
function drawTimeline() {
  var view = Math.max(200, scroller.clientWidth || 900), width = Math.round(view * zoom) - 8;
  var tot = Math.max(total(), 1e-9), k = (width - 10) / tot;
  function px(v) { return 4 + v * k; }
  var out = ['<defs><marker id="arrowhead" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L8,4 L0,8 z" fill="#d81b60"/></marker></defs>'];
  // axis
  var step = Math.pow(10, Math.floor(Math.log10(tot / 6 || 1))); if (tot / step > 12) step *= 5; else if (tot / step > 6) step *= 2;
  out.push('<g class="axis">');
  for (var v = 0; v <= tot; v += step) out.push('<line x1="' + px(v) + '" y1="' + (AXIS - 4) + '" x2="' + px(v) + '" y2="' + H + '" stroke="#eef1f4"/><text x="' + (px(v) + 2) + '" y="' + (AXIS - 5) + '">' + esc(unitText(v)) + "</text>");
  out.push("</g>");
  rows.forEach(function (r, i) {
    if (r.grp) { out.push('<rect x="0" y="' + (AXIS + r.y) + '" width="' + (width + 8) + '" height="' + GRP + '" fill="#eef2f6"/>'); return; }
    out.push('<g class="tl-row" data-device="' + esc(r.t.short) + '" data-name="' + esc(r.t.name) + '"><rect class="bg" x="0" y="' + (AXIS + r.y) + '" width="' + (width + 8) + '" height="' + ROW + '" fill="' + (i % 2 ? "#fff" : "#fafbfc") + '"/>');
    ops.forEach(function (o) {
      if (o.t !== r.t.i) return;
      var cls = "op " + reasonClass(o.reason) + (o.late ? " late" : "");
      var tip = o.op + " #" + o.seq + " on " + r.t.short + (o.late ? " (sampled out; drawn because a copy reads it)" : " \u2014 " + o.reason + (o.node ? "\nnode " + o.node : "") + "\nrequested " + (o.req || "(none)") + "\n" + (o.shape ? "[" + o.shape.join(",") + "] " : "") + (o.dtype || "") + (o.bytes != null ? " \u00b7 " + fmtBytes(o.bytes) : "") + (o.ns ? "\nkernel " + fmtNs(o.ns) : ""));
      out.push('<rect class="' + cls + '" data-seq="' + o.seq + '" x="' + px(X(o)) + '" y="' + (AXIS + r.y + PAD) + '" width="' + Math.max(1, W(o) * k) + '" height="' + (ROW - 2 * PAD) + '" fill="' + color(o.op) + '"><title>' + esc(tip) + "</title></rect>");
    });
    copies.forEach(function (c) {
      if (c.t !== r.t.i) return;
      out.push('<rect class="copy" x="' + px(X(c)) + '" y="' + (AXIS + r.y + PAD + 4) + '" width="' + Math.max(2, W(c) * k) + '" height="' + (ROW - 2 * PAD - 8) + '"><title>' + esc(c.name + ": " + fmtBytes(c.bytes) + " from " + tracks[c.src].short + " to " + tracks[c.t].short + " for " + c.op + " #" + c.seq) + "</title></rect>");
    });
    ooms.forEach(function (o) {
      if (o.t !== r.t.i) return;
      var x = px(T(o.ts)), yy = AXIS + r.y;
      out.push('<path class="oom" d="M' + (x - 6) + "," + (yy + 2) + " L" + (x + 6) + "," + (yy + 2) + " L" + x + "," + (yy + 14) + ' z"><title>' + esc("OOM: " + o.op + " #" + o.seq + " asked for " + fmtBytes(o.bytes) + "; " + o.n + " live allocations, " + fmtBytes(o.live)) + "</title></path>");
    });
    out.push("</g>");
  });
  if (hostRow != null) {
    out.push('<g class="host-row">');
    sessions.forEach(function (s) {
      var x0 = px(T(s.ts)), x1 = px(T(s.ts + s.dur));
      out.push('<rect class="session" x="' + x0 + '" y="' + (AXIS + hostRow + PAD) + '" width="' + Math.max(2, x1 - x0) + '" height="' + (ROW - 2 * PAD) + '"><title>' + esc("tf.compat.v1.Session #" + s.i + ": " + s.ops + " ops placed and run (the trace does not mark Session.run boundaries)") + '</title></rect><text x="' + (x0 + 4) + '" y="' + (AXIS + hostRow + 16) + '">Session #' + s.i + "</text>");
    });
    messages.forEach(function (m) { var x = px(T(m.ts)); out.push('<line x1="' + x + '" x2="' + x + '" y1="' + (AXIS + hostRow + 4) + '" y2="' + (AXIS + hostRow + ROW - 4) + '" stroke="' + (m.level === "INFO" ? "#90a4ae" : "#ef6c00") + '" stroke-width="2"><title>' + esc(m.level + ": " + m.text) + "</title></line>"); });
    if (sampling) { var sx = px(T(sampling.ts)); out.push('<line x1="' + sx + '" x2="' + sx + '" y1="' + AXIS + '" y2="' + H + '" stroke="#8a4b00" stroke-dasharray="4 3"><title>' + esc("from here 1 op in " + sampling.every + " is drawn") + "</title></line>"); }
    out.push("</g>");
  }
  // copy arrows: producer op -> consumer op (eager) or -> the copy (graph mode)
  out.push('<g class="arrows">');
  copies.forEach(function (c) {
    var p = c.producer != null ? bySeq[c.producer] : null;
    if (!p || rowOf[p.t] == null || rowOf[c.t] == null) return;
    var end = c.eager && bySeq[c.seq] && !bySeq[c.seq].late ? bySeq[c.seq] : c;
    var x1 = px(X(p) + W(p)), y1 = AXIS + rowOf[p.t].y + ROW / 2;
    var x2 = px(X(end)) + (end === c ? Math.max(2, W(c) * k) / 2 : 0), y2 = AXIS + rowOf[c.t].y + (y1 < AXIS + rowOf[c.t].y ? PAD : ROW - PAD);
    var dx = Math.max(12, Math.abs(x2 - x1) / 3);
    out.push('<path class="copy-arrow" data-bytes="' + c.bytes + '" marker-end="url(#arrowhead)" d="M' + x1.toFixed(1) + "," + y1 + " C" + (x1 + dx).toFixed(1) + "," + y1 + " " + (x2 - dx).toFixed(1) + "," + y2 + " " + x2.toFixed(1) + "," + y2 + '"><title>' + esc(fmtBytes(c.bytes) + " copied " + tracks[c.src].short + " \u2192 " + tracks[c.t].short + ": output of #" + c.producer + " for " + c.op + " #" + c.seq + " (input " + c.index + ")") + "</title></path>");
  });
  out.push("</g>");
  svg.setAttribute("width", width + 8); svg.setAttribute("height", H);
  svg.setAttribute("viewBox", "0 0 " + (width + 8) + " " + H);
  svg.innerHTML = out.join("");
}
var names = {}; ops.forEach(function (o) { names[o.op] = (names[o.op] || 0) + 1; });
var legend = Object.keys(names).sort(function (a, b) { return names[b] - names[a]; }).slice(0, 12).map(function (n) { return '<span><i style="background:' + color(n) + '"></i>' + esc(n) + "</span>"; });
legend.push('<span><i class="copy" style="background:#37474f"></i>copy (on the destination)</span>', '<span><i style="background:#d81b60;height:2px"></i>copy arrow: producer \u2192 consumer</span>', '<span><i style="border:2px solid #c62828"></i>CPU fallback</span>', '<span><i style="border:2px solid #ef6c00"></i>soft placement</span>');
document.getElementById("tl-legend").innerHTML = legend.join("");
function setLayout(l) {
  layout = l;
  document.getElementById("lay-measured").className = l === "measured" ? "on" : "";
  document.getElementById("lay-sequence").className = l === "sequence" ? "on" : "";
  drawTimeline(); drawMemory();
}
if (!measured) document.getElementById("lay-measured").disabled = true;
document.getElementById("lay-measured").onclick = function () { setLayout("measured"); };
document.getElementById("lay-sequence").onclick = function () { setLayout("sequence"); };
document.getElementById("zoom-in").onclick = function () { zoom *= 2; drawTimeline(); };
document.getElementById("zoom-out").onclick = function () { zoom = Math.max(1, zoom / 2); drawTimeline(); };
document.getElementById("zoom-fit").onclick = function () { zoom = 1; drawTimeline(); };

// -- memory ----------------------------------------------------------------------------------
function drawMemory() {
  var grid = document.getElementById("mem-grid"), html = [];
  var tot = Math.max(total(), 1e-9);
  M.order.forEach(function (ti) {
    var t = tracks[ti], pts = mems.filter(function (m) { return m.t === ti; });
    if (!pts.length) return;
    var last = pts[pts.length - 1], top = 1;
    pts.forEach(function (m) { top = Math.max(top, m.res || 0, m.use || 0, m.peak || 0, m.lim || 0); });
    var Wd = 300, Hd = 64, L = 44, lo = 0, hi = Math.log10(top * 2);
    function yv(b) { return 4 + (Hd - 16) * (1 - (Math.log10(Math.max(1, b)) - lo) / (hi - lo)); }
    function xv(ts) { return L + (Wd - L - 6) * (T(ts) / tot); }
    function line(get, cls) {
      var d = "", prev = null;
      pts.forEach(function (m) { var v = get(m); if (v == null) return; var x = xv(m.ts).toFixed(1), yy = yv(v).toFixed(1); d += prev == null ? "M" + x + "," + yy : " H" + x + " V" + yy; prev = yy; });
      if (prev == null) return "";
      return '<path class="' + cls + '" d="' + d + " H" + (Wd - 6) + '"/>';
    }
    var ticks = "";
    [[1, "1 B"], [1024, "1 KiB"], [1048576, "1 MiB"], [1073741824, "1 GiB"], [1099511627776, "1 TiB"]].forEach(function (tk) {
      if (tk[0] <= top * 2) { var yy = yv(tk[0]).toFixed(1); ticks += '<line x1="' + L + '" x2="' + (Wd - 6) + '" y1="' + yy + '" y2="' + yy + '" stroke="#eef1f4"/><text x="2" y="' + (+yy + 3) + '">' + tk[1] + "</text>"; }
    });
    var body = ticks + line(function (m) { return m.lim; }, "l-lim") + line(function (m) { return m.res; }, "l-res") + line(function (m) { return m.peak; }, "l-peak") + line(function (m) { return m.use; }, "l-use");
    html.push('<div class="mem-chart" data-device="' + esc(t.short) + '"><div class="t">' + esc(t.short) + " <small>in use " + fmtBytes(last.use) + " \u00b7 peak " + fmtBytes(last.peak) + " \u00b7 reserved " + fmtBytes(last.res) + (last.lim != null ? " \u00b7 limit " + fmtBytes(last.lim) : "") + '</small></div><svg viewBox="0 0 ' + Wd + " " + Hd + '" preserveAspectRatio="none">' + body + "</svg></div>");
  });
  grid.innerHTML = html.join("");
  document.getElementById("mem-note").textContent = "Reserved follows every region the allocator took; in use and peak are known where the trace records them (device creation, OOMs, and the end of the run).";
}

// -- placement table -------------------------------------------------------------------------
var COLS = [["seq", "seq", 1], ["op", "op"], ["node", "node"], ["device", "device"], ["requested", "requested"], ["reason", "reason"], ["shape", "shape"], ["dtype", "dtype"], ["bytes", "bytes", 1], ["kernel", "ns", 1], ["copies in", "cin", 1]];
var placed = ops.filter(function (o) { return !o.late; });
placed.forEach(function (o) { o.device = tracks[o.t].short; o.shapeText = o.shape ? "[" + o.shape.join(",") + "]" : ""; o.reqShort = (o.req || "").replace("/job:localhost/replica:0/task:0", ""); });
var sortKey = "seq", sortDir = 1, LIMIT = 500;
var head = document.querySelector("#placement-table thead tr");
head.innerHTML = COLS.map(function (c) { return '<th data-key="' + c[1] + '"' + (c[2] ? ' class="num"' : "") + ">" + c[0] + "</th>"; }).join("");
head.querySelectorAll("th").forEach(function (th) { th.onclick = function () { var k = th.getAttribute("data-key"); if (k === sortKey) sortDir = -sortDir; else { sortKey = k; sortDir = 1; } drawTable(); }; });
var reasons = {}, devs = {};
placed.forEach(function (o) { reasons[o.reason] = 1; devs[o.device] = 1; });
function fill(sel, keys) { document.getElementById(sel).insertAdjacentHTML("beforeend", keys.map(function (k) { return '<option value="' + esc(k) + '">' + esc(k) + "</option>"; }).join("")); }
fill("f-reason", Object.keys(reasons).sort());
fill("f-device", M.order.map(function (i) { return tracks[i].short; }).filter(function (d) { return devs[d]; }));
function val(o, k) { return k === "shape" ? o.shapeText : k === "requested" ? o.reqShort : o[k]; }
function drawTable() {
  var text = document.getElementById("f-text").value.toLowerCase(), reason = document.getElementById("f-reason").value, device = document.getElementById("f-device").value;
  var rowsF = placed.filter(function (o) {
    if (reason && o.reason !== reason) return false;
    if (device && o.device !== device) return false;
    if (text && (o.op + " " + (o.node || "") + " " + o.device + " " + (o.req || "")).toLowerCase().indexOf(text) < 0) return false;
    return true;
  });
  rowsF.sort(function (a, b) { var x = val(a, sortKey), y2 = val(b, sortKey); if (x == null) x = ""; if (y2 == null) y2 = ""; return (x < y2 ? -1 : x > y2 ? 1 : a.seq - b.seq) * sortDir; });
  head.querySelectorAll("th").forEach(function (th) { th.className = (th.className.indexOf("num") >= 0 ? "num " : "") + (th.getAttribute("data-key") === sortKey ? (sortDir > 0 ? "sorted-asc" : "sorted-desc") : ""); });
  document.querySelector("#placement-table tbody").innerHTML = rowsF.slice(0, LIMIT).map(function (o) {
    return '<tr data-seq="' + o.seq + '"><td class="num">' + o.seq + "</td><td>" + esc(o.op) + "</td><td>" + esc(o.node || "") + "</td><td>" + esc(o.device) + "</td><td>" + esc(o.reqShort) + '</td><td class="r-' + reasonClass(o.reason) + '">' + esc(o.reason) + "</td><td>" + esc(o.shapeText) + "</td><td>" + esc(o.dtype || "") + '</td><td class="num">' + (o.bytes != null ? esc(fmtBytes(o.bytes)) : "") + '</td><td class="num">' + (o.ns ? esc(fmtNs(o.ns)) : "") + '</td><td class="num">' + (o.cin || "") + "</td></tr>";
  }).join("");
  document.getElementById("f-count").textContent = (rowsF.length > LIMIT ? "first " + LIMIT + " of " : "") + rowsF.length + " ops" + (meta.sampled ? " (of " + meta.ops + " in the trace: sampled)" : "");
}
["f-text", "f-reason", "f-device"].forEach(function (id) { document.getElementById(id).addEventListener("input", drawTable); });

setLayout(layout);
drawTable();
window.addEventListener("resize", function () { drawTimeline(); });
})();
"""
