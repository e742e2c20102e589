"""The HTML report's page (``render_html``): its head and layout (``HEAD``) and its script
(``APP``), which reads the streamed records and draws them with Plotly — the device timeline
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
.mem-chart { border:1px solid var(--line); border-radius:4px; height:190px; }
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
<button id="lay-measured">measured</button><button id="lay-sequence">sequence</button></span></h2>
<div id="tl-plot"></div><div class="note" id="tl-note"></div></section>
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
var CONFIG = {displaylogo: false, responsive: true, modeBarButtonsToRemove: ["select2d", "lasso2d"]};
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
var ops = [], copies = [], mems = [], ooms = [], sessions = [], runs = [], calls = [], messages = [], sampling = null, bySeq = {};
R.forEach(function (r) {
  var k = r[0];
  if (k === "o") { var o = {t: r[1], ts: r[2], dur: r[3], seq: r[4], op: r[5], node: r[6], req: r[7], reason: r[8], shape: r[9], dtype: r[10], bytes: r[11], ns: r[12], mem: r[13], src: r[14], cin: 0}; ops.push(o); bySeq[o.seq] = o; }
  else if (k === "l") { var l = {t: r[1], ts: r[2], dur: r[3], seq: r[4], op: r[5], late: true}; ops.push(l); bySeq[l.seq] = l; }
  else if (k === "c") copies.push({src: r[1], t: r[2], ts: r[3], dur: r[4], bytes: r[5], seq: r[6], op: r[7], index: r[8], producer: r[9], eager: r[10], name: r[11]});
  else if (k === "m") mems.push({t: r[1], ts: r[2], use: r[3], res: r[4], peak: r[5], lim: r[6]});
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
function T(ts) { return useTs() ? ts / SCALE : rank(ts); }
function X(it) { return useTs() ? it.ts / SCALE : it.sx; }
function W(it) { return useTs() ? it.dur / SCALE : 1; }
function axisTitle() { return layout === "measured" ? "\u00b5s on the host (measured kernel times, ops end to end)" : "step (one per op and copy, in trace order)"; }

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
var perGroup = {}; tracks.forEach(function (t) { perGroup[t.group] = (perGroup[t.group] || 0) + 1; });
var rowOf = {}, tickText = [], tickVals = [];
M.order.forEach(function (ti, k) {
  var t = tracks[ti], shared = perGroup[t.group] > 1;
  rowOf[ti] = k; tickVals.push(k);
  tickText.push(esc(t.short + (shared ? " (" + groups[t.group].label.replace(/ \(physical\).*/, "") + ")" : "")));
});
var sessionRow = null, runRow = null, nrows = M.order.length;
if (sessions.length || messages.length) { sessionRow = nrows++; tickVals.push(sessionRow); tickText.push("sessions & log"); }
if (runs.length) { runRow = nrows++; tickVals.push(runRow); tickText.push("Session.run"); }
var callRow = null;
if (calls.length) { callRow = nrows++; tickVals.push(callRow); tickText.push("tf.function"); }
var BAR = 16;
function segments(list, row, x, w, text) {  // thick line segments: one SVG path per trace however many ops
  var xs = [], ys = [], tx = [];
  list.forEach(function (it) { var x0 = x(it), x1 = x0 + w(it), y = row(it), s = text(it); xs.push(x0, (x0 + x1) / 2, x1, null); ys.push(y, y, y, null); tx.push(s, s, s, null); });
  return {xs: xs, ys: ys, text: tx};
}
function bars(name, list, color, row, x, w, text, width, extra) {
  var s = segments(list, row, x, w, text);
  var tr = {type: "scatter", mode: "lines", name: esc(name), x: s.xs, y: s.ys, hovertext: s.text, hoverinfo: "text",
            line: {color: color, width: width || BAR}, connectgaps: false};
  for (var k in extra || {}) tr[k] = extra[k];
  return tr;
}
function opText(o) {
  var t = tracks[o.t].short;
  if (o.late) return esc(o.op) + " #" + o.seq + " on " + esc(t) + "<br>(sampled out; drawn because a copy reads it)";
  return "<b>" + esc(o.op) + "</b> #" + o.seq + " on " + esc(t) + " \u2014 " + esc(o.reason) + (o.node ? "<br>node " + esc(o.node) : "") +
    "<br>requested " + esc(o.req || "(none)") + "<br>" + (o.shape ? "[" + esc(o.shape.join(",")) + "] " : "") + esc(o.dtype || "") +
    (o.bytes != null ? " \u00b7 " + fmtBytes(o.bytes) : "") + (o.ns ? "<br>kernel " + fmtNs(o.ns) : "") + (o.mem != null ? "<br>in use on " + esc(t) + " after it: " + fmtBytes(o.mem) : "") +
    (o.src ? "<br>from " + esc(o.src) : "");
}
function copyText(c) { return esc(c.name) + ": " + fmtBytes(c.bytes) + " " + esc(tracks[c.src].short) + " \u2192 " + esc(tracks[c.t].short) + "<br>for " + esc(c.op) + " #" + c.seq + " (input " + c.index + ")" + (c.producer != null ? ", output of #" + c.producer : ""); }
function timelineTraces() {
  var devRow = function (it) { return rowOf[it.t]; };
  var counts = {}; ops.forEach(function (o) { if (!reasonClass(o.reason)) counts[o.op] = (counts[o.op] || 0) + 1; });
  var names = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
  var top = names.slice(0, PALETTE.length), isTop = {}; top.forEach(function (n) { isTop[n] = true; });
  var traces = top.map(function (n, i) { return bars(n, ops.filter(function (o) { return o.op === n && !reasonClass(o.reason); }), PALETTE[i], devRow, X, W, opText, BAR, {legendgroup: "ops"}); });
  var rest = ops.filter(function (o) { return !isTop[o.op] && !reasonClass(o.reason); });
  if (rest.length) traces.push(bars("other ops", rest, "#bab0ac", devRow, X, W, opText));
  var fall = ops.filter(function (o) { return reasonClass(o.reason) === "fallback"; }), soft = ops.filter(function (o) { return reasonClass(o.reason) === "soft"; });
  if (fall.length) traces.push(bars("CPU fallback (no GPU kernel)", fall, "#c62828", devRow, X, W, opText));
  if (soft.length) traces.push(bars("soft placement", soft, "#ef6c00", devRow, X, W, opText));
  if (copies.length) traces.push(bars("copy (on the destination)", copies, "#37474f", devRow, X, W, copyText, 8));
  var ax = [], ay = [], at = [], size = [];
  copies.forEach(function (c) {  // producer op -> consumer op (eager) or -> the copy (graph mode)
    var p = c.producer != null ? bySeq[c.producer] : null;
    if (!p || rowOf[p.t] == null || rowOf[c.t] == null) return;
    var end = c.eager && bySeq[c.seq] && !bySeq[c.seq].late ? bySeq[c.seq] : c;
    var s = copyText(c);
    ax.push(X(p) + W(p), end === c ? X(c) + W(c) / 2 : X(end), null); ay.push(rowOf[p.t], rowOf[c.t], null);
    at.push(s, s, null); size.push(0, 13, 0);
  });
  if (ax.length) traces.push({type: "scatter", mode: "lines+markers", name: "copy arrow: producer \u2192 consumer", uid: "copy-arrows", x: ax, y: ay,
    hovertext: at, hoverinfo: "text", line: {color: "#d81b60", width: 1.5}, marker: {symbol: "arrow", angleref: "previous", size: size, color: "#d81b60"}});
  if (ooms.length) traces.push({type: "scatter", mode: "markers", name: "OOM", x: ooms.map(function (o) { return T(o.ts); }), y: ooms.map(function (o) { return rowOf[o.t] - 0.32; }),
    marker: {symbol: "triangle-down", size: 13, color: "#c62828"}, hoverinfo: "text",
    hovertext: ooms.map(function (o) { return "OOM: " + esc(o.op) + " #" + o.seq + " asked for " + fmtBytes(o.bytes) + "<br>" + o.n + " live allocations, " + fmtBytes(o.live); })});
  if (sessions.length) traces.push(bars("tf.compat.v1.Session", sessions, "#b0bec5", function () { return sessionRow; }, function (s) { return T(s.ts); },
    function (s) { return T(s.ts + s.dur) - T(s.ts); }, function (s) { return "tf.compat.v1.Session #" + s.i + ": " + s.ops + " ops placed and run"; }, 12));
  if (messages.length) traces.push({type: "scatter", mode: "markers", name: "log message", x: messages.map(function (m) { return T(m.ts); }), y: messages.map(function () { return sessionRow; }),
    marker: {symbol: "line-ns-open", size: 14, color: messages.map(function (m) { return m.level === "INFO" ? "#78909c" : "#ef6c00"; })}, hoverinfo: "text",
    hovertext: messages.map(function (m) { return esc(m.level + ": " + m.text.slice(0, 300)).replace(/\n/g, "<br>"); })});
  if (runs.length) traces.push(bars("Session.run call", runs, "#5c6bc0", function () { return runRow; }, function (r) { return T(r.ts); },
    function (r) { return Math.max(T(r.ts + r.dur) - T(r.ts), 1e-9); },
    function (r) { return "Session.run #" + r.i + (r.session > 1 ? " of session " + r.session : "") + ": " + r.ops + " nodes executed, " + r.placed + " placed" + (r.error ? "<br>raised " + esc(r.error) : ""); }, 12, {uid: "session-runs"}));
  if (calls.length) traces.push(bars("tf.function call", calls, "#00897b", function () { return callRow; }, function (c) { return T(c.ts); },
    function (c) { return Math.max(T(c.ts + c.dur) - T(c.ts), 1e-9); },
    function (c) { return esc(c.fn) + " #" + c.i + ": " + c.ops + " nodes executed" + (c.error ? "<br>raised " + esc(c.error) : ""); }, 12, {uid: "function-calls"}));
  return traces;
}
function drawTimeline() {
  var shapes = [];
  if (sampling) shapes.push({type: "line", x0: T(sampling.ts), x1: T(sampling.ts), y0: -0.5, y1: nrows - 0.5, line: {color: "#8a4b00", dash: "dash", width: 1}});
  M.order.forEach(function (ti, k) { if (k % 2) shapes.push({type: "rect", layer: "below", xref: "paper", x0: 0, x1: 1, y0: k - 0.5, y1: k + 0.5, fillcolor: "#f5f7f9", line: {width: 0}}); });
  Plotly.react("tl-plot", timelineTraces(), {
    height: 120 + 34 * nrows, margin: {l: 150, r: 16, t: 34, b: 44}, hovermode: "closest", showlegend: true,
    legend: {orientation: "h", x: 0, y: 1.0, yanchor: "bottom", font: {size: 11}},
    xaxis: {title: {text: axisTitle(), font: {size: 11}}, zeroline: false, rangemode: "tozero"},
    yaxis: {tickvals: tickVals, ticktext: tickText, range: [nrows - 0.5, -0.5], zeroline: false, showgrid: false, fixedrange: true},
    shapes: shapes, plot_bgcolor: "#fff"}, CONFIG);
  document.getElementById("tl-note").textContent = (sampling ? "Dashed line: from here 1 op in " + sampling.every + " is drawn. " : "") +
    "Drag to zoom, double-click to reset; hover an op for its seq, reason, shape, bytes, kernel time and memory." +
    (runs.length ? " A node placed by an earlier Session.run call is drawn where it was placed." : "");
}
function setLayout(l) {
  layout = l;
  document.getElementById("lay-measured").className = l === "measured" ? "on" : "";
  document.getElementById("lay-sequence").className = l === "sequence" ? "on" : "";
  drawTimeline(); drawMemory();
}
if (!measured) document.getElementById("lay-measured").disabled = true;
document.getElementById("lay-measured").onclick = function () { setLayout("measured"); };
document.getElementById("lay-sequence").onclick = function () { setLayout("sequence"); };

// -- memory: one chart per device --------------------------------------------------------------
function byteTicks(top) {
  var vals = [], text = [], units = ["B", "KiB", "MiB", "GiB", "TiB"];
  for (var i = 0; i < units.length && Math.pow(1024, i) <= top * 4; i++) { vals.push(Math.pow(1024, i)); text.push("1 " + units[i]); }
  return {vals: vals, text: text};
}
function drawMemory() {
  var grid = document.getElementById("mem-grid");
  var end = 0; items.forEach(function (it) { end = Math.max(end, X(it) + W(it)); }); runs.concat(sessions, calls).forEach(function (s) { end = Math.max(end, T(s.ts + s.dur)); });
  grid.innerHTML = "";
  M.order.forEach(function (ti) {
    var t = tracks[ti], pts = mems.filter(function (m) { return m.t === ti; });
    if (!pts.length) return;
    var div = document.createElement("div"); div.className = "mem-chart"; div.setAttribute("data-device", t.short); grid.appendChild(div);
    var last = pts[pts.length - 1], top = 1;
    pts.forEach(function (m) { top = Math.max(top, m.res || 0, m.use || 0, m.peak || 0, m.lim || 0); });
    function series(name, get, color, dash, width) {
      var xs = [], ys = [];
      pts.forEach(function (m) { var v = get(m); if (v == null) return; xs.push(T(m.ts)); ys.push(v > 0 ? v : null); });
      if (xs.length) { xs.push(end); ys.push(ys[ys.length - 1]); }
      return {type: "scatter", mode: "lines", name: name, x: xs, y: ys, line: {shape: "hv", color: color, dash: dash, width: width || 1.6},
              hovertemplate: name + ": %{customdata}<extra></extra>", customdata: ys.map(fmtBytes)};
    }
    var tk = byteTicks(top);
    Plotly.newPlot(div, [series("in use", function (m) { return m.use; }, "#fb8c00", "solid", 2), series("peak", function (m) { return m.peak; }, "#8e24aa", "dot"),
      series("reserved", function (m) { return m.res; }, "#1e88e5", "solid"), series("limit", function (m) { return m.lim; }, "#c62828", "dash")], {
      title: {text: esc(t.short) + " <span style='font-size:11px;color:#5f6b7a'>in use " + fmtBytes(last.use) + " \u00b7 peak " + fmtBytes(last.peak) + " \u00b7 reserved " + fmtBytes(last.res) + (last.lim != null ? " \u00b7 limit " + fmtBytes(last.lim) : "") + "</span>", font: {size: 13}, x: 0.02, y: 0.97},
      height: 188, margin: {l: 52, r: 8, t: 28, b: 24}, showlegend: false, hovermode: "x unified",
      xaxis: {range: [0, end], zeroline: false}, yaxis: {type: "log", tickvals: tk.vals, ticktext: tk.text, range: [-0.1, Math.log10(top * 2)]}},
      {displaylogo: false, responsive: true, displayModeBar: false});
  });
  document.getElementById("mem-note").textContent = "Log scale. In use after every op (the trace records it), reserved at each region the allocator took, peak and limit; orange: in use, purple dotted: peak, blue: reserved, red dashed: limit.";
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
setLayout(layout);
})();
"""
