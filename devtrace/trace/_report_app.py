"""The HTML report's page (``render_html``): its head and layout (``HEAD``) and its script
(``APP``), which reads the streamed records and draws them on canvases, with no chart library so
the file stays small (issue 34) — the device timeline
(one row per logical device; ops as bars coloured by op type; copies on the destination row with
an arrow from the producer to the consumer; OOMs; sessions and ``Session.run`` calls), one memory
chart per device, and the placement table (plain HTML, sorted and filtered by a few lines of
script)."""

HEAD = """<!DOCTYPE html>
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
.mem-grid { display:grid; grid-template-columns:repeat(auto-fill,minmax(300px,1fr)); gap:8px; }
.mem-chart { border:1px solid var(--line); border-radius:4px; position:relative; }
.mem-title { font-size:12px; padding:3px 8px; color:var(--muted); } .mem-title b { color:var(--fg); font-size:13px; }
#tl-plot { position:relative; } .tl-row { position:absolute; left:0; text-align:right; overflow:hidden; white-space:nowrap; text-overflow:ellipsis; font-size:12px; pointer-events:none; } #tl-canvas { display:block; cursor:crosshair; }
.tip { position:absolute; z-index:5; background:#fff; border:1px solid #9aa5b1; border-radius:4px; padding:4px 8px; font-size:12px; max-width:320px; pointer-events:none; box-shadow:0 2px 6px rgba(0,0,0,.15); }
#tl-legend summary { cursor:pointer; color:var(--muted); font-size:12px; }
#tl-legend-items { display:flex; flex-wrap:wrap; gap:2px 12px; font-size:11.5px; padding:2px 0 4px; }
.lg i { display:inline-block; width:12px; height:10px; margin-right:4px; vertical-align:-1px; border-radius:2px; }
.flows-head { color:var(--muted); font-size:11.5px; margin-top:4px; } table.flows { width:auto; } table.flows td { padding:1px 10px 1px 0; border:0; }
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
<button id="tl-reset">reset zoom</button></span></h2>
<details id="tl-legend" open><summary id="tl-legend-sum">Legend</summary><div id="tl-legend-items"></div></details>
<div id="tl-plot"><canvas id="tl-canvas"></canvas><div id="tl-tip" class="tip" hidden></div></div>
<div id="tl-flows"></div><div class="note" id="tl-note"></div></section>
<section id="memory"><h2>Memory per device</h2><div class="mem-grid" id="mem-grid"></div>
<div class="note" id="mem-note"></div></section>
<section id="placement"><h2>Placement</h2>
<div class="filters"><input id="f-text" type="search" placeholder="filter: op, node, device, requested…">
<select id="f-reason"><option value="">every reason</option></select>
<select id="f-device"><option value="">every device</option></select><span class="note" id="f-count"></span></div>
<div class="tablewrap"><table id="placement-table"><thead><tr></tr></thead><tbody></tbody></table></div></section>
</main>
"""

APP = r"""
(function () {
"use strict";
var R = JSON.parse(document.getElementById("dt-records").textContent);
var M = JSON.parse(document.getElementById("dt-meta").textContent);
var meta = M.meta, tracks = M.tracks, groups = M.groups;
function esc(s) { return String(s == null ? "" : s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
function fmtBytes(n) {
  if (n == null) return "?";
  if (n < 1024) return n + " B";
  var u = ["KiB", "MiB", "GiB", "TiB"], i = -1;
  do { n /= 1024; i++; } while (n >= 1024 && i < u.length - 1);
  return n.toFixed(1) + " " + u[i];
}
function fmtNs(ns) { return ns >= 1e6 ? (ns / 1e6).toFixed(2) + " ms" : (ns / 1e3).toFixed(1) + " \u00b5s"; }
function reasonClass(r) { return r && r.indexOf("fallback") === 0 ? "fallback" : (r && r.indexOf("soft") === 0 ? "soft" : ""); }
var PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#86bcb6", "#8cd17d"];

// -- data -----------------------------------------------------------------------------------
var S = M.strings || [];
function str(v) { return typeof v === "number" ? S[v] : v; }  // the writer's table of repeated strings
var lastMem = {};
function memPoint(r) {  // a counter's left-out trailing values: the device's last ones
  var p = lastMem[r[1]] || [], v = r.slice(3);
  for (var i = v.length; i < 4; i++) v.push(p[i]);
  lastMem[r[1]] = v;
  return {t: r[1], ts: r[2], use: v[0], res: v[1], peak: v[2], lim: v[3]};
}
var ops = [], copies = [], mems = [], ooms = [], sessions = [], runs = [], calls = [], messages = [], sampling = null, bySeq = {};
R.forEach(function (r) {
  var k = r[0];
  if (k === "o") { var o = {t: r[1], ts: r[2], dur: r[3], seq: r[4], op: str(r[5]), node: str(r[6]), req: str(r[7]), reason: str(r[8]), shape: r[9], dtype: str(r[10]), bytes: r[11], ns: r[12], mem: r[13], from: str(r[14]), cin: 0}; ops.push(o); bySeq[o.seq] = o; }
  else if (k === "l") { var l = {t: r[1], ts: r[2], dur: r[3], seq: r[4], op: str(r[5]), late: true}; ops.push(l); bySeq[l.seq] = l; }
  else if (k === "c") copies.push({src: r[1], t: r[2], ts: r[3], dur: r[4], bytes: r[5], seq: r[6], op: r[7], index: r[8], producer: r[9], eager: r[10], name: r[11]});
  else if (k === "m") mems.push(memPoint(r));
  else if (k === "x") ooms.push({t: r[1], ts: r[2], seq: r[3], op: r[4], bytes: r[5], live: r[6], n: r[7]});
  else if (k === "s") sessions.push({i: r[1], ts: r[2], dur: r[3], ops: r[4]});
  else if (k === "r") runs.push({ts: r[1], dur: r[2], session: r[3], i: r[4], ops: r[5], placed: r[6], error: r[7]});
  else if (k === "f") calls.push({ts: r[1], dur: r[2], fn: r[3], i: r[4], ops: r[5], error: r[6]});
  else if (k === "g") messages.push({ts: r[1], level: r[2], text: r[3]});
  else if (k === "p") sampling = {ts: r[1], full: r[2], every: r[3]};
});
copies.forEach(function (c) { var o = bySeq[c.seq]; if (o && !o.late) o.cin++; });

// Sequence layout, computed here too: every op and copy one step, in time order.
var items = ops.concat(copies).sort(function (a, b) { return a.ts - b.ts; });
var starts = items.map(function (it) { return it.ts; });
items.forEach(function (it, i) { it.sx = i; });
function rank(ts) { var lo = 0, hi = starts.length; while (lo < hi) { var mid = (lo + hi) >> 1; if (starts[mid] < ts) lo = mid + 1; else hi = mid; } return lo; }
var measured = M.layout === "measured", layout = M.layout;  // a sequence-layout file has steps already
function useTs() { return layout === "measured" || !measured; }
var SCALE = measured ? 1000 : 1;  // measured: ns in the data, µs on the axis
function T(ts) { return useTs() ? ts / SCALE : seqOf(ts); }
function X(it) { return useTs() ? it.ts / SCALE : (sampling && it.ts > sampling.ts ? seqOf(it.ts) : it.sx); }
function W(it) { return useTs() ? it.dur / SCALE : 1; }
function axisTitle() { return layout === "measured" ? "time on the host (measured kernel times, ops end to end)" : "step (one per op and copy, in trace order)"; }

// -- header and summary ----------------------------------------------------------------------
var title = "devtrace report" + (meta.program ? ": " + meta.program : "");
document.getElementById("dt-title").textContent = title;
document.title = title;
document.getElementById("dt-sub").textContent = [meta.mode ? meta.mode + " mode" : null, meta.source === "tensorflow-log" ? "imported from a TensorFlow log" : null,
  meta.backend ? meta.backend + " devices" : null, tracks.length + " devices", meta.ops + " ops"].filter(Boolean).join(" \u00b7 ");
var fb = 0; Object.keys(meta.fallback_ops).forEach(function (k) { fb += meta.fallback_ops[k]; });
var cards = [[meta.ops, "ops"], [tracks.length, "devices"], [meta.copies, "copies"], [fmtBytes(meta.copy_bytes), "copied"], [fb, "CPU fallbacks"], [meta.ooms, "OOMs"]];
if (meta.session_runs) cards.push([meta.session_runs, "Session.run calls"]);
if (meta.function_calls) cards.push([meta.function_calls, "tf.function calls"]);
document.getElementById("dt-cards").innerHTML = cards.map(function (c) { return '<div class="card"><b>' + esc(c[0]) + "</b><span>" + esc(c[1]) + "</span></div>"; }).join("");
var notes = [];
if (meta.limited) notes.push('<div class="note warn" id="dt-limited">' + esc(meta.limited) + ": the placement table and the timeline hold the first ops, the counts the whole run.</div>");
if (meta.sampled) notes.push('<div class="note warn" id="dt-sampling">Sampled: ' + esc(meta.sampling) + " \u2014 " + meta.ops_written + " of " + meta.ops + " ops and " + meta.copies_written + " of " + meta.copies + " copies drawn.</div>");
notes.push('<div class="note">Times: ' + esc(meta.time) + ".</div>");
notes.push('<div class="note">Reasons: ' + esc(Object.keys(meta.reasons).map(function (k) { return k + " \u00d7" + meta.reasons[k]; }).join(", ") || "none") + ".</div>");
if (fb) notes.push('<div class="note">Fell back to the CPU (no GPU kernel): ' + esc(Object.keys(meta.fallback_ops).map(function (k) { return k + " \u00d7" + meta.fallback_ops[k]; }).join(", ")) + "</div>");
if (meta.threads && meta.threads.length) notes.push('<div class="note" id="dt-threads">Threads that ran ops: ' + esc(meta.threads.map(function (t) { return t.name + " \u00d7" + t.ops; }).join(", ")) + ".</div>");
messages.filter(function (m) { return m.level !== "INFO"; }).slice(0, 5).forEach(function (m) { notes.push('<div class="note warn">' + esc(m.level + ": " + m.text.split("\n")[0]) + "</div>"); });
document.getElementById("dt-notes").innerHTML = notes.join("");

// -- timeline: one row per logical device, then the host's sessions & Session.run rows --------
// Drawn on a canvas (no chart library: the file stays small and a 400k-op run draws at once).
// Ops wider than a pixel are bars; narrower ones add up per pixel column into a density whose
// strength is the share of the column the device was busy. Past the sampling point the exact
// per-bin totals of every op (M.density, from the writer) are drawn instead, and copies are
// aggregated into per-device-pair flows unless few enough are in view to draw each arrow.
var perGroup = {}; tracks.forEach(function (t) { perGroup[t.group] = (perGroup[t.group] || 0) + 1; });
var rowOf = {}, rows = [];
M.order.forEach(function (ti, k) {
  var t = tracks[ti], shared = perGroup[t.group] > 1;
  rowOf[ti] = k; rows.push({label: t.short + (shared ? " (" + groups[t.group].label.replace(/ \(physical\).*/, "") + ")" : ""), device: t.short});
});
var sessionRow = null, runRow = null, callRow = null, nrows = M.order.length;
if (sessions.length || messages.length) { sessionRow = nrows++; rows.push({label: "sessions & log"}); }
if (runs.length) { runRow = nrows++; rows.push({label: "Session.run"}); }
if (calls.length) { callRow = nrows++; rows.push({label: "tf.function"}); }
var LABEL_W = 150, AXIS_H = 30, TOP = 6, HOST_ROW = 22, PLOT_H = 0;
function layoutRows(legendH) {  // the device rows take at least half the timeline (legend included)
  var n = Math.max(1, M.order.length), fixed = legendH + TOP + AXIS_H + HOST_ROW * (rows.length - M.order.length);
  var rowH = Math.max(36, Math.min(64, Math.floor(300 / n)), Math.ceil(fixed / n)), y = TOP;
  rows.forEach(function (r) { r.y = y; r.h = r.device ? rowH : HOST_ROW; y += r.h; });
  PLOT_H = y + AXIS_H;
  rows.forEach(function (r) {  // the row labels: HTML beside the canvas
    var d = document.createElement("div"); d.className = "tl-row"; d.setAttribute("data-row", r.label); d.textContent = r.label;
    d.style.cssText = "top:" + r.y + "px;height:" + r.h + "px;line-height:" + r.h + "px;width:" + (LABEL_W - 10) + "px";
    plotDiv.appendChild(d);
  });
}
var DEN = M.density || {width: 1, bins: 0, ops: [], flows: [], names: []};
var MAX_ARROWS = 300, OTHER = "#bab0ac", FALLBACK = "#c62828", SOFT = "#ef6c00", COPY = "#37474f", FLOW = "#d81b60";

// op types: the most frequent get a colour and a legend entry, the rest are "other ops"
var counts = Object.create(null); ops.forEach(function (o) { if (!reasonClass(o.reason)) counts[o.op] = (counts[o.op] || 0) + 1; });
DEN.names.forEach(function (n) { if (!(n in counts)) counts[n] = 0; });  // a type only in sampled-out ops (the density's)
var typeNames = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
var colorOf = Object.create(null); typeNames.slice(0, PALETTE.length).forEach(function (n, i) { colorOf[n] = PALETTE[i]; });
function opColor(o) { var c = reasonClass(o.reason); return c === "fallback" ? FALLBACK : c === "soft" ? SOFT : colorOf[o.op] || OTHER; }
var denColor = DEN.names.map(function (n) { return colorOf[n] || OTHER; });

function opText(o) {
  var t = tracks[o.t].short;
  if (o.late) return esc(o.op) + " #" + o.seq + " on " + esc(t) + "<br>(sampled out; drawn because a copy reads it)";
  return "<b>" + esc(o.op) + "</b> #" + o.seq + " on " + esc(t) + " \u2014 " + esc(o.reason) + (o.node ? "<br>node " + esc(o.node) : "") +
    "<br>requested " + esc(o.req || "(none)") + "<br>" + (o.shape ? "[" + esc(o.shape.join(",")) + "] " : "") + esc(o.dtype || "") +
    (o.bytes != null ? " \u00b7 " + fmtBytes(o.bytes) : "") + (o.ns ? "<br>kernel " + fmtNs(o.ns) : "") + (o.mem != null ? "<br>in use on " + esc(t) + " after it: " + fmtBytes(o.mem) : "") +
    (o.from ? "<br>from " + esc(o.from) : "");
}
function copyText(c) { return esc(c.name) + ": " + fmtBytes(c.bytes) + " " + esc(tracks[c.src].short) + " \u2192 " + esc(tracks[c.t].short) + "<br>for " + esc(c.op) + " #" + c.seq + " (input " + c.index + ")" + (c.producer != null ? ", output of #" + c.producer : ""); }
function drawLegend() {
  var items = typeNames.slice(0, PALETTE.length).map(function (n) { return [n, colorOf[n], "op"]; });
  var rest = typeNames.length - PALETTE.length;
  if (rest > 0) items.push(["other ops (" + rest + " types)", OTHER, "other"]);
  if (ops.some(function (o) { return reasonClass(o.reason) === "fallback"; })) items.push(["CPU fallback (no GPU kernel)", FALLBACK, "fallback"]);
  if (ops.some(function (o) { return reasonClass(o.reason) === "soft"; })) items.push(["soft placement", SOFT, "soft"]);
  if (meta.copies) { items.push(["copy (on the destination)", COPY, "copy"]); items.push(["copy arrow / flow: producer \u2192 consumer", FLOW, "flow"]); }
  if (ooms.length) items.push(["OOM", FALLBACK, "oom"]);
  if (sessions.length) items.push(["tf.compat.v1.Session", "#b0bec5", "session"]);
  if (messages.length) items.push(["log message", "#78909c", "message"]);
  if (runs.length) items.push(["Session.run call", "#5c6bc0", "run"]);
  if (calls.length) items.push(["tf.function call", "#00897b", "call"]);
  document.getElementById("tl-legend-items").innerHTML = items.map(function (it) {
    return '<span class="lg" data-kind="' + it[2] + '"><i style="background:' + it[1] + '"></i><span class="legendtext">' + esc(it[0]) + "</span></span>";
  }).join("");
  var n = typeNames.length;
  document.getElementById("tl-legend-sum").textContent = "Legend: " + n + " op type" + (n === 1 ? "" : "s") + (rest > 0 ? " (the " + PALETTE.length + " most frequent coloured)" : "");
}

// -- positions ------------------------------------------------------------------------------
var binSteps = null;  // sequence layout past the sampling point: steps at each density bin's start
function stepsPerBin() {
  var n = new Float64Array(DEN.bins + 1);
  DEN.ops.forEach(function (d) { n[d[1] + 1] += d[2]; });
  DEN.flows.forEach(function (f) { n[f[2] + 1] += f[3]; });
  for (var i = 1; i <= DEN.bins; i++) n[i] += n[i - 1];
  return n;
}
function seqOf(ts) {
  if (!sampling || ts <= sampling.ts) return rank(ts);
  if (!binSteps) binSteps = stepsPerBin();
  var w = DEN.width, b = Math.min(Math.floor(ts / w), DEN.bins - 1), f = (ts - b * w) / w;
  var base = rank(sampling.ts), s0 = binSteps[b] + f * (binSteps[b + 1] - binSteps[b]);
  var at = sampling.ts / w, sb = Math.min(Math.floor(at), DEN.bins - 1);
  var sStart = binSteps[sb] + (at - sb) * (binSteps[sb + 1] - binSteps[sb]);
  return base + Math.max(0, s0 - sStart);
}
function extent() {
  var end = T(M.clock || 0);
  items.forEach(function (it) { end = Math.max(end, X(it) + W(it)); });
  runs.concat(sessions, calls).forEach(function (s) { end = Math.max(end, T(s.ts + s.dur)); });
  return end || 1;
}
var byRow = [], copyList = [];
function index() {  // per row, its ops and copies sorted by position; late (sampled-out producer) ops too
  byRow = rows.map(function () { return []; });
  ops.forEach(function (o) { var r = rowOf[o.t]; if (r != null) byRow[r].push(o); });
  copies.forEach(function (c) { var r = rowOf[c.t]; if (r != null) byRow[r].push(c); });
  byRow.forEach(function (l) { l.forEach(function (it) { it.x = X(it); it.w = W(it); }); l.sort(function (a, b) { return a.x - b.x; }); });
  copyList = copies.slice().sort(function (a, b) { return a.x - b.x; });
}
function firstAt(list, x) { var lo = 0, hi = list.length; while (lo < hi) { var mid = (lo + hi) >> 1; if (list[mid].x + list[mid].w < x) lo = mid + 1; else hi = mid; } return lo; }

// -- drawing --------------------------------------------------------------------------------
var canvas = document.getElementById("tl-canvas"), plotDiv = document.getElementById("tl-plot"), tip = document.getElementById("tl-tip");
var view = null, full = null, drag = null, flowCells = [];
function pxW() { return Math.max(200, plotDiv.clientWidth - LABEL_W - 12); }
function niceStep(span, n) { var s = Math.pow(10, Math.floor(Math.log10(span / n))), f = span / n / s; return s * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10); }
function fmtAxis(v, step) {
  if (layout !== "measured") return String(Math.round(v));
  var d = function (x, s) { return x.toFixed(Math.max(0, Math.min(6, -Math.floor(Math.log10(s))))); };
  if (step >= 1e5) return d(v / 1e6, step / 1e6) + " s";
  if (step >= 100) return d(v / 1e3, step / 1e3) + " ms";
  return d(v, step) + " \u00b5s";
}
function drawTimeline() {
  var dpr = window.devicePixelRatio || 1, w = pxW(), cw = LABEL_W + w + 12;
  canvas.width = cw * dpr; canvas.height = PLOT_H * dpr; canvas.style.width = cw + "px"; canvas.style.height = PLOT_H + "px";
  var g = canvas.getContext("2d"); g.setTransform(dpr, 0, 0, dpr, 0, 0);
  var v0 = view[0], v1 = view[1], k = w / (v1 - v0);
  function px(x) { return LABEL_W + (x - v0) * k; }
  g.fillStyle = "#fff"; g.fillRect(0, 0, cw, PLOT_H);
  rows.forEach(function (r, i) { if (i % 2) { g.fillStyle = "#f5f7f9"; g.fillRect(LABEL_W, r.y, w, r.h); } });
  g.save(); g.beginPath(); g.rect(LABEL_W, 0, w, PLOT_H - AXIS_H); g.clip();
  var samplingX = sampling ? T(sampling.ts) : Infinity, drawn = {bars: 0, density: 0, arrows: [], flows: 0, slices: {}};
  // exact density past the sampling point
  if (sampling && DEN.bins) {
    if (!binSteps) binSteps = stepsPerBin();
    DEN.ops.forEach(function (d) {
      var r = rowOf[d[0]]; if (r == null) return;
      var b0 = d[1] * DEN.width, b1 = b0 + DEN.width;
      if (b1 <= sampling.ts) return;
      var x0 = T(Math.max(b0, sampling.ts)), x1 = T(b1);
      if (x1 < v0 || x0 > v1) return;
      var share = useTs() ? d[3] / DEN.width : d[2] / Math.max(1, binSteps[d[1] + 1] - binSteps[d[1]]);
      var row = rows[r], a = Math.max(0.12, Math.min(1, share));
      g.globalAlpha = a; g.fillStyle = denColor[d[4]];
      var p0 = px(x0), p1 = Math.max(px(x1), p0 + 1);
      g.fillRect(p0, row.y + 4, p1 - p0, row.h - 8); drawn.density++;
    });
    g.globalAlpha = 1;
  }
  // ops and copies from the records: bars, or per-pixel density when narrower than a pixel
  byRow.forEach(function (list, r) {
    var row = rows[r], busy = new Float32Array(w + 1), top = new Float32Array(w + 1), col = new Array(w + 1);
    for (var i = firstAt(list, v0); i < list.length; i++) {
      var it = list[i]; if (it.x > v1) break;
      var sampledOut = it.x >= samplingX, isCopy = it.src != null;
      var p0 = px(it.x), p1 = px(it.x + it.w), c = isCopy ? COPY : opColor(it);
      if (p1 - p0 >= 1) {
        if (sampledOut && p1 - p0 < 2) continue;  // the density is drawn there
        g.fillStyle = c;
        if (isCopy) g.fillRect(p0, row.y + row.h * 0.55, p1 - p0, row.h * 0.3); else g.fillRect(p0, row.y + 4, p1 - p0, row.h - 8);
        drawn.bars++;
      } else if (!sampledOut) {
        var cx = Math.floor(p0 - LABEL_W); if (cx < 0 || cx > w) continue;
        busy[cx] += p1 - p0; if (p1 - p0 >= top[cx]) { top[cx] = p1 - p0; col[cx] = c; }
      }
    }
    for (var x = 0; x <= w; x++) if (busy[x] > 0) {
      g.globalAlpha = Math.max(0.25, Math.min(1, busy[x])); g.fillStyle = col[x]; g.fillRect(LABEL_W + x, row.y + 4, 1, row.h - 8); drawn.density++;
    }
    g.globalAlpha = 1;
  });
  // copies: each arrow when few are in view (and none sampled), else flows per device pair
  var inView = [], i0 = firstAt(copyList, v0);
  for (var ci = i0; ci < copyList.length && copyList[ci].x <= v1; ci++) inView.push(copyList[ci]);
  var sampledInView = sampling && v1 > samplingX;
  var asArrows = inView.length <= MAX_ARROWS && !sampledInView;
  function rowMid(r) { return rows[r].y + rows[r].h / 2; }
  g.strokeStyle = FLOW; g.fillStyle = FLOW; g.lineWidth = 1.5;
  if (asArrows) {
    inView.forEach(function (c) {
      var p = c.producer != null ? bySeq[c.producer] : null;
      if (rowOf[c.t] == null || (p ? rowOf[p.t] : rowOf[c.src]) == null) return;
      var end = c.eager && bySeq[c.seq] && !bySeq[c.seq].late ? bySeq[c.seq] : c;
      var xb = end === c ? px(X(c) + W(c) / 2) : px(X(end)), yb = rowMid(rowOf[c.t]);
      var xa = p ? px(X(p) + W(p)) : px(X(c)), ya = rowMid(rowOf[p ? p.t : c.src]);  // no producer op (a host value): from the source row
      g.beginPath(); g.moveTo(xa, ya); g.lineTo(xb, yb); g.stroke();
      var ang = Math.atan2(yb - ya, xb - xa);
      g.beginPath(); g.moveTo(xb, yb); g.lineTo(xb - 9 * Math.cos(ang - 0.4), yb - 9 * Math.sin(ang - 0.4)); g.lineTo(xb - 9 * Math.cos(ang + 0.4), yb - 9 * Math.sin(ang + 0.4)); g.closePath(); g.fill();
      drawn.arrows.push([rows[rowOf[p ? p.t : c.src]].label, rows[rowOf[c.t]].label]);
    });
  } else {
    // flows: a lane along the bottom of the destination row (and a thinner one along the top of the
    // source row), its strength the bin's copies; hovering the lane lists them per device pair
    var most = 1; flowCells = [];
    DEN.flows.forEach(function (f) { most = Math.max(most, f[3]); });
    DEN.flows.forEach(function (f) {
      var rs = rowOf[f[0]], rd = rowOf[f[1]]; if (rs == null || rd == null) return;
      var a = px(T(f[2] * DEN.width)), b = Math.max(px(T((f[2] + 1) * DEN.width)), a + 1);
      if (b < LABEL_W || a > LABEL_W + w) return;
      g.globalAlpha = 0.3 + 0.7 * f[3] / most;
      g.fillRect(a, rows[rd].y + rows[rd].h - 6, b - a, 5); g.fillRect(a, rows[rs].y + 1, b - a, 3);
      flowCells.push({rs: rs, rd: rd, a: a, b: b, f: f}); drawn.flows++;
    });
    g.globalAlpha = 1;
  }
  // OOMs, the host's rows, the sampling point
  g.fillStyle = FALLBACK;
  ooms.forEach(function (o) { var x = px(T(o.ts)), r = rows[rowOf[o.t]]; if (!r) return; g.beginPath(); g.moveTo(x - 6, r.y + 2); g.lineTo(x + 6, r.y + 2); g.lineTo(x, r.y + 12); g.closePath(); g.fill(); });
  function slices(list, r, color) {
    if (r == null) return;
    g.fillStyle = color; drawn.slices[rows[r].label] = 0;
    list.forEach(function (s) {
      var a = px(T(s.ts)), b = Math.max(px(T(s.ts + s.dur)), a + 1); if (b < LABEL_W || a > LABEL_W + w) return;
      g.fillRect(a, rows[r].y + 5, b - a, rows[r].h - 10); drawn.slices[rows[r].label]++;
    });
  }
  slices(sessions, sessionRow, "#b0bec5"); slices(runs, runRow, "#5c6bc0"); slices(calls, callRow, "#00897b");
  messages.forEach(function (m) { var x = px(T(m.ts)); g.fillStyle = m.level === "INFO" ? "#78909c" : "#ef6c00"; g.fillRect(x, rows[sessionRow].y + 3, 1.5, rows[sessionRow].h - 6); });
  if (sampling) { g.strokeStyle = "#8a4b00"; g.setLineDash([5, 4]); g.lineWidth = 1; g.beginPath(); g.moveTo(px(samplingX), 0); g.lineTo(px(samplingX), PLOT_H - AXIS_H); g.stroke(); g.setLineDash([]); }
  if (drag && Math.abs(drag.x1 - drag.x0) > 3) { g.fillStyle = "rgba(36,87,197,0.15)"; g.fillRect(Math.min(drag.x0, drag.x1), 0, Math.abs(drag.x1 - drag.x0), PLOT_H - AXIS_H); }
  g.restore();
  // the axis
  var ay = PLOT_H - AXIS_H, step = niceStep(v1 - v0, Math.max(2, Math.floor(w / 110)));
  g.strokeStyle = "#9aa5b1"; g.lineWidth = 1; g.beginPath(); g.moveTo(LABEL_W, ay + 0.5); g.lineTo(LABEL_W + w, ay + 0.5); g.stroke();
  g.fillStyle = "#5f6b7a"; g.textAlign = "center"; g.textBaseline = "top"; g.font = "11px system-ui,sans-serif";
  for (var t = Math.ceil(v0 / step) * step; t <= v1; t += step) { var x = px(t); g.fillRect(x, ay, 1, 4); g.fillText(fmtAxis(t, step), x, ay + 5); }
  g.fillText(axisTitle(), LABEL_W + w / 2, ay + 17);
  drawFlows(inView, asArrows);
  plotDiv.setAttribute("data-drawn", JSON.stringify(drawn));
  plotDiv.setAttribute("data-view", v0 + "," + v1);
}
function drawFlows(inView, asArrows) {  // the copies in view, per device pair: exact counts and bytes
  var v0 = view[0], v1 = view[1], pairs = {};
  DEN.flows.forEach(function (f) {
    var x0 = Math.max(T(f[2] * DEN.width), full[0]), x1 = Math.min(T((f[2] + 1) * DEN.width), full[1]);  // the last bin ends with the run
    if (x1 < v0 || x0 > v1) return;
    var share = x1 > x0 ? Math.max(0, Math.min(x1, v1) - Math.max(x0, v0)) / (x1 - x0) : 1;  // a bin cut by the view
    var p = pairs[f[0] + ">" + f[1]] || (pairs[f[0] + ">" + f[1]] = {src: f[0], dst: f[1], n: 0, bytes: 0});
    p.n += f[3] * share; p.bytes += f[4] * share;
  });
  var list = Object.keys(pairs).map(function (k) { return pairs[k]; }).filter(function (p) { return p.n >= 0.5; }).sort(function (a, b) { return b.n - a.n; });
  var whole = view[0] <= full[0] && view[1] >= full[1];
  var el = document.getElementById("tl-flows");
  if (!list.length) { el.innerHTML = ""; return; }
  el.innerHTML = '<div class="flows-head">Copies ' + (whole ? "in the run" : "in view (about)") + ", per device pair \u2014 drawn " + (asArrows ? "as one arrow each" : "as flows (zoom in for each arrow)") + ":</div>" +
    '<table class="flows"><tbody>' + list.map(flowRow).slice(0, 6).join("") + "</tbody></table>" +
    (list.length > 6 ? "<details><summary>" + (list.length - 6) + ' more device pairs</summary><table class="flows"><tbody>' + list.map(flowRow).slice(6).join("") + "</tbody></table></details>" : "");
}
function flowRow(p) {
  var s = tracks[p.src], d = tracks[p.dst], n = Math.round(p.n);
  return '<tr class="flow" data-src="' + esc(s.short) + '" data-dst="' + esc(d.short) + '" data-count="' + n + '" data-bytes="' + Math.round(p.bytes) + '"><td>' + esc(s.short) + " \u2192 " + esc(d.short) +
    '</td><td class="num">' + n + " cop" + (n === 1 ? "y" : "ies") + '</td><td class="num">' + fmtBytes(Math.round(p.bytes)) + "</td><td>" + esc(copyNameOf(s.type, d.type)) + "</td></tr>";
}
function copyNameOf(a, b) { return "Memcpy" + (a === "CPU" ? "H" : "D") + "to" + (b === "CPU" ? "H" : "D"); }

// -- zoom and hover ---------------------------------------------------------------------------
function dataX(clientX) { var r = canvas.getBoundingClientRect(); return view[0] + (clientX - r.left - LABEL_W) / pxW() * (view[1] - view[0]); }
function rowAt(clientY) { var r = canvas.getBoundingClientRect(), yy = clientY - r.top; for (var i = 0; i < rows.length; i++) if (yy >= rows[i].y && yy < rows[i].y + rows[i].h) return i; return -1; }
function setView(a, b) { var span = full[1] - full[0]; a = Math.max(full[0], a); b = Math.min(full[1], b); if (b - a < span * 1e-9) return; view = [a, b]; drawTimeline(); drawMemory(); }
canvas.addEventListener("mousedown", function (e) { var r = canvas.getBoundingClientRect(); drag = {x0: e.clientX - r.left, x1: e.clientX - r.left, c0: e.clientX}; });
window.addEventListener("mouseup", function (e) {
  if (!drag) return;
  var d = drag; drag = null;
  if (Math.abs(e.clientX - d.c0) > 3) { var a = dataX(d.c0), b = dataX(e.clientX); setView(Math.min(a, b), Math.max(a, b)); } else drawTimeline();
});
canvas.addEventListener("dblclick", function () { setView(full[0], full[1]); });
canvas.addEventListener("wheel", function (e) {
  e.preventDefault();
  var x = dataX(e.clientX), f = e.deltaY > 0 ? 1.25 : 0.8;
  setView(x - (x - view[0]) * f, x + (view[1] - x) * f);
}, {passive: false});
function hoverText(e) {
  var r = rowAt(e.clientY), x = dataX(e.clientX), tol = 4 * (view[1] - view[0]) / pxW();
  if (r < 0 || x < view[0]) return null;
  var hitIn = function (list, xf, wf) {
    var best = null, bd = tol;
    list.forEach(function (s) { var a = xf(s), b = a + wf(s), d = x < a ? a - x : x > b ? x - b : 0; if (d <= bd) { bd = d; best = s; } });
    return best;
  };
  if (r === runRow) { var rr = hitIn(runs, function (s) { return T(s.ts); }, function (s) { return T(s.ts + s.dur) - T(s.ts); }); return rr && "Session.run #" + rr.i + (rr.session > 1 ? " of session " + rr.session : "") + ": " + rr.ops + " nodes executed, " + rr.placed + " placed" + (rr.error ? "<br>raised " + esc(rr.error) : ""); }
  if (r === callRow) { var cc = hitIn(calls, function (s) { return T(s.ts); }, function (s) { return T(s.ts + s.dur) - T(s.ts); }); return cc && esc(cc.fn) + " #" + cc.i + ": " + cc.ops + " nodes executed" + (cc.error ? "<br>raised " + esc(cc.error) : ""); }
  if (r === sessionRow) {
    var mm = hitIn(messages, function (m) { return T(m.ts); }, function () { return 0; });
    if (mm) return esc(mm.level + ": " + mm.text.slice(0, 300)).replace(/\n/g, "<br>");
    var ss = hitIn(sessions, function (s) { return T(s.ts); }, function (s) { return T(s.ts + s.dur) - T(s.ts); }); return ss && "tf.compat.v1.Session #" + ss.i + ": " + ss.ops + " ops placed and run";
  }
  var yIn = e.clientY - canvas.getBoundingClientRect().top, mx = e.clientX - canvas.getBoundingClientRect().left, lane = {}, inLane = false;
  flowCells.forEach(function (c) {
    var atDst = c.rd === r && yIn >= rows[r].y + rows[r].h - 8, atSrc = c.rs === r && yIn <= rows[r].y + 5;
    if (!(atDst || atSrc) || mx < c.a - 2 || mx > c.b + 2) return;
    inLane = true; var k = c.f[0] + ">" + c.f[1], p = lane[k] || (lane[k] = [c.f[0], c.f[1], 0, 0]); p[2] += c.f[3]; p[3] += c.f[4];
  });
  if (inLane) return Object.keys(lane).map(function (k) { var p = lane[k]; return "copies " + esc(tracks[p[0]].short) + " \u2192 " + esc(tracks[p[1]].short) + " here: " + p[2] + ", " + fmtBytes(p[3]); }).join("<br>");
  var oo = hitIn(ooms.filter(function (o) { return rowOf[o.t] === r; }), function (o) { return T(o.ts); }, function () { return 0; });
  if (oo) return "OOM: " + esc(oo.op) + " #" + oo.seq + " asked for " + fmtBytes(oo.bytes) + "<br>" + oo.n + " live allocations, " + fmtBytes(oo.live);
  var list = byRow[r], best = null, bd = tol;
  for (var i = firstAt(list, x - tol); i < list.length && list[i].x <= x + tol; i++) {
    var it = list[i], d = x < it.x ? it.x - x : x > it.x + it.w ? x - it.x - it.w : 0;
    if (d <= bd) { bd = d; best = it; }
  }
  var sampledHere = sampling && x > T(sampling.ts);
  if (best && (!sampledHere || bd === 0)) return (best.src != null ? copyText(best) : opText(best)) + (sampledHere ? "<br><i>(one of the ops drawn: sampled)</i>" : "");
  if (sampledHere) {
    var cell = null;
    DEN.ops.forEach(function (d) { if (rowOf[d[0]] !== r) return; var a = T(d[1] * DEN.width), b = T((d[1] + 1) * DEN.width); if (x >= a && x < b) cell = d; });
    if (cell) return esc(tracks[cell[0]].short) + ": " + cell[2] + " ops here (sampled: density of every op), busy " + Math.round(100 * Math.min(1, cell[3] / DEN.width)) + "% of the time, mostly " + esc(DEN.names[cell[4]]) + "<br>past the dashed line 1 op in " + sampling.every + " keeps its details (devtrace report --full-ops N keeps more)";
  }
  return best ? (best.src != null ? copyText(best) : opText(best)) : null;
}
canvas.addEventListener("mousemove", function (e) {
  if (drag) { drag.x1 = e.clientX - canvas.getBoundingClientRect().left; drawTimeline(); return; }
  var text = hoverText(e);
  if (!text) { tip.hidden = true; return; }
  tip.innerHTML = text; tip.hidden = false;
  var r = plotDiv.getBoundingClientRect();
  tip.style.left = Math.min(e.clientX - r.left + 14, r.width - 320) + "px"; tip.style.top = (e.clientY - r.top + 14) + "px";
});
canvas.addEventListener("mouseleave", function () { tip.hidden = true; });
document.getElementById("tl-reset").onclick = function () { setView(full[0], full[1]); };
window.addEventListener("resize", function () { drawTimeline(); drawMemory(); });
function resetView() {
  binSteps = null; index(); full = [0, extent()]; view = full.slice();
  document.getElementById("tl-note").textContent = (sampling ? "Dashed line: from here 1 op in " + sampling.every + " is kept with its details; every op is counted in the density drawn there. " : "") +
    "Drag to zoom, scroll to zoom around the pointer, double-click to reset; hover an op for its seq, reason, shape, bytes, kernel time and memory." +
    (runs.length ? " A node placed by an earlier Session.run call is drawn where it was placed." : "");
}
function setLayout(l) {
  layout = l;
  document.getElementById("lay-measured").className = l === "measured" ? "on" : "";
  document.getElementById("lay-sequence").className = l === "sequence" ? "on" : "";
  resetView(); drawTimeline(); drawMemory();
}
if (!measured) document.getElementById("lay-measured").disabled = true;
document.getElementById("lay-measured").onclick = function () { setLayout("measured"); };
document.getElementById("lay-sequence").onclick = function () { setLayout("sequence"); };

// -- memory: one chart per device, on the timeline's time axis, bytes from 0 ------------------
var memCharts = [];
function byteTicks(top) {  // from 0, at a power-of-two step of bytes: 0 B, 2.0 MiB, 4.0 MiB ...
  var step = Math.pow(2, Math.ceil(Math.log2(Math.max(1, top / 4))));
  var vals = []; for (var v = 0; v <= top * 1.0001; v += step) vals.push(v);
  return vals;
}
function buildMemory() {
  var grid = document.getElementById("mem-grid");
  grid.innerHTML = "";
  M.order.forEach(function (ti) {
    var t = tracks[ti], pts = mems.filter(function (m) { return m.t === ti; });
    if (!pts.length) return;
    var last = pts[pts.length - 1], top = 0, res = 0;
    pts.forEach(function (m) { top = Math.max(top, m.use || 0, m.peak || 0); res = Math.max(res, m.res || 0); });
    var resShown = res <= Math.max(top, 1024) * 4;  // a region reserved up front would flatten what is in use
    if (resShown) top = Math.max(top, res);
    var lim = last.lim, limShown = lim != null && lim <= top * 4;
    if (limShown) top = Math.max(top, lim);
    top = Math.max(top, 1024);
    var div = document.createElement("div"); div.className = "mem-chart"; div.setAttribute("data-device", t.short);
    div.innerHTML = '<div class="mem-title"><b>' + esc(t.short) + "</b> in use " + fmtBytes(last.use) + " \u00b7 peak " + fmtBytes(last.peak) + " \u00b7 reserved " + fmtBytes(last.res) + (resShown ? "" : " (above the chart)") +
      (lim != null ? " \u00b7 limit " + fmtBytes(lim) + (limShown ? "" : " (above the chart)") : "") + '</div><canvas></canvas><div class="tip" hidden></div>';
    grid.appendChild(div);
    var ticks = byteTicks(top * 1.05);
    var ymax = ticks[ticks.length - 1] < top * 1.05 ? ticks[ticks.length - 1] + (ticks[1] || top) : ticks[ticks.length - 1];
    if (ticks[ticks.length - 1] < ymax) ticks.push(ymax);
    div.setAttribute("data-y-range", "0," + ymax);
    div.setAttribute("data-y-ticks", ticks.map(fmtBytes).join("|"));
    var chart = {div: div, canvas: div.querySelector("canvas"), tip: div.querySelector(".tip"), pts: pts, ymax: ymax, ticks: ticks,
                 shown: {use: true, peak: true, res: resShown, lim: limShown}};
    memCharts.push(chart);
    chart.canvas.addEventListener("mousemove", function (e) { memHover(chart, e); });
    chart.canvas.addEventListener("mouseleave", function () { chart.tip.hidden = true; });
  });
  document.getElementById("mem-note").textContent = "Bytes from 0, on the timeline's time axis (zoom the timeline to zoom these). In use after every op drawn (the trace records it), reserved at each region the allocator took, peak and limit; orange: in use, purple dotted: peak, blue: reserved, red dashed: limit.";
}
var MEM_L = 64, MEM_B = 20, MEM_H = 150;
var SERIES = [["in use", "use", "#fb8c00", [], 2], ["peak", "peak", "#8e24aa", [2, 3], 1.6], ["reserved", "res", "#1e88e5", [], 1.6], ["limit", "lim", "#c62828", [6, 4], 1.6]];
function drawMemory() {
  memCharts.forEach(function (c) {
    var dpr = window.devicePixelRatio || 1, cw = Math.max(200, c.div.clientWidth - 2), h = MEM_H;
    c.canvas.width = cw * dpr; c.canvas.height = h * dpr; c.canvas.style.width = cw + "px"; c.canvas.style.height = h + "px";
    var g = c.canvas.getContext("2d"); g.setTransform(dpr, 0, 0, dpr, 0, 0);
    var w = cw - MEM_L - 8, ph = h - MEM_B - 6, v0 = view[0], v1 = view[1];
    function px(x) { return MEM_L + (x - v0) / (v1 - v0) * w; }
    function py(v) { return 6 + ph - v / c.ymax * ph; }
    g.fillStyle = "#fff"; g.fillRect(0, 0, cw, h);
    g.font = "10px system-ui,sans-serif"; g.textAlign = "right"; g.textBaseline = "middle";
    c.ticks.forEach(function (v) { var yy = Math.round(py(v)) + 0.5; g.fillStyle = "#edf0f3"; g.fillRect(MEM_L, yy, w, 1); g.fillStyle = "#5f6b7a"; g.fillText(fmtBytes(v), MEM_L - 4, yy); });
    g.textAlign = "center"; g.textBaseline = "top";
    var step = niceStep(v1 - v0, Math.max(2, Math.floor(w / 90)));
    for (var t = Math.ceil(v0 / step) * step; t <= v1; t += step) g.fillText(fmtAxis(t, step), px(t), h - MEM_B + 4);
    g.save(); g.beginPath(); g.rect(MEM_L, 0, w, h - MEM_B); g.clip();
    SERIES.forEach(function (s) {
      if (!c.shown[s[1]]) return;
      var prev = null; g.strokeStyle = s[2]; g.lineWidth = s[4]; g.setLineDash(s[3]); g.beginPath();
      c.pts.forEach(function (m) {
        var v = m[s[1]]; if (v == null) return;
        var xx = px(T(m.ts)), yy = py(v);
        if (prev == null) g.moveTo(xx, yy); else { g.lineTo(xx, prev); g.lineTo(xx, yy); }
        prev = yy;
      });
      if (prev != null) g.lineTo(px(Math.max(v1, full[1])), prev);
      g.stroke();
    });
    g.setLineDash([]); g.restore();
  });
}
function memHover(c, e) {
  var r = c.canvas.getBoundingClientRect(), w = r.width - MEM_L - 8, x = view[0] + (e.clientX - r.left - MEM_L) / w * (view[1] - view[0]);
  var at = null; c.pts.forEach(function (m) { if (T(m.ts) <= x) at = m; });
  if (!at) { c.tip.hidden = true; return; }
  c.tip.innerHTML = SERIES.filter(function (s) { return at[s[1]] != null; }).map(function (s) { return s[0] + ": " + fmtBytes(at[s[1]]); }).join("<br>");
  c.tip.hidden = false; c.tip.style.left = Math.min(e.clientX - c.div.getBoundingClientRect().left + 12, r.width - 140) + "px"; c.tip.style.top = "30px";
}

// -- placement table -------------------------------------------------------------------------
var COLS = [["seq", "seq", 1], ["op", "op"], ["node", "node"], ["device", "device"], ["requested", "requested"], ["reason", "reason"], ["shape", "shape"], ["dtype", "dtype"], ["bytes", "bytes", 1], ["kernel", "ns", 1], ["in use after", "mem", 1], ["copies in", "cin", 1]];
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
    return '<tr data-seq="' + o.seq + '"><td class="num">' + o.seq + "</td><td>" + esc(o.op) + "</td><td>" + esc(o.node || "") + "</td><td>" + esc(o.device) + "</td><td>" + esc(o.reqShort) + '</td><td class="r-' + reasonClass(o.reason) + '">' + esc(o.reason) + "</td><td>" + esc(o.shapeText) + "</td><td>" + esc(o.dtype || "") + '</td><td class="num">' + (o.bytes != null ? esc(fmtBytes(o.bytes)) : "") + '</td><td class="num">' + (o.ns ? esc(fmtNs(o.ns)) : "") + '</td><td class="num">' + (o.mem != null ? esc(fmtBytes(o.mem)) : "") + '</td><td class="num">' + (o.cin || "") + "</td></tr>";
  }).join("");
  document.getElementById("f-count").textContent = (rowsF.length > LIMIT ? "first " + LIMIT + " of " : "") + rowsF.length + " ops" + (meta.sampled ? " (of " + meta.ops + " in the trace: sampled)" : "");
}
["f-text", "f-reason", "f-device"].forEach(function (id) { document.getElementById(id).addEventListener("input", drawTable); });

drawTable();
drawLegend();
layoutRows(document.getElementById("tl-legend").offsetHeight);
buildMemory();
setLayout(layout);
var devH = 0; rows.forEach(function (r) { if (r.device) devH += r.h; });
document.getElementById("timeline").setAttribute("data-layout", JSON.stringify({legend: document.getElementById("tl-legend").offsetHeight,
  plot: plotDiv.offsetHeight, devices: devH}));  // what the browser test checks: the rows keep the timeline's space
document.body.setAttribute("data-drawn-ms", performance.now().toFixed(0));
})();
"""
