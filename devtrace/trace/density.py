"""Exact totals of a whole trace in a fixed number of time bins, for the HTML report's overview
(issue 34): per device and bin, how many ops ran, how long they kept the device busy and which
op type took most of that time; per pair of devices and bin, how many copies went and their
bytes. The report draws these where its per-op records are sampled or too dense to tell apart
(a stretch of a million ops stays visibly busy), and aggregates copies into flows.

The bins cover ``[0, width * bins)`` in the timeline's unit (ns, or steps in sequence layout);
the width starts at one unit and doubles (merging pairs of bins) whenever the trace outgrows
them, so memory stays O(bins x devices x op types) however long the run.
"""

from __future__ import annotations

BINS = 2048


class Density:
    def __init__(self, bins: int = BINS):
        self.bins = bins
        self.width = 1.0
        self.end = float(bins)  # width * bins
        self.ops: dict = {}  # (track, bin) -> [count, busy, {name: busy}]
        self.flows: dict = {}  # (src, dst, bin) -> [count, bytes]

    def _fit(self, end) -> None:
        while end > self.width * self.bins:
            self.width *= 2
            self.end = self.width * self.bins
            ops: dict = {}
            for (track, b), (count, busy, names) in self.ops.items():
                cell = ops.get((track, b >> 1))
                if cell is None:
                    ops[(track, b >> 1)] = [count, busy, names]
                else:
                    cell[0] += count
                    cell[1] += busy
                    for name, t in names.items():
                        cell[2][name] = cell[2].get(name, 0) + t
            self.ops = ops
            flows: dict = {}
            for (src, dst, b), (count, nbytes) in self.flows.items():
                cell = flows.setdefault((src, dst, b >> 1), [0, 0])
                cell[0] += count
                cell[1] += nbytes
            self.flows = flows

    def _add(self, track, b, count, busy, name) -> None:
        cell = self.ops.get((track, b))
        if cell is None:
            self.ops[(track, b)] = [count, busy, {name: busy}]
        else:
            cell[0] += count
            cell[1] += busy
            cell[2][name] = cell[2].get(name, 0) + busy

    def op(self, track: int, ts, dur, name: str) -> None:
        """One op (every op of the trace, sampled out or not) on ``track`` from ``ts`` for ``dur``."""
        end = ts + dur
        if end > self.end:
            self._fit(end)
        w = self.width
        b = int(ts // w)
        if end <= (b + 1) * w or b >= self.bins - 1:  # the usual case, inline: an op within one bin
            cell = self.ops.get((track, b))
            if cell is None:
                self.ops[(track, b)] = [1, dur, {name: dur}]
            else:
                cell[0] += 1
                cell[1] += dur
                names = cell[2]
                names[name] = names.get(name, 0) + dur
            return
        last = min(int(end // w), self.bins - 1)
        self._add(track, b, 1, (b + 1) * w - ts, name)  # an op longer than a bin: its time in each
        for k in range(b + 1, last):
            self._add(track, k, 0, w, name)
        if end > last * w:
            self._add(track, last, 0, end - last * w, name)

    def copy(self, src: int, dst: int, ts, dur, nbytes: int) -> None:
        if ts + dur > self.end:
            self._fit(ts + dur)
        cell = self.flows.setdefault((src, dst, int(ts // self.width)), [0, 0])
        cell[0] += 1
        cell[1] += nbytes

    def to_json(self) -> dict:
        """``ops``: [track, bin, count, busy, index of the op type that took most of the time];
        ``flows``: [src, dst, bin, count, bytes]; ``names``: the op types indexed."""
        names: dict = {}
        ops = []
        for (track, b), (count, busy, by_name) in sorted(self.ops.items()):
            top = max(by_name.items(), key=lambda kv: (kv[1], kv[0]))[0]
            ops.append([track, b, count, round(busy, 3), names.setdefault(top, len(names))])
        flows = [[src, dst, b, count, nbytes] for (src, dst, b), (count, nbytes) in sorted(self.flows.items())]
        return {"width": self.width, "bins": self.bins, "ops": ops, "flows": flows, "names": list(names)}
