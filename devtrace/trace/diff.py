"""``devtrace diff A B``: what changed between two traces of the same program.

Ops are matched by node name where both traces name the op (the k-th ``MatMul_1`` in A with
the k-th ``MatMul_1`` in B), the rest by position among ops of the same type (the k-th
``MatMul`` in A with the k-th ``MatMul`` in B). An op is labelled ``MatMul #k``, ``k`` counting
from 0 like device ids and TensorFlow's node suffixes (``MatMul``, ``MatMul_1``, …).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import events as ev
from ..output import format_bytes
from .render_table import device_sort_key, short_device

CHECKS = ("moved", "copies", "fallback", "peak")


@dataclass
class OpRef:
    label: str  # MatMul #1
    op: str
    node: str | None
    device: str  # full name
    seq: int


@dataclass
class Moved:
    label: str
    op: str
    node: str | None
    a_device: str
    b_device: str
    a_seq: int
    b_seq: int


@dataclass
class Side:
    """The totals of one trace."""

    ops: int = 0
    copies: int = 0
    copy_bytes: int = 0
    fallbacks: int = 0
    peak: dict = field(default_factory=dict)  # device full name -> bytes (last MemoryStats)


@dataclass
class DiffResult:
    a: Side
    b: Side
    matched: int = 0
    moved: list = field(default_factory=list)  # [Moved]
    only_a: list = field(default_factory=list)  # [OpRef]
    only_b: list = field(default_factory=list)  # [OpRef]

    @property
    def copies_change(self) -> int:
        return self.b.copies - self.a.copies

    @property
    def copy_bytes_change(self) -> int:
        return self.b.copy_bytes - self.a.copy_bytes

    def peak_devices(self) -> list[str]:
        return sorted(set(self.a.peak) | set(self.b.peak), key=device_sort_key)


def _side(events) -> Side:
    s = Side()
    for e in events:
        kind = e.kind
        if kind == "op_placed":
            s.ops += 1
            if e.reason == ev.FALLBACK:
                s.fallbacks += 1
        elif kind == "tensor_copied":
            s.copies += 1
            s.copy_bytes += e.nbytes
        elif kind == "memory_stats":
            s.peak[e.device] = e.peak
    return s


def _labels(ops) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for e in ops:
        k = seen.get(e.op, 0)
        seen[e.op] = k + 1
        if e.op == "?" and e.node:  # an imported TF <= 1.4 line: only the node name is known
            label = e.node
        else:
            label = f"{e.op} #{k}" + (f" ({e.node})" if e.node and e.node != e.op else "")
        out.append(label)
    return out


def _occurrences(ops, key) -> dict:
    """(key(op), k) → index in ``ops``, where k counts earlier ops with the same key."""
    seen: dict = {}
    out = {}
    for i, e in enumerate(ops):
        kv = key(e)
        if kv is None:
            continue
        k = seen.get(kv, 0)
        seen[kv] = k + 1
        out[(kv, k)] = i
    return out


def diff(a_events, b_events) -> DiffResult:
    a_ops = [e for e in a_events if e.kind == "op_placed"]
    b_ops = [e for e in b_events if e.kind == "op_placed"]
    result = DiffResult(_side(a_events), _side(b_events))
    pairs: dict[int, int] = {}  # index in a_ops -> index in b_ops
    # 1. by node name, where both traces name the op
    a_nodes = _occurrences(a_ops, lambda e: e.node)
    b_nodes = _occurrences(b_ops, lambda e: e.node)
    for key, i in a_nodes.items():
        j = b_nodes.get(key)
        if j is not None:
            pairs[i] = j
    # 2. the rest by position among ops of the same type
    taken_b = set(pairs.values())
    a_rest = [i for i in range(len(a_ops)) if i not in pairs]
    b_rest = [j for j in range(len(b_ops)) if j not in taken_b]
    b_by_type: dict[str, list[int]] = {}
    for j in b_rest:
        b_by_type.setdefault(b_ops[j].op, []).append(j)
    for i in a_rest:
        queue = b_by_type.get(a_ops[i].op)
        if queue:
            pairs[i] = queue.pop(0)
    a_labels, b_labels = _labels(a_ops), _labels(b_ops)
    result.matched = len(pairs)
    for i in sorted(pairs):
        j = pairs[i]
        a, b = a_ops[i], b_ops[j]
        if a.device != b.device:
            result.moved.append(Moved(a_labels[i], a.op, a.node, a.device, b.device, a.seq, b.seq))
    matched_b = set(pairs.values())
    result.only_a = [OpRef(a_labels[i], e.op, e.node, e.device, e.seq)
                     for i, e in enumerate(a_ops) if i not in pairs]
    result.only_b = [OpRef(b_labels[j], e.op, e.node, e.device, e.seq)
                     for j, e in enumerate(b_ops) if j not in matched_b]
    return result


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "±0"


def _signed_bytes(n: int) -> str:
    return ("+" if n > 0 else "−" if n < 0 else "±") + format_bytes(abs(n))


def _size(n: int | None) -> str:
    return "-" if n is None else format_bytes(n)


def render(result: DiffResult) -> str:
    a, b = result.a, result.b
    out = [f"ops: A {a.ops} · B {b.ops} · matched {result.matched}"]
    out.append(f"moved: {len(result.moved)}")
    out.extend(f"  {m.label}: {short_device(m.a_device)} → {short_device(m.b_device)}" for m in result.moved)
    for title, refs in (("only in A", result.only_a), ("only in B", result.only_b)):
        out.append(f"{title}: {len(refs)}")
        out.extend(f"  {r.label} on {short_device(r.device)}" for r in refs)
    out.append(f"copies: A {a.copies} ({format_bytes(a.copy_bytes)}) · B {b.copies} ({format_bytes(b.copy_bytes)})"
               f" · {_signed(result.copies_change)} ({_signed_bytes(result.copy_bytes_change)})")
    out.append(f"fallbacks: A {a.fallbacks} · B {b.fallbacks} · {_signed(b.fallbacks - a.fallbacks)}")
    devices = result.peak_devices()
    if devices:
        from ..output import format_plain_table

        rows = []
        for d in devices:
            pa, pb = a.peak.get(d), b.peak.get(d)
            change = "" if pa is None or pb is None else _signed_bytes(pb - pa)
            rows.append(["  " + short_device(d), _size(pa), _size(pb), change])
        out.append("peak memory:")
        table = format_plain_table(["  device", "A", "B", "change"], rows, right=(1, 2, 3))
        out.append(table.rstrip("\n"))
    return "\n".join(out) + "\n"


def to_json(result: DiffResult) -> dict:
    def side(s: Side) -> dict:
        return {"ops": s.ops, "copies": s.copies, "copy_bytes": s.copy_bytes, "fallbacks": s.fallbacks,
                "peak": {d: s.peak[d] for d in sorted(s.peak, key=device_sort_key)}}

    def ref(r: OpRef) -> dict:
        return {"label": r.label, "op": r.op, "node": r.node, "device": r.device, "seq": r.seq}

    return {
        "schema": 1,
        "a": side(result.a),
        "b": side(result.b),
        "matched": result.matched,
        "moved": [{"label": m.label, "op": m.op, "node": m.node, "a_device": m.a_device,
                   "b_device": m.b_device, "a_seq": m.a_seq, "b_seq": m.b_seq} for m in result.moved],
        "only_a": [ref(r) for r in result.only_a],
        "only_b": [ref(r) for r in result.only_b],
        "copies_change": result.copies_change,
        "copy_bytes_change": result.copy_bytes_change,
        "fallbacks_change": result.b.fallbacks - result.a.fallbacks,
    }


def parse_fail_on(text: str) -> set[str]:
    """``'moved,copies'`` → ``{'moved', 'copies'}``; an unknown name is a ``UsageError``."""
    from ..errors import UsageError

    names = {n.strip() for n in (text or "").split(",") if n.strip()}
    unknown = sorted(names - set(CHECKS))
    if unknown:
        raise UsageError(f"--fail-on {unknown[0]}: unknown check (choose from {', '.join(CHECKS)})")
    return names


def failures(result: DiffResult, fail_on: set[str]) -> list[str]:
    """One message per requested check that failed, in ``CHECKS`` order."""
    a, b = result.a, result.b
    out = []
    if "moved" in fail_on and result.moved:
        first = result.moved[0]
        more = f" and {len(result.moved) - 1} more" if len(result.moved) > 1 else ""
        out.append(f"moved: {len(result.moved)} op(s) changed device "
                   f"({first.label}: {short_device(first.a_device)} → {short_device(first.b_device)}{more})")
    if "copies" in fail_on and (b.copies > a.copies or b.copy_bytes > a.copy_bytes):
        out.append(f"copies: {a.copies} ({format_bytes(a.copy_bytes)}) → {b.copies} ({format_bytes(b.copy_bytes)})")
    if "fallback" in fail_on and b.fallbacks > a.fallbacks:
        out.append(f"fallback: {a.fallbacks} → {b.fallbacks} ops fell back to the CPU")
    if "peak" in fail_on:
        grew = [d for d in result.peak_devices() if b.peak.get(d, 0) > a.peak.get(d, 0)]
        if grew:
            d = grew[0]
            more = f" and {len(grew) - 1} more" if len(grew) > 1 else ""
            out.append(f"peak: {short_device(d)} {_size(a.peak.get(d, 0))} → {_size(b.peak[d])}{more}")
    return out
