"""``devtrace run --trace-limit N``: the trace keeps the run's first ``N`` executed ops and counts the rest.

The first ``N``, not the last: the trace streams as the program runs, so a killed run's file still
holds its ops (a ring of the last ``N`` could only be written when the run ends); the first
occurrence of each op is where its placement was decided (the runtime caches it after); and two
limited runs of a program hold the same prefix, which ``devtrace diff`` matches op by op. This is
Perfetto's ``DISCARD`` buffer policy and Chrome tracing's "record until full", not a flight recorder.

Past the limit, the per-op records — ``op_placed``, ``tensor_copied`` and the ``session_run`` /
``function_call`` records around them — are counted, not written: ops per op type and device
(with their CPU fallbacks), copies and their bytes, calls. The ``trace_limited`` record written
before ``trace_end`` holds those counts, so summaries, checks and ``diff`` stay exact. Everything
else (devices, memory figures and peaks, OOMs, messages) is always written. A function graph's
placement records (``seq`` 0: not executed ops) are kept and not counted against the limit.
"""

from __future__ import annotations

from .events import FALLBACK, OpRecord, TraceLimited

_PER_OP = frozenset(("op_placed", "tensor_copied", "session_run", "function_call"))


class Limiter:
    """Filters a run's events in trace order (``jsonl.Stream.write`` hands it each batch)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.kept = 0  # executed ops written
        self.ops = self.copies = self.copy_bytes = self.calls = 0  # counted past the limit
        self.by_type: dict = {}  # (op, device) -> [ops, fallbacks], past the limit
        self.open = 0  # calls whose start record was left out and whose end has not come yet

    def filter(self, events) -> list:
        """The events to write out of ``events``; the others are counted."""
        out = []
        for e in events:
            if type(e) is OpRecord:  # an executed op, as the execution step records it
                if self.kept < self.limit:
                    self.kept += 1
                    out.append(e)
                else:
                    self._count_op(e.op, e.device, e.reason)
                continue
            kind = e.kind
            if kind not in _PER_OP or self.kept < self.limit and not self.open:
                if kind == "op_placed" and e.seq:
                    self.kept += 1
                out.append(e)
            elif kind == "op_placed":
                if e.seq:
                    self._count_op(e.op, e.device, e.reason)
                else:
                    out.append(e)
            elif kind == "tensor_copied":
                self.copies += 1
                self.copy_bytes += e.nbytes
            elif not e.end:
                self.open += 1
                self.calls += 1
            elif self.open:
                self.open -= 1
            else:  # the end of a call whose start was written: the slice closes
                out.append(e)
        return out

    def _count_op(self, op, device, reason) -> None:
        self.ops += 1
        counts = self.by_type.get((op, device))
        if counts is None:
            counts = self.by_type[(op, device)] = [0, 0]
        counts[0] += 1
        if reason == FALLBACK:
            counts[1] += 1

    def record(self):
        """The ``trace_limited`` record, or ``None`` when nothing was left out."""
        if not (self.ops or self.copies or self.calls):
            return None
        rows = [[op, device, n, fallbacks] for (op, device), (n, fallbacks) in sorted(self.by_type.items())]
        return TraceLimited(self.limit, self.ops, rows, self.copies, self.copy_bytes, self.calls)


def limited_note(limit: int, left_out: int) -> str:
    """What every view of a ``--trace-limit`` trace says about it."""
    return f"trace limited to its first {limit} ops (--trace-limit): {left_out} more not recorded"


def parse(text: str) -> int:
    """``--trace-limit``'s value: a whole number of ops, at least 1 (``UsageError`` otherwise)."""
    from ..errors import UsageError

    value = text.strip()
    if value.isascii() and value.isdigit() and int(value) >= 1:
        return int(value)
    raise UsageError(f"--trace-limit {text}: expected a whole number of ops, at least 1 "
                     f"(e.g. --trace-limit 100000 keeps the first 100000 ops)")
