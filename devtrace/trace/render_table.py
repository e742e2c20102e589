"""The placement table: one row per op, with the reason column TensorFlow never shows.

Also home of the small helpers every renderer shares: short device names (``GPU:0``) and a
stable device order (CPU before GPU, then by index).
"""

from __future__ import annotations

import re

from ..output import format_bytes
from .limit import limited_note

LOCAL_PREFIX = "/job:localhost/replica:0/task:0/device:"
HEADERS = ["seq", "op", "node", "requested", "device", "reason", "copies in"]
SRC = "src"  # the column of the program's line that made each op (last: it gives way first)
_FULL = re.compile(r"^/job:([^/]*)/replica:(\d+)/task:(\d+)/device:([^:/]+):(\d+)$")
_TYPE_RANK = {"CPU": 0, "GPU": 1}


def short_device(name: str | None) -> str:
    """``/job:localhost/replica:0/task:0/device:GPU:1`` → ``GPU:1``; other jobs keep their full name."""
    if not name:
        return ""
    if name.startswith(LOCAL_PREFIX):
        return name[len(LOCAL_PREFIX):]
    return name


def device_sort_key(name: str):
    """Order devices as TensorFlow lists them: by job/replica/task, CPU first, then by index."""
    m = _FULL.match(name or "")
    if m is None:
        return (1, name or "", 0, 0, 0, "", 0)
    job, replica, task, dtype, index = m.groups()
    return (0, job, int(replica), int(task), _TYPE_RANK.get(dtype, 2), dtype, int(index))



def copies_by_seq(events) -> dict[int, list]:
    """TensorCopied events grouped by the seq of the op that needed them."""
    out: dict[int, list] = {}
    for e in events:
        if e.kind == "tensor_copied":
            out.setdefault(e.seq, []).append(e)
    return out


def rows(events, limited: list | None = None, src: bool = False) -> list[list[str]]:
    """Table rows: seq, op, node, requested, device (short), reason, copies in (``2 (96 B)``), and with
    ``src`` the program's line that made the op (``""``: not recorded); ``limited`` receives a
    ``--trace-limit`` trace's ``trace_limited`` record."""
    copies = copies_by_seq(events)
    out = []
    for e in events:
        if e.kind != "op_placed":
            if e.kind == "trace_limited" and limited is not None:
                limited.append(e)
            continue
        cs = copies.get(e.seq, ())
        copied = f"{len(cs)} ({format_bytes(sum(c.nbytes for c in cs))})" if cs else ""
        row = [str(e.seq), e.op, e.node or "", short_device(e.requested), short_device(e.device), e.reason, copied]
        if src:
            row.append(e.src or "")
        out.append(row)
    return out


def table(events, limited: list | None = None) -> tuple[list[str], list[list[str]]]:
    """``(headers, rows)``: the ``src`` column last, when the trace recorded where its ops came from."""
    body = rows(events, limited, src=True)
    if any(row[-1] for row in body):
        return HEADERS + [SRC], body
    return HEADERS, [row[:-1] for row in body]


def narrowed(headers: list[str], body: list[list[str]], width: int) -> tuple[list[str], list[list[str]]]:
    """The table for a terminal ``width`` columns wide: the ``src`` column gives way first (dropped)
    when the boxed table would not fit with it."""
    if headers[-1] != SRC:
        return headers, body
    widths = [max([len(h)] + [len(row[i]) for row in body]) for i, h in enumerate(headers)]
    if sum(widths) + 3 * len(widths) + 1 <= width:
        return headers, body
    return headers[:-1], [row[:-1] for row in body]


def render(events) -> str:
    """The table as plain aligned text (for files and pipes); empty when no op ran."""
    from ..output import format_plain_table

    limited: list = []
    headers, body = table(events, limited)
    if not body:
        return ""
    note = "".join(limited_note(e.limit, e.ops) + "\n" for e in limited)
    return format_plain_table(headers, body, right=(0,)) + note


def print_placement_table(events) -> None:
    """Print the table to stdout: rich on a terminal, plain text otherwise."""
    import shutil
    import sys

    from ..output import is_terminal, print_table

    headers, body = table(events)
    if not body:
        sys.stdout.write("No ops ran.\n")
        return
    if is_terminal(sys.stdout):
        headers, body = narrowed(headers, body, shutil.get_terminal_size((80, 24)).columns)
    print_table(headers, body, right=(0,))
