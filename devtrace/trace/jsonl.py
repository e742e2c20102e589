"""Traces as JSON Lines: one event per line, each tagged with the schema version.

Every line is an object ``{"schema": 1, "event": "<kind>", <fields>…}`` (keys snake_case,
sizes in bytes); the first line is always a ``trace_start``. ``read`` accepts exactly what
``dumps`` writes, ignores fields it does not know (additions within a schema are compatible),
and turns anything else into one ``UsageError`` line naming the file (and the line).
"""

from __future__ import annotations

import json
import os

from ..errors import UsageError
from .events import EVENT_TYPES, SCHEMA, OpPlaced, OpRecord, ThreadSwitched, TraceEnd, TraceStart
from .lines import MAX_DEPTH, read_lines, too_deep


def dumps(events) -> str:
    events = list(events)
    if not events or not isinstance(events[0], TraceStart):
        events.insert(0, TraceStart())
    return _encode_lines(events, json.JSONEncoder(ensure_ascii=False).encode, {})


class Stream:
    """A run's trace as it happens (``Trace.stream``): each flushed batch is appended, as whole
    lines, to the ``--trace`` file (opened, and so emptied, when the run starts) and, when the end
    of the run needs the events again (a ``--format``, a check, a report), to a private spool
    file that iterating over the stream reads back one line at a time. ``close`` writes the
    ``trace_end`` record; a file without one was cut off, and says so to whoever reads it.
    A write that fails (a full disk) stops writing the file; ``error`` says why, once the run ends."""

    def __init__(self, path: str | None = None, spool: bool = False, option: str = "--trace",
                 limit: int | None = None):
        import tempfile
        from .limit import Limiter

        self.path, self.option, self.error = path, option, None
        self.target = None
        self._written = self._end_at = None  # bytes of whole lines in the file; where trace_end starts
        if path is not None:
            self.target = _open_owned(path, option)
            self._written = 0
        self.spool = tempfile.TemporaryFile() if spool else None  # unlinked: nothing is left behind
        self.count, self.pid = 0, os.getpid()
        self._encode = json.JSONEncoder(ensure_ascii=False).encode
        self._names: dict = {}
        self.limiter = Limiter(limit) if limit is not None else None  # --trace-limit
        self.echo = None  # a text stream the lines are also written to as they come (--format jsonl)
        self.gone = False  # the echo's reader went away (a closed pipe)

    def write(self, events) -> None:
        """Append ``events``; the caller defers signals (``Trace.flush``): never half a batch."""
        if os.getpid() != self.pid:  # a child the program forked: its ops are not this run's
            return
        if self.target is None and self.spool is None and self.echo is None:  # nobody reads it: counted, forgotten
            self.count += len(events)
            return
        if self.limiter is not None:
            events = self.limiter.filter(events)
        data = _encode_lines(events, self._encode, self._names).encode("utf-8")
        self.count += len(events)
        if self.spool is not None:
            try:
                self.spool.write(data)
            except OSError as e:
                import tempfile

                self.error = f"the trace's spool in {tempfile.gettempdir()}: cannot write ({e.strerror or e})"
                self.spool = None
        if self.echo is not None:
            self._echo(data)
        if self.target is not None:
            try:
                _write_all(self.target, data)
                self._written += len(data)
            except OSError as e:
                self.error = f"{self.option} {_shown(self.path)}: cannot write ({e.strerror or e})"
                self._cut_to_whole_lines()
                self._close_target()

    def _echo(self, data: bytes) -> None:
        """The lines, safe to print, to ``echo``; a closed pipe ends the echo and sets ``gone``."""
        from ..output import printable_json

        try:
            self.echo.write("".join(printable_json(line) + "\n" for line in data.decode("utf-8").splitlines()))
            self.echo.flush()
        except BrokenPipeError:
            self.echo, self.gone = None, True

    def close(self, status: int | None) -> None:
        from ..util import interrupts

        with interrupts.deferred():
            footer = self.limiter.record() if self.limiter is not None else None
            if footer is not None:  # what --trace-limit left out, counted
                self.write([footer])
            self._end_at = self._written
            self.write([TraceEnd(status, self.count)])
        if self.error is not None:
            self._close_target()
            raise UsageError(self.error)

    def amend_end(self, status: int) -> None:
        """A signal after ``close`` (while the end of the run was being written): the file's
        ``trace_end`` is written again with the status the run ends with."""
        target = self.target
        if target is None or self._end_at is None or self.error is not None:
            return
        from ..util import interrupts

        with interrupts.deferred():
            try:
                target.seek(self._end_at)
                target.truncate()
                _write_all(target, _encode_lines([TraceEnd(status, self.count - 1)], self._encode, self._names).encode())
            except OSError:
                pass  # a pipe, /dev/stdout: its trace_end stays

    def fds(self) -> tuple:
        """The descriptors this stream writes: a program closing every inherited one spares them."""
        return tuple(f.fileno() for f in (self.target, self.spool) if f is not None and not f.closed)

    def release(self) -> None:
        """Close the ``--trace`` file, and with it give up its lock."""
        self._close_target()

    def _cut_to_whole_lines(self) -> None:
        """After a failed write (a full disk), the file ends at its last whole line (what the failed
        batch got onto the disk is kept, up to its last newline)."""
        try:
            fd = self.target.fileno()
            size = os.fstat(fd).st_size
            keep = self._written
            if size > keep:
                tail = os.pread(fd, min(size - keep, 1 << 20), max(keep, size - (1 << 20)))
                if b"\n" in tail:
                    keep = max(keep, size - len(tail) + tail.rindex(b"\n") + 1)
            os.ftruncate(fd, keep)
        except (OSError, ValueError):
            pass

    def _close_target(self) -> None:
        target, self.target = self.target, None
        if target is not None:
            try:
                target.close()
            except OSError as e:
                self.error = self.error or f"{self.option} {_shown(self.path)}: cannot write ({e.strerror or e})"

    def lines(self):
        """The spooled lines (bytes), read with ``pread``: several readers may interleave."""
        if self.spool is None:
            return
        self.spool.flush()
        fd, offset, rest = self.spool.fileno(), 0, b""
        while True:
            chunk = os.pread(fd, 1 << 20, offset)
            if not chunk:
                break
            offset += len(chunk)
            *complete, rest = (rest + chunk).split(b"\n")
            yield from complete
        if rest:
            yield rest

    def __iter__(self):
        """The spooled events: lines this stream wrote itself, so they are not checked again."""
        loads, types = json.loads, EVENT_TYPES
        for raw in self.lines():
            record = loads(raw)
            del record["schema"]
            if record["event"] == "op_placed":
                record.pop("thread", None)  # (the thread records before it say it)
            yield types[record.pop("event")](**record)


def _shown(path) -> str:
    from ..output import printable, shown

    return printable(shown(path))


def _open_owned(path, option):
    """The ``--trace`` file, emptied once this run holds its lock (``flock``): one run writes a
    trace file at a time; a second is refused in one line (exit 2), before it empties anything."""
    import fcntl
    import stat

    try:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)  # read back after a failed write
        except PermissionError:  # a write-only destination (/dev/stdout onto a write-only file)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as e:
        raise UsageError(f"{option} {_shown(path)}: cannot write ({e.strerror or e})") from None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UsageError(f"{option} {_shown(path)}: another devtrace run is writing this trace; wait for "
                                 f"it to end or choose another file") from None
            os.ftruncate(fd, 0)
        return open(fd, "wb", buffering=0)  # unbuffered: what a failed write left is known (whole lines kept)
    except BaseException as e:
        os.close(fd)
        if isinstance(e, OSError):
            raise UsageError(f"{option} {_shown(path)}: cannot write ({e.strerror or e})") from None
        raise


def _write_all(f, data: bytes) -> None:
    """All of ``data`` to the unbuffered file ``f`` (a partial write goes on; a full disk raises)."""
    view = memoryview(data)
    while view:
        view = view[f.write(view):]


def _encode_lines(events, encode, names) -> str:
    """JSON Lines exactly as ``json`` writes each record; an ``OpRecord`` (an executed op) is written
    from its fields, the text of its repeated parts (names, devices, shapes) made once per stream."""
    out = []
    heads = names.setdefault(str, {})
    tails = names.setdefault(tuple, {})
    sources = names.setdefault("src", {})  # src -> its text on an op line
    thread = names.get(int, 0)  # the thread the stream's latest records came from (ThreadSwitched)
    append = out.append
    for e in events:
        if type(e) is OpRecord:
            op, node, requested, device, reason, shape, dtype = e.op, e.node, e.requested, e.device, e.reason, \
                e.shape, e.dtype
            if type(shape) is list:
                shape = tuple(shape)
            head = heads.get((op, node, requested, device, reason))
            tail = tails.get((shape, dtype))
            if head is None or tail is None:
                head, tail = _texts(op, node, requested, device, reason, shape, dtype, heads, tails, encode)
            inputs, mem, src = e.inputs, e.mem_in_use, e.src
            if len(inputs) == 2 and mem is not None:  # most ops: one format, SCHEMA a literal (costs nothing)
                line = (f'{{"schema": 1, "event": "op_placed", "seq": {e.seq}, {head}{inputs[0]}, {inputs[1]}{tail}'
                        f'{e.duration_ns}, "mem_in_use": {mem}')
            else:
                line = (f'{{"schema": {SCHEMA}, "event": "op_placed", "seq": {e.seq}, {head}'
                        f'{", ".join(map(str, inputs))}{tail}{e.duration_ns}, '
                        f'"mem_in_use": {"null" if mem is None else mem}')
            if src is not None:  # the program's line: its text made once per stream
                text = sources.get(src)
                if text is None:
                    text = sources[src] = f', "src": {encode(src)}'
                line += text
            append(f'{line}}}' if not thread else f'{line}, "thread": {thread}}}')
            continue
        cls = type(e)
        if cls is ThreadSwitched:
            thread = names[int] = e.thread
        fs = names.get(cls)
        if fs is None:
            fs = names[cls] = tuple(_field_names(cls))
        d = {"schema": SCHEMA, "event": e.kind}
        for f in fs:
            d[f] = getattr(e, f)
        if cls is OpPlaced:
            if d["src"] is None:  # written only when known (as an OpRecord's line)
                del d["src"]
            if thread:
                d["thread"] = thread
        out.append(encode(d))
    return "\n".join(out) + "\n" if out else ""


assert SCHEMA == 1, "the op line's literal schema in _encode_lines"




def _texts(op, node, requested, device, reason, shape, dtype, heads: dict, tails: dict, encode) -> tuple[str, str]:
    """The text of an op line's repeated parts, made once per stream: before its inputs (op, node,
    requested, device, reason) and after them (shape, dtype)."""
    key = (op, node, requested, device, reason)
    head = heads.get(key)
    if head is None:
        head = heads[key] = (f'"op": {encode(op)}, "node": {encode(node)}, "requested": {encode(requested)}, '
                             f'"device": {encode(device)}, "reason": {encode(reason)}, "inputs": [')
    key = (shape, dtype)
    tail = tails.get(key)
    if tail is None:
        shape_text = "null" if shape is None else "[" + ", ".join(map(str, shape)) + "]"
        tail = tails[key] = f'], "shape": {shape_text}, "dtype": {encode(dtype)}, "duration_ns": '
    return head, tail


def write(path, events) -> None:
    """Write the trace atomically (a reader never sees half a file)."""
    from ..output import write_atomic

    write_atomic(str(path), dumps(events), "--trace")


def _field_names(cls) -> list:
    """The fields of an event class, in declaration order (``events.to_dict``'s order)."""
    from dataclasses import fields

    return [f.name for f in fields(cls)]


_INT, _STR, _LIST, _BOOL = "an integer", "a string", "a list", "true or false"
_TYPES = {  # what each field of the wire format holds; "or null" fields may also be null
    **dict.fromkeys(("seq", "input_index", "nbytes", "total_reserved", "reserved", "in_use", "peak", "num_allocs",
                     "largest_alloc", "num_regions", "num_ooms", "duration_ns", "index", "ops", "session",
                     "events", "copies", "copy_bytes", "calls", "thread"), _INT),
    **dict.fromkeys(("physical_index", "memory_limit", "limit", "mem_in_use", "status"), _INT + " or null"),
    **dict.fromkeys(("op", "device", "src", "dst", "name", "device_type", "reason", "allocator", "policy",
                     "requested", "level", "text", "call", "message", "mode", "source", "function", "description"),
                    _STR),
    **dict.fromkeys(("node", "program", "backend", "dtype", "error"), _STR + " or null"),
    **dict.fromkeys(("simulated", "end", "streamed"), _BOOL),
    **dict.fromkeys(("inputs", "live", "devices", "op_types"), _LIST),
    "shape": _LIST + " or null",
}


_ALLOWED = {key: {_INT: (int,), _STR: (str,), _LIST: (list,), _BOOL: (bool,)}[want.removesuffix(" or null")]
            + ((type(None),) if want.endswith("or null") else ()) for key, want in _TYPES.items()}


def _fields(cls) -> dict:
    """An event class's fields, each with the value types its wire format allows (``None``: any)."""
    return {name: _ALLOWED.get(name) for name in _field_names(cls)}


def _is_count_row(row) -> bool:
    return (type(row) is list and len(row) == 4 and type(row[0]) is str and type(row[1]) is str
            and type(row[2]) is int and type(row[3]) is int)


def _parse(raw: str, name: str, lineno: int, known: dict):
    """The event on one line, or ``None`` for a blank line; ``UsageError`` naming file and line."""
    if not raw.strip():
        return None
    if too_deep(raw):
        raise UsageError(f"{name}:{lineno}: not a devtrace trace (JSON nested more than {MAX_DEPTH} deep)")
    try:
        record = json.loads(raw)
    except ValueError:
        raise UsageError(f"{name}:{lineno}: not a devtrace trace (line is not JSON)") from None
    if not isinstance(record, dict):
        raise UsageError(f"{name}:{lineno}: not a devtrace trace (line is not a JSON object)")
    if _DIGITS in raw.encode().translate(_DIGIT_MAP) and _out_of_range(record):
        raise UsageError(f"{name}:{lineno}: not a devtrace trace (a number beyond 64 bits)")
    schema = record.get("schema")
    if schema is not None and schema != SCHEMA:
        raise UsageError(f"{name}: trace schema {json.dumps(schema)} is not supported "
                         f"(this devtrace reads schema {SCHEMA})")
    if "event" not in record or schema is None:
        missing = "event" if "event" not in record else "schema"
        raise UsageError(f"{name}:{lineno}: not a devtrace trace (record has no \"{missing}\")")
    kind = record["event"]
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise UsageError(f"{name}:{lineno}: not a devtrace trace (unknown event {json.dumps(kind)})")
    fields = known.get(kind)
    if fields is None:
        fields = known[kind] = _fields(cls)
    # what is checked is each field's type: a record whose keys and value types were seen valid is valid
    signature = (kind, tuple(record), tuple(map(type, record.values())))
    matched = known.get(signature)
    if matched is None:
        matched = 0
        for key, value in record.items():
            if key in fields:
                matched += 1
                allowed = fields[key]
                if allowed is not None and type(value) not in allowed:  # (a bool is not an integer here)
                    raise UsageError(f"{name}:{lineno}: invalid {kind} event (field '{key}' must be {_TYPES[key]}, "
                                     f"got {json.dumps(value)[:40]})")
        if kind != "trace_limited":  # (its rows are checked one by one, below)
            known[signature] = matched
    if kind == "trace_limited" and not all(_is_count_row(row) for row in record.get("op_types", ())):
        raise UsageError(f"{name}:{lineno}: invalid trace_limited event (field 'op_types' must hold "
                         f"[op, device, ops, fallbacks] rows)")
    del record["schema"], record["event"]
    try:
        return cls(**record) if matched == len(record) else cls(**{k: v for k, v in record.items() if k in fields})
    except TypeError as e:
        missing = sorted(fields.keys() - record.keys())
        detail = f"missing {', '.join(missing)}" if missing else str(e)
        raise UsageError(f"{name}:{lineno}: invalid {kind} event ({detail})") from None


_DIGIT_MAP = bytes(48 if 48 <= i <= 57 else 120 for i in range(256))  # digits -> "0", the rest -> "x"
_DIGITS = b"0" * 19  # a run of 19 digits: maybe a number beyond 64 bits (a regex costs 15x more)


def _out_of_range(value) -> bool:
    """A number no 64-bit counter holds, anywhere in ``value`` (nesting is bounded: ``MAX_DEPTH``)."""
    if type(value) is int:
        return not -(1 << 63) <= value < 1 << 63
    if type(value) is float:
        return value != value or abs(value) == float("inf")
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, list):
        return False
    return any(_out_of_range(v) for v in value)


def loads(text: str, name: str = "<trace>") -> list:
    """Parse JSONL text; ``name`` is used in error messages."""
    if not text.strip():
        raise UsageError(f"{name}: empty file, not a devtrace trace")
    known: dict = {}
    events = (_parse(raw, name, lineno, known) for lineno, raw in enumerate(text.splitlines(), 1))
    events = [e for e in events if e is not None]
    if events and _cut_off(events[0], events[-1]):
        _warn_cut_off(name)
    return events


def _cut_off(first, last) -> bool:
    """A streamed trace whose run never closed it (``TraceEnd``)."""
    return isinstance(first, TraceStart) and first.streamed and not isinstance(last, TraceEnd)


def _warn_cut_off(name: str) -> None:
    from ..output import warning

    warning(f"{name}: the trace was cut off before its run ended (no trace_end record: "
            f"os._exit or a kill); it holds the run up to its last line")


def iter_read(path, progress=None):
    """The events of a JSONL trace file, one at a time, in bounded memory (``lines.read_lines``:
    binary input refused from its first bytes, no line longer than ``MAX_LINE``). A last line
    cut short (a full disk, a kill mid-write: no newline, not a record) ends the trace: it is
    read up to its last whole line and says it was cut. ``progress(bytes_read)`` drives a
    progress bar."""
    name = str(path)
    known: dict = {}
    count, first, last = 0, None, None
    lines = read_lines(path, name, "a devtrace trace", progress, binary="not a devtrace trace (binary file)",
                       cannot="cannot read trace")
    for lineno, raw, whole in lines:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if not whole and count:
                _warn_cut_mid_line(name, lineno)
                return
            raise UsageError(f"{name}: not a devtrace trace (not UTF-8 text)") from None
        try:
            event = _parse(text, name, lineno, known)
        except UsageError:
            if whole or count == 0:
                raise
            _warn_cut_mid_line(name, lineno)
            return
        if event is not None:
            count += 1
            first, last = first or event, event
            yield event
    if count == 0:
        raise UsageError(f"{name}: empty file, not a devtrace trace")
    if _cut_off(first, last):
        _warn_cut_off(name)


def _warn_cut_mid_line(name: str, lineno: int) -> None:
    from ..output import warning

    warning(f"{name}: the trace was cut off mid-line (line {lineno} is incomplete: a full disk or a kill "
            f"while writing); it holds the run up to line {lineno - 1}")


def read(path) -> list:
    """Events of a JSONL trace file; ``UsageError`` (one line) for anything that isn't one."""
    return list(iter_read(path))
