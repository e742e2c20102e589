"""``devtrace import``: turn what real TensorFlow printed with device-placement logging into a trace.

Recognised lines (each with or without a glog prefix such as
``I0000 00:00:1732000000.000000   12345 execute.cc:1775] `` or
``2022-12-14 22:45:50.077454: I tensorflow/core/common_runtime/eager/execute.cc:1775] ``):

- eager: ``Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0``
- graph: ``MatMul_1: (MatMul): /job:…/device:GPU:3`` (and TF ~1.5's ``name: (Const)/job:…``)
- TF ≤ 1.4 graph: ``MatMul_1: /job:localhost/replica:0/task:0/gpu:3``. These lines carry no op
  type; it is inferred from a default node name (``MatMul_1`` → ``MatMul``), else ``?``.
- ``Device mapping:`` blocks (``… pci bus`` / ``id: 0000:05:00.0`` wrapped over two lines is
  joined), ``Device mapping: no known devices.``, and ``Created device … with N MB memory``.
- ``INFO:tensorflow:…`` (Python logging) and glog lines from ``*.py`` files, as messages.

Device names are normalised to the canonical form (``…/cpu:0`` → ``…/device:CPU:0``).

Interleaved output: TensorFlow prints graph placements with ``printf`` (stdout, block
buffered) and everything else to stderr, so a ``2>&1`` capture can cut a graph line in two,
with stderr lines in between: ``Mul: Executing op Mul in device …`` then, later,
``(Mul): /job:…``. The stderr part is read as usual; the stdout tail is held and joined with
the next stdout line. What cannot be joined is counted as a lost fragment.

When both the stdout and the glog copy of graph lines (or mapping blocks) are present, the
glog copies are kept (they are in execution order) and the stdout copies counted as duplicates.

Function graphs in eager logs: TensorFlow 2.x places a small function graph the first time an
op signature runs and logs its nodes just before that op's ``Executing op`` line (``a: (_Arg)``,
``MatMul: (MatMul)``, ``product_RetVal: (_Retval)``). Such a group of graph lines belongs to the
eager op that follows it: for a plain op it is that op's wrapper (not an op of its own, counted in
``ParseStats.wrapped``); for a ``tf.function`` (``__inference_…``) its nodes other than
``_Arg``/``_Retval`` are the function's body, recorded as that function's nodes on every call of
it (a function is placed once, when first instantiated). Graph lines after the last eager op
stay ops of their own (a TF1 session in the same program) unless they hold ``_Arg``/``_Retval``
nodes (function graphs printed with printf, flushed at exit). Where only the printf copies
exist and stdout was block-buffered, the groups stand where the buffer was flushed: the lines
are still recognised as wrappers, but a ``tf.function`` body may be given to the wrong call.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..errors import UsageError
from . import events as ev

UNKNOWN_OP = "?"
SOURCE = "tensorflow-log"
MAX_EXAMPLES = 3

_DEVICE = r"/job:[^/\s]+/replica:\d+/task:\d+/(?:device:)?[A-Za-z_]+:\d+"
_NODE = r"[A-Za-z0-9_.][\w./>-]*"
_GLOG_HEAD = (r"(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?: (?P<l1>[IWEF]) "
              r"|(?P<l2>[IWEF])\d{4} \d\d:\d\d:\d+(?:\.\d+)?\s+\d+ )")
_GLOG = re.compile(_GLOG_HEAD + r"(?P<file>[^\s\]]+?):\d+\] ?")
_PYLOG = re.compile(r"(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL):tensorflow:(?P<text>.*)$")
_EAGER = re.compile(r"Executing op (?P<op>\S+) in device (?P<dev>\S+)\s*$")
_GRAPH = re.compile(rf"(?P<node>{_NODE}): \((?P<op>[^()\s]+)\):? ?(?P<dev>{_DEVICE})\s*$")
_LEGACY = re.compile(rf"(?P<node>{_NODE}): (?P<dev>{_DEVICE})\s*$")
_MAP_HEADER = re.compile(r"Device mapping:(?P<none> no known devices\.)?\s*$")
_MAP_ENTRY = re.compile(rf"(?P<dev>{_DEVICE}) -> (?P<desc>.*?)\s*$")
_GPU_DESC = re.compile(r"device: \d+, name: .*, pci bus id: [0-9A-Fa-f:.]+(?:, compute capability: \d+\.\d+)?$")
_CREATED = re.compile(rf"Created device (?P<dev>{_DEVICE}) with (?P<mb>\d+) MB memory:?\s*-> (?P<desc>.*?)\s*$")
_STDERR_START = re.compile(_GLOG_HEAD + r"|Executing op |(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):tensorflow:")
_DEV_PARTS = re.compile(r"^(/job:[^/\s]+/replica:\d+/task:\d+)/(?:device:)?([A-Za-z_]+):(\d+)$")
_DEFAULT_NAME = re.compile(r"^([A-Z][A-Za-z0-9]*)(?:_\d+)?$")
_PLATFORM_ID = re.compile(r"^device: (\d+)")
_LEVELS = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "FATAL"}


@functools.lru_cache(maxsize=4096)
def canonical_device(name: str) -> str:
    """``/job:localhost/replica:0/task:0/cpu:0`` → ``/job:localhost/replica:0/task:0/device:CPU:0``."""
    m = _DEV_PARTS.match(name)
    if m is None:
        return name
    base, dtype, index = m.groups()
    if dtype.lower() in ("cpu", "gpu"):
        dtype = dtype.upper()
    return f"{base}/device:{dtype}:{index}"


def op_from_node(node: str) -> str:
    """The op type a default node name implies (``MatMul_1`` → ``MatMul``), else ``?``."""
    m = _DEFAULT_NAME.match(node.rsplit("/", 1)[-1])
    return m.group(1) if m else UNKNOWN_OP


@dataclass
class ParseStats:
    """What ``parse`` made of its input, line by line (blank lines are not counted).

    ``recognised`` kinds: eager, graph, graph_legacy, device_mapping (header, entry and wrapped
    lines), device_created, message, log (other TensorFlow log lines, read and ignored).
    """

    lines: int = 0
    recognised: dict = field(default_factory=dict)  # kind -> lines
    unrecognised: int = 0
    interleaved: int = 0  # lines where a stdout fragment ran into a stderr line
    rejoined: int = 0  # graph lines put back together from two fragments
    fragments: int = 0  # fragments that could not be put back together
    duplicates: int = 0  # stdout copies of lines also logged through glog, dropped
    wrapped: int = 0  # function-graph lines attributed to the eager op or tf.function they wrap
    examples: list = field(default_factory=list)  # [(lineno, text)] of the first unrecognised lines

    def count(self, kind: str) -> None:
        self.recognised[kind] = self.recognised.get(kind, 0) + 1

    @property
    def recognised_total(self) -> int:
        return sum(self.recognised.values())

    def to_dict(self) -> dict:
        return {"lines": self.lines, "recognised": dict(self.recognised),
                "recognised_total": self.recognised_total, "unrecognised": self.unrecognised,
                "interleaved": self.interleaved, "rejoined": self.rejoined, "fragments": self.fragments,
                "duplicates": self.duplicates, "wrapped": self.wrapped,
                "examples": [{"line": n, "text": t} for n, t in self.examples]}

    def note(self, ops: int | None = None) -> str:
        """One line for stderr: how much of the log was understood."""
        head = f"imported {_n(ops, 'op')} from" if ops is not None else "read"
        text = (f"{head} {_n(self.lines, 'line')}: {self.recognised_total} recognised, "
                f"{self.unrecognised} unrecognised")
        if self.examples:
            n, t = self.examples[0]
            text += f" (first: line {n}: {t[:40]!r})"
        extra = []
        if self.interleaved:
            extra.append(f"{_n(self.interleaved, 'interleaved line')} split")
        if self.rejoined:
            extra.append(f"{self.rejoined} rejoined")
        if self.fragments:
            extra.append(f"{_n(self.fragments, 'fragment')} lost")
        if self.duplicates:
            extra.append(f"{_n(self.duplicates, 'duplicate line')} dropped")
        if self.wrapped:
            extra.append(f"{_n(self.wrapped, 'function-graph line')} attributed to eager ops")
        return text + ("; " + ", ".join(extra) if extra else "")


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _graph_record(text: str, from_glog: bool):
    """A bare graph placement line → record, or None."""
    m = _GRAPH.match(text)
    if m:
        return ("op", m["op"], m["node"], canonical_device(m["dev"]), from_glog), "graph"
    m = _LEGACY.match(text)
    if m:
        return ("op", op_from_node(m["node"]), m["node"], canonical_device(m["dev"]), from_glog), "graph_legacy"
    return None, None


def _is_stderr_line(line: str) -> bool:
    return bool(_GLOG.match(line) or _EAGER.match(line) or _PYLOG.match(line))


def _split_interleaved(line: str):
    """``'Mul: Executing op Mul in device …'`` → (``'Mul: '``, ``'Executing op …'``), else None."""
    if "Executing op " not in line and "] " not in line and ":tensorflow:" not in line:
        return None  # the common case, decided without a regex
    if _is_stderr_line(line):
        return None
    for m in _STDERR_START.finditer(line, 1):
        rest = line[m.start():]
        if _is_stderr_line(rest):
            return line[:m.start()], rest
    return None


_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


class _Parser:
    def __init__(self):
        self.stats = ParseStats()
        self.records: list = []  # ("op", op, node, device, from_glog) | ("mapping", list, from_glog) | ("event", ev)
        self.mapping = None  # the entries of the open Device mapping block
        self.pending: str | None = None  # a stdout tail waiting for the rest of its line

    # -- one physical line ------------------------------------------------------------
    def feed(self, lineno: int, raw: str) -> None:
        line = _ANSI.sub("", raw).rstrip()  # a log captured from a coloured terminal
        if not line.strip():
            self.mapping = None
            if self.pending is not None and _graph_record(self.pending, False)[0] is not None:
                self._join("")  # the tail was a whole line short of its newline
            return
        self.stats.lines += 1
        split = _split_interleaved(line)
        if split is not None:
            tail, line = split
            self.stats.interleaved += 1
            self.mapping = None
            self.pending = (self.pending or "") + tail
        elif self.pending is not None and not _is_stderr_line(line):
            if self._join(line):
                return
        if not self._line(line):
            self.stats.unrecognised += 1
            if len(self.stats.examples) < MAX_EXAMPLES:
                self.stats.examples.append((lineno, raw.rstrip("\r\n")))

    def _join(self, head: str) -> bool:
        """The next stdout text after a held tail: join them if that makes a graph line."""
        joined, self.pending = self.pending + head, None
        record, kind = _graph_record(joined, False)
        if record is None:
            self.stats.fragments += 1
            return False
        self.records.append(record)
        self.stats.rejoined += 1
        if head:
            self.stats.count(kind)
        return True

    def _line(self, line: str) -> bool:
        """Read one complete line; False when it isn't anything TensorFlow prints."""
        glog = _GLOG.match(line)
        body = line[glog.end():] if glog else line
        if self.mapping is not None:
            if not glog and self._mapping_line(body):
                return True
            self.mapping = None
        m = _EAGER.match(body)
        if m:
            self.records.append(("op", m["op"], None, canonical_device(m["dev"]), None))
            self.stats.count("eager")
            return True
        record, kind = _graph_record(body, glog is not None)
        if record is not None:
            self.records.append(record)
            self.stats.count(kind)
            return True
        m = _MAP_HEADER.match(body)
        if m:
            entries: list = []
            self.records.append(("mapping", entries, glog is not None))
            self.mapping = None if m["none"] else entries
            self.stats.count("device_mapping")
            return True
        m = _CREATED.match(body)
        if m:
            dev = canonical_device(m["dev"])
            pid = _PLATFORM_ID.match(m["desc"])
            self.records.append(("event", ev.DeviceCreated(
                dev, _DEV_PARTS.match(dev)[2], int(pid[1]) if pid else None, int(m["mb"]) << 20, m["desc"])))
            self.stats.count("device_created")
            return True
        m = _PYLOG.match(body)
        if m:
            self.records.append(("event", ev.Message(m["level"], m["text"])))
            self.stats.count("message")
            return True
        if glog:
            if glog["file"].endswith(".py"):
                self.records.append(("event", ev.Message(_LEVELS[glog["l1"] or glog["l2"]], body)))
                self.stats.count("message")
            else:
                self.stats.count("log")
            return True
        return False

    def _mapping_line(self, body: str) -> bool:
        m = _MAP_ENTRY.match(body)
        if m:
            self.mapping.append([canonical_device(m["dev"]), m["desc"]])
            self.stats.count("device_mapping")
            return True
        if self.mapping:  # "… pci bus" / "id: 0000:05:00.0": a description wrapped over two lines
            last = self.mapping[-1]
            joined = f"{last[1]} {body.strip()}"
            if not _GPU_DESC.match(last[1]) and _GPU_DESC.match(joined):
                last[1] = joined
                self.stats.count("device_mapping")
                return True
        return False

    # -- the trace ----------------------------------------------------------------------
    def finish(self, program: str | None) -> list:
        if self.pending is not None:
            self._join("")
        records = self.records
        for kind in ("op", "mapping"):  # graph lines / mapping blocks printed both ways
            if any(r[0] == kind and r[-1] is True for r in records) and \
                    any(r[0] == kind and r[-1] is False for r in records):
                kept = [r for r in records if not (r[0] == kind and r[-1] is False)]
                self.stats.duplicates += len(records) - len(kept)
                records = kept
        eager = any(r[0] == "op" and r[-1] is None for r in records)
        if eager:
            records = self._attribute(records)
        graph = any((r[0] == "op" and r[-1] is not None) or r[0] == "mapping" for r in records)
        mode = "imported" if eager == graph else ("eager" if eager else "graph")
        events: list = [ev.TraceStart(mode, SOURCE, program, None)]
        seq = 0
        for r in records:
            if r[0] == "op":
                seq += 1
                events.append(ev.OpPlaced(seq, r[1], r[2], "", r[3], ev.IMPORTED))
            elif r[0] == "mapping":
                events.append(ev.DeviceMapping([list(e) for e in r[1]]))
            elif r[0] == "call":
                events.append(ev.FunctionCall(r[1], r[2], r[3], r[4]))
            else:
                events.append(r[1])
        return events

    def _attribute(self, records: list) -> list:
        """Graph lines before an eager op → that op's wrapper (dropped) or, before a
        ``tf.function``'s op, its body, replayed as the function's nodes on each call."""
        out: list = []
        group: list = []  # indices in out of the graph records since the last eager op
        bodies: dict = {}  # function name -> its body's records
        calls: dict = {}  # function name -> calls so far
        for r in records:
            if r[0] != "op" or r[-1] is not None:
                if r[0] == "op":
                    group.append(len(out))
                out.append(r)
                continue
            name = r[1]
            body = [out[i] for i in group if out[i][1] not in _FUNCTION_IO]
            self._drop(out, group)
            if name.startswith(FUNCTION_PREFIXES) and group:
                bodies[name] = body
            group = []
            out.append(r)
            if name in bodies:
                calls[name] = calls.get(name, 0) + 1
                out.append(("call", name, calls[name], False, 0))
                out.extend(("op",) + g[1:-1] + (None,) for g in bodies[name])
                out.append(("call", name, calls[name], True, len(bodies[name])))
        if any(out[i][1] in _FUNCTION_IO for i in group):  # printf lines flushed after the last op
            self._drop(out, group)
        return [r for r in out if r is not None]

    def _drop(self, out: list, group: list) -> None:
        for i in group:
            out[i] = None
        self.stats.wrapped += len(group)


FUNCTION_PREFIXES = ("__inference_", "__forward_", "__backward_")  # the op of a tf.function's call
_FUNCTION_IO = frozenset({"_Arg", "_Retval", "_DeviceArg", "_DeviceRetval"})


def parse(text: str | bytes, name: str = "input", program: str | None = None, progress=None):
    """Parse a TensorFlow log → ``(events, stats)``.

    ``name`` labels errors (a path, or ``<stdin>``); ``program`` goes into the TraceStart;
    ``progress(lines_parsed)`` is called every few thousand lines.
    Empty input, binary input and input without a single placement line raise ``UsageError``.
    """
    if isinstance(text, (bytes, bytearray)):
        if b"\0" in text:
            raise UsageError(f"{name}: binary data, not a TensorFlow log")
        text = bytes(text).decode("utf-8", errors="replace")
    if "\0" in text:
        raise UsageError(f"{name}: binary data, not a TensorFlow log")

    def numbered():
        for lineno, raw in enumerate(text.splitlines(), 1):
            yield lineno, raw
            if progress is not None and not lineno & 4095:
                progress(lineno)  # lines parsed (a progress bar)

    return parse_lines(numbered(), name, program)


def parse_lines(lines, name: str = "input", program: str | None = None):
    """``parse`` over ``(lineno, text)`` pairs (``lines.read_lines`` gives them from any input in
    bounded memory)."""
    parser = _Parser()
    blank, lineno = True, 0
    for _, text in lines:
        if "\0" in text:
            raise UsageError(f"{name}: binary data, not a TensorFlow log")
        for raw in text.splitlines() or [""]:  # \r and the other line breaks str.splitlines knows, too
            lineno += 1
            blank = blank and not raw.strip()
            parser.feed(lineno, raw)
    if blank:
        raise UsageError(f"{name}: empty, no TensorFlow log to import")
    events = parser.finish(program)
    if len(events) == 1:
        raise UsageError(f"{name}: no device placement lines in {_n(parser.stats.lines, 'line')} "
                         "(was log_device_placement on?)")
    return events, parser.stats
