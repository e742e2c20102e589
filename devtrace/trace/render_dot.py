"""Graphviz DOT: ops clustered by device, data edges between them, copies as red edges.

One ``subgraph cluster_<n>`` per device (in device order, labelled ``GPU:0``), one node per
``OpPlaced`` (``op<seq>``, labelled ``op`` or ``node: op``), an edge from the op that produced
each input to its consumer. An edge that crosses devices is red, labelled with the bytes copied
when the trace recorded the copy. The output depends only on the events (stable order).
"""

from __future__ import annotations

from ..output import format_bytes
from .render_table import copies_by_seq, device_sort_key, short_device


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render(events) -> str:
    placed = [e for e in events if e.kind == "op_placed"]
    by_seq = {e.seq: e for e in placed}
    copies = copies_by_seq(events)
    devices = sorted({e.device for e in placed}, key=device_sort_key)
    out = ["digraph devtrace {", "  rankdir=TB;", '  node [shape=box, fontname="Helvetica"];',
           '  edge [fontname="Helvetica"];']
    for n, device in enumerate(devices):
        out.append(f"  subgraph cluster_{n} {{")
        out.append(f"    label={_quote(short_device(device))};")
        for e in placed:
            if e.device == device:
                label = f"{e.node}: {e.op}" if e.node else e.op
                out.append(f"    op{e.seq} [label={_quote(label)}];")
        out.append("  }")
    for e in placed:
        for index, producer in enumerate(e.inputs or ()):
            src = by_seq.get(producer) if producer else None
            if src is None:
                continue
            if src.device == e.device:
                out.append(f"  op{src.seq} -> op{e.seq};")
                continue
            copy = next((c for c in copies.get(e.seq, ()) if c.input_index == index), None)
            attrs = "color=red, fontcolor=red"
            if copy is not None:
                attrs += f", label={_quote(format_bytes(copy.nbytes))}"
            out.append(f"  op{src.seq} -> op{e.seq} [{attrs}];")
    out.append("}")
    return "\n".join(out) + "\n"
