"""Running a user's program as ``__main__`` and checking its trace (``devtrace run`` / ``mem``)."""

from __future__ import annotations

import contextlib
import math
import os
import runpy
import signal
import sys
import threading
import traceback
from dataclasses import dataclass, field

from ..util import interrupts, runlock
from ..errors import (CheckFailed, ResourceExhaustedError, UsageError, ValueNotComputed, debugging, internal_line,
                      is_internal)
from ..output import MiB, printable
from ..runtime import host_heap
from ..trace import events as ev

MACHINE_FORMATS = ("jsonl", "dot")
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _check_program(path: str) -> None:
    if not os.path.exists(path):
        raise UsageError(f"cannot run {path}: no such file")
    if os.path.isdir(path):
        raise UsageError(f"cannot run {path}: it is a directory, not a Python program")
    if not os.access(path, os.R_OK):
        raise UsageError(f"cannot run {path}: permission denied")


def _user_frames(tb):
    """The traceback without devtrace's own frames (and runpy's)."""
    frames = traceback.extract_tb(tb)
    return [f for f in frames if not os.path.abspath(f.filename).startswith(_PACKAGE_DIR)
            and os.path.basename(f.filename) != "runpy.py" and not f.filename.startswith("<frozen")]


def _headline(text: str) -> str:
    """The line that says what went wrong: the first, or in TensorFlow 2's ``Graph execution
    error`` envelope the first line of the error itself (after the ``Node: '…'`` lines)."""
    lines = text.strip().splitlines() or [""]
    if lines[0] == "Graph execution error:":
        rest = [i for i, line in enumerate(lines) if line.startswith("Node: ")]
        if rest and rest[-1] + 1 < len(lines):
            return lines[rest[-1] + 1]
    return lines[0]


def _report_exception(exc: BaseException, program: str) -> None:
    """The program's frames (every frame with ``DEVTRACE_DEBUG=1``), the error, and one line: the
    program's failure, or devtrace's own (an internal error: a bug, never the user's mistake)."""
    debug = debugging()
    frames = traceback.extract_tb(exc.__traceback__) if debug else _user_frames(exc.__traceback__)
    sys.stderr.write("Traceback (most recent call last):\n")
    sys.stderr.write("".join(traceback.format_list(frames)))
    sys.stderr.write("".join(traceback.format_exception_only(type(exc), exc)))
    if sys.version_info < (3, 11):  # Python 3.10 prints no notes (PEP 678): devtrace's colocation lines
        sys.stderr.write("".join(f"{note}\n" for note in getattr(exc, "__notes__", ())))
    try:
        first = _headline(str(exc))
    except Exception:  # noqa: BLE001 (the program's own __str__ failed: say so, as Python does)
        first = "<exception str() failed>"
    if is_internal(exc):
        sys.stderr.write(printable(internal_line(exc, debug)) + "\n")
        return
    name = type(exc).__name__
    sys.stderr.write(printable(f"Error: {os.path.basename(program)} raised {name}" + (f": {first}" if first else "")) + "\n")


def _value_not_computed(exc: BaseException):
    """The ``--compute none`` value read behind ``exc`` (itself, or what it was raised from)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, ValueNotComputed):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def record_memory_stats(ctx) -> None:
    for d in ctx.devices:
        a = d.allocator
        cupy = d._backend if getattr(d._backend, "name", None) == "cupy" else None
        own = None if cupy is None else cupy.own_bytes()
        ctx.trace.emit(ev.MemoryStats(d.name, a.name, a.limit, a.bytes_reserved, a.bytes_in_use,
                                      a.peak_bytes_in_use, a.num_allocs, a.largest_alloc_size,
                                      a.num_regions, a.num_ooms, d.policy, own,
                                      None if own is None else max(own, cupy.own_peak)))


def _record(ctx) -> None:
    """The memory each device holds as the program ends: its live tensors — not garbage a reference
    cycle still holds (a traceback, a traced function's closure) until Python's collector runs."""
    if ctx.initialized:
        import gc

        gc.collect()
        record_memory_stats(ctx)


def execute_program(ctx, program: str, args: list[str]) -> int:
    """Run ``program`` as ``__main__``; returns its exit status (1 when it raised)."""
    _check_program(program)
    main_thread = threading.current_thread() is threading.main_thread()
    saved_term = signal.signal(signal.SIGTERM, interrupts._term_handler) if main_thread else None
    saved_int = signal.signal(signal.SIGINT, interrupts._handler) if main_thread else None  # KeyboardInterrupt
    saved_argv, saved_path, saved_stdout = sys.argv, list(sys.path), sys.stdout
    sys.argv = [program, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(program)))
    sys.stdout = getattr(sys.stdout, "raw_stream", sys.stdout)  # the program's own prints fail as in Python
    ctx.trace.emit(ev.TraceStart("eager", "devtrace", program, ctx.backend, ctx.trace.stream is not None,
                                 ctx.gpu_times()))
    from ..api import as_tensorflow

    as_tensorflow.install()  # `import tensorflow` in the program gives devtrace
    host_heap.keep_freed_memory()
    pid, real_exit = os.getpid(), os._exit
    os._exit = _closing_exit(ctx, pid, real_exit)
    spared = _spare_fds(ctx.trace.stream.fds() if ctx.trace.stream is not None else ())
    before = set(threading.enumerate())
    try:
        # absolute, as Python 3.9+ gives ``__file__`` and tracebacks of ``python prog.py``
        namespace = runpy.run_path(os.path.abspath(program), run_name="__main__")
        _join_threads(before)  # as Python waits for them before it exits: their ops are the run's
        _record(ctx)  # while the program's tensors are still alive: "in use at exit"
        del namespace
        status = 0
    except SystemExit as e:
        _record(ctx)
        code = e.code
        if code is None:
            status = 0
        elif isinstance(code, int):
            status = code
        else:
            sys.stderr.write(f"{code}\n")
            status = 1
    except KeyboardInterrupt:
        _record(ctx)
        status = 130
    except interrupts.ReaderGone:  # `--format jsonl | head`: stdout's reader left
        _record(ctx)
        status = 141
    except interrupts.Terminated:
        _record(ctx)
        sys.stderr.write(f"Error: {printable(os.path.basename(program))} was terminated (SIGTERM)\n")
        status = 143
    except SyntaxError as e:
        _flush(sys.stdout)
        sys.stderr.write("".join(traceback.format_exception_only(type(e), e)))
        where = f" (line {e.lineno})" if e.lineno else ""
        sys.stderr.write(f"Error: {os.path.basename(program)} is not valid Python: {e.msg}{where}\n")
        status = 1
    except BaseException as e:  # the program's own failure: its traceback, then one line
        _record(ctx)  # the traceback still holds the program's frames, so its tensors are alive
        _flush(sys.stdout)
        uncomputed = _value_not_computed(e)
        if uncomputed is not None:  # --compute none: one line, no traceback
            sys.stderr.write(printable(f"Error: {uncomputed}") + "\n")
        else:
            _report_exception(e, program)
        if ctx.trace.last_oom is not None and isinstance(e, ResourceExhaustedError):
            from ..trace.render_summary import oom_report

            sys.stderr.write(oom_report(ctx.trace.last_oom))
        status = 1
    finally:
        os._exit = real_exit
        spared.close()
        if saved_term is not None:
            signal.signal(signal.SIGTERM, saved_term)
            signal.signal(signal.SIGINT, saved_int)
        as_tensorflow.uninstall()
        _flush(sys.stdout)
        sys.argv, sys.path[:], sys.stdout = saved_argv, saved_path, saved_stdout
    if os.getpid() != pid:  # a child the program forked, leaving the program: it reports nothing
        sys.stderr.flush()
        real_exit(status)
    return status


@contextlib.contextmanager
def _spare(fds):
    """While the program runs, ``os.close`` and ``os.closerange`` spare devtrace's own descriptors
    (the trace file, its spool): a program that closes every inherited descriptor (a daemon
    does) keeps its trace."""
    real_close, real_closerange = os.close, os.closerange
    ours = sorted(set(fds))

    def close(fd):
        if fd not in ours:
            real_close(fd)

    def closerange(low, high):
        for fd in ours:
            if low <= fd < high:
                real_closerange(low, fd)
                low = fd + 1
        real_closerange(low, high)

    os.close, os.closerange = close, closerange
    try:
        yield
    finally:
        os.close, os.closerange = real_close, real_closerange


def _spare_fds(fds):
    """``_spare(fds)``, entered now; ``close()`` leaves it."""
    stack = contextlib.ExitStack()
    if fds:
        stack.enter_context(_spare(fds))
    return stack


def _flush(stream) -> None:
    """Flush what the program may have closed (``sys.stdout.close()``) or broken (a closed pipe)."""
    if stream is None:  # devtrace was started with stdout closed
        return
    try:
        stream.flush()
    except (ValueError, OSError):
        pass


def _join_threads(before: set) -> None:
    """Wait for the threads the program started and did not make daemons (Python's exit waits for
    them too); a Ctrl-C meanwhile ends the run (130) without waiting for them (``cli/app.py``)."""
    for thread in threading.enumerate():
        if thread not in before and not thread.daemon and thread is not threading.current_thread():
            thread.join()


def _closing_exit(ctx, pid, real_exit):
    """``os._exit`` for the program: the trace is closed first (its ``trace_end`` carries the
    status), as no ``finally`` will run; a forked child exits as it asked, untraced."""
    def _exit(status):
        stream = ctx.trace.stream
        if os.getpid() == pid and stream is not None:
            _record(ctx)
            ctx.trace.flush(final=True)
            try:
                stream.close(status)
            except UsageError as e:
                sys.stderr.write(f"Error: {e}\n")
        real_exit(status)
    return _exit


def render(events, fmt: str, layout: str = "measured", group_by: str | None = None) -> str:
    """``events`` as ``fmt``, safe to print: a name from a trace or a log never reaches the terminal
    as a control character (escaped in text, ``\\uXXXX`` in JSON). ``group_by`` (table and summary):
    one row per scope, step, device or op type (``trace/render_groups.py``)."""
    from ..output import printable_json, printable_text

    if group_by is not None:
        return printable_text(_render_grouped(events, fmt, group_by))
    text = _render(events, fmt, layout)
    if fmt in ("jsonl", "timeline"):
        return "\n".join(printable_json(line) for line in text.split("\n"))
    return printable_text(text)


def check_group_by(group_by, fmt) -> None:
    """``--group-by`` names a grouping, and goes with ``--format table`` or ``summary``."""
    from ..trace.render_groups import GROUPS

    if group_by is None:
        return
    if group_by not in GROUPS:
        raise UsageError(f"--group-by {group_by}: choose one of {', '.join(GROUPS)}")
    if fmt not in ("table", "summary"):
        raise UsageError(f"--group-by needs --format table or --format summary (not {fmt})")


def _render_grouped(events, fmt: str, group_by: str) -> str:
    from ..trace import render_groups, render_summary

    text = render_groups.render(events, group_by)
    if fmt == "summary":
        text += render_summary.totals(render_summary.summarize(events))
    return text


def _render(events, fmt: str, layout: str = "measured") -> str:
    from ..trace import jsonl, render_dot, render_summary, render_table, render_tf1, render_tf2

    if fmt == "tf2":
        return render_tf2.render(events)
    if fmt in ("tf1", "tf1-legacy"):
        return render_tf1.render(events, legacy=fmt == "tf1-legacy")
    if fmt == "table":
        return render_table.render(events)
    if fmt == "jsonl":
        return jsonl.dumps(events)
    if fmt == "dot":
        return render_dot.render(events)
    if fmt == "timeline":
        from ..trace import render_timeline

        return render_timeline.render(events, layout)
    return render_summary.render(events)


def run_program(ctx, program, args, *, log_placement=False, format_="tf2", trace_path=None,
                log_to="stderr", output=None, html=None, layout="measured", keep_events=False, trace_limit=None,
                group_by=None):
    """Run the program with its trace streaming (to ``trace_path``, and to a spool when the end of
    the run reads the events again: a ``--format``, ``--html``, ``keep_events`` for the checks);
    render what was asked; ``trace_limit``: the trace keeps the first N ops (``trace/limit.py``). Returns the exit status and the events (an iterable over the spool)."""
    stream_ = sys.stdout if log_to == "stdout" else sys.stderr
    from ..terminal.console import attach
    from ..trace import jsonl

    from ..runtime import sources

    sources.enable(program)  # each op's src: the trace, the table and the report show it
    console = attach(ctx, stream_, placement_log=format_ == "tf2")
    if log_placement:  # devtrace's own log, one line per executed op (the guide's): no printf lines
        console.kernel_graphs = False
        ctx.set_log_device_placement(True)
    # a machine format owns stdout (`--format jsonl > t.jsonl`, `--format dot | dot -Tsvg`):
    # the program's own output goes to stderr meanwhile
    owns_stdout = format_ in MACHINE_FORMATS and output is None
    spool = format_ != "tf2" or html is not None or keep_events
    if trace_path is not None or html is not None or format_ != "tf2":  # ops' times will be read
        ctx.time_gpu_kernels()
    events = ctx.trace.stream = jsonl.Stream(trace_path, spool=spool, limit=trace_limit)
    echoed = format_ == "jsonl" and output is None  # streamed to stdout as the program runs: a reader
    if echoed:  # that leaves (`| head`) stops it promptly
        events.echo = sys.stdout
    status = None
    from ._progress import run_status

    quiet = format_ == "tf2" or log_placement  # the live placement log owns the terminal
    try:
        with contextlib.redirect_stdout(sys.stderr) if owns_stdout else contextlib.nullcontext(), \
                contextlib.nullcontext() if quiet else run_status(ctx.trace), \
                _reader_watch(sys.stdout) if echoed else contextlib.nullcontext():
            status = execute_program(ctx, program, args)
    except interrupts.SIGNALLED as e:  # before or after the program's own try: its start-up, its end
        status = interrupts.status_of(e)
    except interrupts.ReaderGone:
        status = 141
    finally:
        sources.enable(on=False)  # the run is over: this process is a library user again (tests run it in-process)
        status = _close_trace(ctx, events, status)
    with amending(events):
        if html is not None:
            from . import _visual

            _visual.write("html", events, html, "--html", layout=layout)
        if output is not None and format_ == "timeline":
            from . import _visual

            _visual.write("timeline", events, output, "--output", layout=layout)
        elif format_ != "tf2" and not echoed:
            _write_format(events, format_, layout, output, sys.stdout if owns_stdout else stream_, group_by)
    return status, events


@contextlib.contextmanager
def _reader_watch(stream):
    """While the program runs with its trace streamed into a pipe: when the pipe's reader leaves
    (``| head``), the program stops within a tenth of a second (``ReaderGone`` raised by a SIGPIPE
    handler, not at its next trace flush, which a slow program may take long to reach)."""
    import select
    import stat

    try:
        fd = stream.fileno()
        piped = stat.S_ISFIFO(os.fstat(fd).st_mode)
    except (AttributeError, OSError, ValueError):
        piped = False
    if not piped or threading.current_thread() is not threading.main_thread() or not hasattr(select, "poll"):
        yield
        return
    stop = threading.Event()
    saved = signal.signal(signal.SIGPIPE, interrupts.raising(interrupts.ReaderGone))
    poller = select.poll()
    poller.register(fd, select.POLLERR)

    def watch():
        while not stop.is_set():
            if poller.poll(100):
                if not stop.is_set():
                    os.kill(os.getpid(), signal.SIGPIPE)
                return

    thread = threading.Thread(target=watch, name="devtrace-reader", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=1)
        signal.signal(signal.SIGPIPE, saved)


@contextlib.contextmanager
def amending(events):
    """A signal while the end of the run is written (a report, the checks): the trace's
    ``trace_end`` is written again with the status the run ends with (130, 143)."""
    try:
        yield
    except interrupts.SIGNALLED as e:
        events.amend_end(interrupts.status_of(e))
        raise


def _close_trace(ctx, events, status):
    """Flush the last events and write ``trace_end``, whatever signal comes meanwhile: a signal
    (or one still pending) sets the status it ends with. Returns the status."""
    closed = False
    while True:
        try:
            if not closed:
                with runlock.LOCK, interrupts.deferred():  # a thread's op waits: no record after trace_end
                    ctx.trace.flush(final=True)
                    ctx.trace.stream = None
                    status = interrupts.exit_status(status) if status is not None else status
                    closed = True
                    events.close(status)
            return status
        except interrupts.SIGNALLED as e:
            status = interrupts.status_of(e)
            if closed:
                events.amend_end(status)


def _write_format(events, format_, layout, output, out, group_by=None) -> None:
    """The ``--format`` output, to ``-o FILE`` (atomically) or ``out``; JSON Lines are copied from
    the spool a line at a time (a million-op trace is never one string). A table on a terminal is
    boxed when it fits (``output.print_table``: the rule of ``list`` and ``mem``)."""
    if output is None and format_ == "table":
        from ..output import is_terminal

        if is_terminal(out):
            _print_table(events, out, group_by)
            return
    if format_ == "jsonl":
        from ..output import printable_json

        chunks = (printable_json(line.decode("utf-8")) + "\n" for line in events.lines())
    else:
        text = render(events, format_, layout, group_by)
        chunks = [text if not text or text.endswith("\n") else text + "\n"]
    if output is not None:
        from ..output import AtomicOutput

        with AtomicOutput(output, "--output") as f:
            for chunk in chunks:
                f.write(chunk)
        return
    for chunk in chunks:
        out.write(chunk)
    out.flush()


def _print_table(events, out, group_by) -> None:
    from ..output import print_table
    from ..trace import render_groups, render_table

    if group_by is not None:
        headers, rows, right = render_groups.table(events, group_by)
        rows = render_groups.fit(headers, rows, render_groups.width())
    else:
        headers, rows = render_table.table(events)
        headers, rows, right = *render_table.narrowed(headers, rows, render_groups.width()), (0,)
    if rows:
        print_table(headers, rows, right=right, stream=out)
    out.flush()


@dataclass
class Checks:
    expect: list = field(default_factory=list)  # [(op, spec text, DeviceSpec)]
    no_fallback: bool = False
    max_copies: int | None = None
    max_peak: float | None = None

    @classmethod
    def parse(cls, expect, no_fallback, max_copies, max_peak) -> "Checks":
        if max_peak is not None and not math.isfinite(max_peak):
            raise UsageError(f"--max-peak {max_peak}: expected a finite number of MiB")
        from ..devices.spec import DeviceSpec

        parsed = []
        for item in expect:
            op, sep, text = item.partition("=")
            if not sep or not op or not text:
                raise UsageError(f"--expect {item}: expected OP=SPEC, e.g. --expect MatMul=GPU")
            try:
                parsed.append((op, text, DeviceSpec.from_string(text)))
            except ValueError as e:
                raise UsageError(f"--expect {item}: {e}") from None
        return cls(parsed, no_fallback, max_copies, max_peak)

    @property
    def active(self) -> bool:
        return bool(self.expect) or self.no_fallback or self.max_copies is not None or self.max_peak is not None

    def failures(self, events) -> list[str]:
        """One pass over the events (a streamed trace of any length), keeping counts and the first
        five offenders of each check."""
        from ..devices.names import is_complete_specification
        from ..devices.spec import DeviceSpec

        expected = [(op, text, pattern, [0, 0, []]) for op, text, pattern in self.expect]  # ran, elsewhere, first 5
        matches: dict = {}
        fallbacks, first_fallbacks = 0, []
        copies = copy_bytes = 0
        last: dict = {}
        for e in events:
            kind = e.kind
            if kind == "op_placed":
                for op, _, pattern, seen in expected:
                    if e.op != op:
                        continue
                    seen[0] += 1
                    key = (id(pattern), e.device)
                    ok = matches.get(key)
                    if ok is None:
                        ok = matches[key] = is_complete_specification(pattern, DeviceSpec.from_string(e.device))
                    if not ok:
                        seen[1] += 1
                        if len(seen[2]) < 5:
                            seen[2].append(e)
                if e.reason == ev.FALLBACK:
                    fallbacks += 1
                    if len(first_fallbacks) < 5:
                        first_fallbacks.append(e)
            elif kind == "tensor_copied":
                copies += 1
                copy_bytes += e.nbytes
            elif kind == "memory_stats":
                last[e.device] = e
            elif kind == "trace_limited":  # the ops --trace-limit left out, counted
                copies, copy_bytes = copies + e.copies, copy_bytes + e.copy_bytes
                fallbacks += sum(row[3] for row in e.op_types)
                _count_left_out(expected, e.op_types)
        out = []
        for op, text, _, (ran, elsewhere, bad) in expected:
            if not ran:
                out.append(f"--expect {op}={text}: no {op} op ran")
            elif elsewhere:
                where = ", ".join(f"#{e.seq} on {e.device.rsplit('/', 1)[-1].replace('device:', '')} ({e.reason})"
                                  for e in bad)
                more = f" and {elsewhere - len(bad)} more" if elsewhere > len(bad) and bad else ""
                where = where or "all past --trace-limit, not in the trace"
                out.append(f"--expect {op}={text}: {elsewhere} of {ran} {op} ops ran elsewhere: {where}{more}")
        if self.no_fallback and fallbacks:
            names = ", ".join(f"#{e.seq} {e.op}" for e in first_fallbacks) or "all past --trace-limit"
            out.append(f"--no-fallback: {fallbacks} op(s) fell back to the CPU: {names}")
        if self.max_copies is not None and copies > self.max_copies:
            out.append(f"--max-copies {self.max_copies}: {copies} copies ({copy_bytes} bytes)")
        if self.max_peak is not None:
            for name, s in last.items():
                if s.peak > self.max_peak * MiB:
                    out.append(f"--max-peak {self.max_peak:g}: {name} peaked at {s.peak / MiB:.1f} MiB")
        return out

    def enforce(self, events) -> None:
        if not self.active:  # nothing to check: the trace is not read again
            return
        failures = self.failures(events)
        for line in failures:
            sys.stderr.write(f"Check failed: {printable(line)}\n")
        if failures:
            raise CheckFailed(f"{len(failures)} check{'s' if len(failures) > 1 else ''} failed")


def _count_left_out(expected, op_types) -> None:
    """``--expect`` over the ops a ``--trace-limit`` trace left out: their counts by type and device."""
    from ..devices.names import is_complete_specification
    from ..devices.spec import DeviceSpec

    for op, _, pattern, seen in expected:
        for name, device, n, _ in op_types:
            if name == op:
                seen[0] += n
                if not is_complete_specification(pattern, DeviceSpec.from_string(device)):
                    seen[1] += n
