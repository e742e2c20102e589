"""Summary of a trace: ops per device, fallbacks, copies, memory per device, OOMs."""

from __future__ import annotations

from . import events as ev
from .limit import limited_note
from ..output import format_bytes, printable
from .render_table import device_sort_key, short_device



def summarize(events) -> dict:
    """Counts over a trace. Device keys are full names, in device order.

    ``memory`` holds, per device, the last ``MemoryStats`` recorded for it (bytes).
    """
    ops_per_device: dict[str, int] = {}
    fallback_ops: dict[str, int] = {}
    memory: dict[str, dict] = {}
    devices: set[str] = set()
    ops = copies = copy_bytes = ooms = 0
    limited = None
    thread, thread_names, thread_ops = 0, {0: "MainThread"}, {}
    for e in events:
        kind = e.kind
        if kind == "op_placed":
            ops += 1
            thread_ops[thread] = thread_ops.get(thread, 0) + 1
            ops_per_device[e.device] = ops_per_device.get(e.device, 0) + 1
            devices.add(e.device)
            if e.reason == ev.FALLBACK:
                fallback_ops[e.op] = fallback_ops.get(e.op, 0) + 1
        elif kind == "tensor_copied":
            copies += 1
            copy_bytes += e.nbytes
        elif kind == "memory_stats":
            memory[e.device] = {"in_use": e.in_use, "peak": e.peak, "reserved": e.reserved, "limit": e.limit}
            devices.add(e.device)
        elif kind == "oom":
            ooms += 1
        elif kind == "device_created":
            devices.add(e.name)
        elif kind == "thread":
            thread = e.thread
            thread_names[thread] = e.name
        elif kind == "trace_limited":  # devtrace run --trace-limit: the ops left out, counted
            limited = {"limit": e.limit, "ops": e.ops, "copies": e.copies}
            ops += e.ops
            copies += e.copies
            copy_bytes += e.copy_bytes
            for op, device, n, fallbacks in e.op_types:
                ops_per_device[device] = ops_per_device.get(device, 0) + n
                devices.add(device)
                if fallbacks:
                    fallback_ops[op] = fallback_ops.get(op, 0) + fallbacks
    order = sorted(devices, key=device_sort_key)
    return {
        "ops": ops,
        "ops_per_device": {d: ops_per_device.get(d, 0) for d in order},
        "fallbacks": sum(fallback_ops.values()),
        "fallback_ops": dict(sorted(fallback_ops.items())),
        "copies": copies,
        "copy_bytes": copy_bytes,
        "memory": {d: memory[d] for d in order if d in memory},
        "ooms": ooms,
        "limited": limited,
        # the program's threads that ran ops, when more than the main one did (runtime/threads.py)
        "threads": [{"thread": t, "name": thread_names[t], "ops": n} for t, n in sorted(thread_ops.items())]
        if len(thread_names) > 1 else [],
    }



def render(events) -> str:
    from ..output import format_plain_table

    s = summarize(events)
    rows = []
    for d, n in s["ops_per_device"].items():
        mem = s["memory"].get(d, {})
        rows.append([short_device(d), str(n), _human(mem.get("in_use")), _human(mem.get("peak"))])
    out = format_plain_table(["device", "ops", "in use", "peak"], rows, right=(1, 2, 3)) if rows else ""
    return out + totals(s)


def totals(s: dict) -> str:
    """The summary's closing lines: ops, fallbacks, copies, OOMs (and a ``--trace-limit`` note)."""
    out = ""
    fb = s["fallbacks"]
    kinds = ", ".join(f"{op} ×{n}" for op, n in s["fallback_ops"].items())
    out += f"ops: {s['ops']}\n"
    out += f"fallbacks: {fb}" + (f" ({kinds})" if fb else "") + "\n"
    out += f"copies: {s['copies']} ({format_bytes(s['copy_bytes'])})\n"
    out += f"OOMs: {s['ooms']}\n"
    if s.get("threads"):
        shown = ", ".join(f"{printable(t['name'])} {t['ops']}" for t in s["threads"])
        out += f"threads: {len(s['threads'])} (ops: {shown})\n"
    if s["limited"]:
        out += limited_note(s["limited"]["limit"], s["limited"]["ops"]) + " (counted above)\n"
    return out



def oom_report(event, limit: int = 10) -> str:
    """What was alive when an allocation failed, largest first: the question every OOM raises
    and TensorFlow answers with a raw chunk dump."""
    live = event.live
    total = sum(a["nbytes"] for a in live)
    lines = [f"Live allocations on {short_device(event.device)} ({event.allocator}) when {event.op} asked for "
             f"{format_bytes(event.nbytes)}: {len(live)} using {format_bytes(total)}"]
    for a in live[:limit]:
        shape = "[" + ",".join(str(d) for d in a["shape"]) + "]"
        lines.append(f"  {format_bytes(a['nbytes']):>10}  {a['op']}  shape{shape} {a['dtype']}")
    if len(live) > limit:
        lines.append(f"  … and {len(live) - limit} more")
    return "\n".join(lines) + "\n"


def _human(nbytes) -> str:
    """Human units in every view (``768 B``, ``3.5 KiB``); ``-`` when unknown."""
    return "-" if nbytes is None else format_bytes(int(nbytes))
