"""Grouped views of a trace (``--group-by scope|step|device|op|src``): one row per name scope (a Keras
layer, a ``tf.name_scope``), per step (a ``tf.function`` call, a ``Session.run``), per device, per
op type or per line of the program that made the ops (``src``) — its ops, where they ran, why (the
placement reasons, counted), the copies its ops needed and their kernel time. Only ops that ran count (not a function body's placement records, seq 0).
One pass over the events, so a trace of any length is read once; rows are
cut to fit the width asked for (80 columns in files and pipes)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import events as ev
from ..output import format_bytes
from .render_table import device_sort_key, short_device

GROUPS = ("scope", "step", "device", "op", "src")
EAGER = "(eager)"  # an eager op outside any scope: it has no node name
OUTSIDE = ("(outside steps)",)  # ops no step ran: eager ops between tf.function calls
TOP = "(top level)"  # a graph node outside any name scope
UNKNOWN_SRC = "(not recorded)"  # an op without src: an imported log, a trace of a library run
BACKWARD = "gradient_tape/"  # the name scope TensorFlow 2 builds a tape's gradient in
_SHORT_REASON = {ev.FALLBACK: "fallback", ev.SOFT: "soft"}
_ELLIPSIS = "…"


@dataclass(slots=True)
class Group:
    """What the ops of one row did."""

    ops: int = 0
    devices: dict = field(default_factory=dict)  # full device name -> ops
    reasons: dict = field(default_factory=dict)  # reason -> ops
    fallbacks: int = 0
    copies: int = 0
    copy_bytes: int = 0
    duration_ns: int = 0

    def add(self, e) -> None:
        self.ops += 1
        self.devices[e.device] = self.devices.get(e.device, 0) + 1
        self.reasons[e.reason] = self.reasons.get(e.reason, 0) + 1
        if e.reason == ev.FALLBACK:
            self.fallbacks += 1
        self.duration_ns += e.duration_ns or 0

    def copied(self, e) -> None:
        self.copies += 1
        self.copy_bytes += e.nbytes


def node_scope(node: str | None, nodes: set) -> str:
    """The name scope a node was built in: its name without the last part, and without the parts
    that are themselves nodes (``dense/MatMul/ReadVariableOp`` was built in ``dense``'s scope,
    within ``MatMul``'s name)."""
    if node is None:
        return EAGER
    scope = node.rpartition("/")[0]
    while scope and scope in nodes:
        scope = scope.rpartition("/")[0]
    return scope or TOP


def scope_key(node: str | None, nodes: set) -> tuple[str, str]:
    """``(scope, pass)``: a gradient's node (``gradient_tape/sequential/dense/MatMul/MatMul_1``) counts
    for its forward op's scope (``sequential/dense``), as pass ``bwd``."""
    if node is None:
        return EAGER, ""
    if node.startswith(BACKWARD):
        return node_scope(node[len(BACKWARD):], nodes), "bwd"
    return node_scope(node, nodes), "fwd"


def _step_name(function: str) -> str:
    return function[len("__inference_"):] if function.startswith("__inference_") else function


def group(events, by: str) -> tuple[list, dict]:
    """``(keys in first-seen order, {key: Group})``; a key is a tuple of the row's leading cells."""
    if by not in GROUPS:
        raise ValueError(by)
    groups: dict = {}
    order: list = []
    by_seq: dict = {}  # seq -> key, for the copies an op needed (recorded next to it)
    pending: dict = {}  # seq -> the copies recorded before their op
    nodes: set = set()
    if by == "scope":
        nodes = {e.node for e in events if e.kind == "op_placed" and e.node is not None}
    step = None  # the key of the step in progress
    for e in events:
        kind = e.kind
        if kind == "op_placed":
            if not e.seq:  # a function body's node as its placer placed it, not an op that ran
                continue
            if by == "scope":
                key = scope_key(e.node, nodes)
            elif by == "device":
                key = (short_device(e.device),)
            elif by == "op":
                key = (e.op,)
            elif by == "src":
                key = (e.src or UNKNOWN_SRC,)
            else:
                key = OUTSIDE if step is None else step
            g = groups.get(key)
            if g is None:
                g = groups[key] = Group()
                order.append(key)
            g.add(e)
            by_seq[e.seq] = key
            for c in pending.pop(e.seq, ()):
                g.copied(c)
        elif kind == "tensor_copied":  # recorded before the op that needed it ran (or after, imported)
            key = by_seq.get(e.seq)
            if key is not None:
                groups[key].copied(e)
            else:
                pending.setdefault(e.seq, []).append(e)
        elif by == "step" and kind in ("function_call", "session_run"):
            if kind == "function_call":
                name = (f"{_step_name(e.function)} #{e.index}",)
            else:
                name = (f"Session.run #{e.session}.{e.index}",)
            if not e.end:
                step = name
                if name not in groups:
                    groups[name] = Group()
                    order.append(name)
            else:
                step = None
    if by == "device":
        order.sort(key=lambda k: device_sort_key(ev_full(k[0])))
    return order, groups


def ev_full(short: str) -> str:
    from .render_table import LOCAL_PREFIX

    return short if short.startswith("/") else LOCAL_PREFIX + short


def _devices(g: Group) -> str:
    items = sorted(g.devices.items(), key=lambda kv: device_sort_key(kv[0]))
    if len(items) == 1:
        return short_device(items[0][0])
    return ",".join(f"{short_device(d)} {n}" for d, n in items)


def _why(g: Group) -> str:
    items = sorted(g.reasons.items(), key=lambda kv: (kv[0] not in _SHORT_REASON, -kv[1], kv[0]))
    return ", ".join(f"{_SHORT_REASON.get(r, r)} {n}" for r, n in items)


def _time(ns: int) -> str:
    if ns < 1_000:
        return f"{ns} ns"
    if ns < 1_000_000:
        return f"{ns / 1e3:.1f} µs"
    if ns < 1_000_000_000:
        return f"{ns / 1e6:.1f} ms"
    return f"{ns / 1e9:.2f} s"


HEADERS = {
    "scope": ["scope", "pass"],
    "step": ["step"],
    "device": ["device"],
    "op": ["op"],
    "src": ["src"],
}
TAIL = ["ops", "devices", "why", "copies", "time"]


def table(events, by: str) -> tuple[list[str], list[list[str]], tuple[int, ...]]:
    """``(headers, rows, right-aligned columns)`` of the grouped view."""
    order, groups = group(events, by)
    lead = HEADERS[by]
    rows = []
    for key in order:
        g = groups[key]
        copies = f"{g.copies} ({format_bytes(g.copy_bytes)})" if g.copies else ""
        rows.append(list(key) + [str(g.ops), _devices(g) if g.ops else "", _why(g), copies, _time(g.duration_ns)])
    n = len(lead)
    return lead + TAIL, rows, (n, n + 4)


def fit(headers: list[str], rows: list[list[str]], width: int) -> list[list[str]]:
    """Rows whose plain table (two spaces between columns) is at most ``width`` wide: ``why`` is cut
    first (ending ``…``, down to 8 characters), then ``devices`` (down to 10), then the row's name (in
    its middle, down to 12): the name is what the row is about; fallbacks and soft placements are
    named first in ``why``."""
    n = len(headers) - len(TAIL)
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    for i, floor in ((n + 2, 8), (n + 1, 10), (0, 12)):
        excess = sum(widths) + 2 * (len(widths) - 1) - width
        if excess <= 0:
            break
        widths[i] = max(min(widths[i], floor), widths[i] - excess)
    return [[c if i not in (0, n + 1, n + 2) or len(c) <= widths[i] else _cut(c, widths[i], middle=i == 0)
             for i, c in enumerate(r)] for r in rows]


def _cut(text: str, width: int, middle: bool) -> str:
    """``text`` in ``width`` characters: its end cut (``…``), or its middle (a name's last part and a
    step's number stay)."""
    if not middle:
        return text[:width - 1] + _ELLIPSIS
    tail = (width - 1) // 2 + (width - 1) % 2
    return text[:width - 1 - tail] + _ELLIPSIS + text[len(text) - tail:]


def width() -> int:
    """The terminal's width on a terminal (``COLUMNS`` when set), else 80."""
    import shutil

    return shutil.get_terminal_size((80, 24)).columns


def render(events, by: str, cols: int | None = None) -> str:
    """The grouped table as plain text, fitted to ``cols`` (the terminal's, or 80)."""
    from ..output import format_plain_table

    headers, rows, right = table(events, by)
    if not rows:
        return ""
    return format_plain_table(headers, fit(headers, rows, cols or width()), right=right)
