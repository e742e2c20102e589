"""Writing the timeline (Trace Event Format) and the HTML report to a file or stdout, for
``devtrace run --format timeline / --html``, ``devtrace timeline`` and ``devtrace report``.

Files are written atomically (a temp file beside the destination, renamed on success), stdout
only once the whole output is ready (spooled through a temp file), so a failure — a bad line
late in a trace, an empty trace — never leaves half a file.
"""

from __future__ import annotations

import sys

from ..errors import UsageError

LAYOUTS = ("measured", "sequence")


class _Stdout:
    """Spool to an anonymous temp file; copy it to stdout on commit (JSON with every non-printable
    character escaped: a name from a trace never drives the terminal)."""

    def __init__(self, json_text: bool):
        import tempfile

        self.file = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.json_text = json_text

    def write(self, text):
        self.file.write(text)

    def commit(self):
        from ..output import printable_json

        self.file.seek(0)
        sys.stdout.flush()
        for line in self.file:
            sys.stdout.write(printable_json(line[:-1]) + "\n" if self.json_text and line.endswith("\n")
                             else printable_json(line) if self.json_text else line)
        sys.stdout.flush()
        self.file.close()

    def abort(self):
        self.file.close()


def check_layout(layout: str) -> None:
    if layout not in LAYOUTS:
        raise UsageError(f"--layout {layout}: choose measured or sequence")


def write(kind: str, events, path: str | None, option: str = "-o", *, layout: str = "measured",
          full_ops: int | None = None, sample_every: int | None = None, source: str | None = None,
          require_events: bool = False):
    """Stream ``events`` as ``kind`` ("timeline" or "html") to ``path`` (None or "-": stdout).
    Returns the ``Timeline``. ``require_events``: an empty trace is bad input (exit 2)."""
    from ..output import AtomicOutput

    check_layout(layout)
    out = _Stdout(kind != "html") if path is None or path == "-" else AtomicOutput(path, option)
    kwargs = {"layout": layout}
    if full_ops is not None:
        kwargs["full_ops"] = full_ops
    if sample_every is not None:
        kwargs["sample_every"] = sample_every
    try:
        if kind == "html":
            from ..trace import render_html

            tl = render_html.write(events, out, **kwargs)
        else:
            from ..trace import render_timeline

            tl = render_timeline.write(events, out, **kwargs)
        if require_events and tl.empty():
            raise UsageError(f"{source}: empty trace (no devices and no ops to draw)")
    except BaseException:
        out.abort()
        raise
    out.commit()
    return tl


def note(tl, path, what: str) -> str:
    """The one line printed on stderr after writing a file."""
    m = tl.meta()
    sampled = f"; sampled: {m['ops_written']} of {m['ops']} ops drawn" if m["sampled"] else ""
    return (f"Wrote {what} {path}: {m['ops']} ops on {len(m['devices'])} devices, {m['copies']} copies"
            f"{sampled}")
