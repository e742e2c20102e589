"""What a running program prints besides its own output, as TensorFlow prints it: the runtime's
messages that ``tf.get_logger()``'s level lets through (WARNING and ERROR by default, INFO after
``setLevel('INFO')``; stderr), the live placement log while it is on (stderr by default, with the
INFO lines).

The console is a listener on the runtime's event stream; the package installs it on every new
context (``hooks.CONTEXT_CREATED``) and ``devtrace run`` reconfigures it (stream, or no live log
when the trace is rendered in another format at the end).
"""

from __future__ import annotations

import os
import sys

from ..platform.tf_logging import logger_enabled
from ..trace import render_tf2


class Console:
    def __init__(self, trace, stream=None, placement_log: bool = True):
        self.trace = trace
        self.stream = stream  # None: sys.stderr at the time of writing
        self.placement_log = placement_log
        self.kernel_graphs = True  # TensorFlow's own log: each eager op's one-op function, its C++ log level
        self._min_log_level = None  # TF_CPP_MIN_LOG_LEVEL, read when the first line is logged

    def placement(self, event) -> None:
        if not self.placement_log or (event.kind == "message" and event.level != "INFO"):
            return  # warnings print anyway (message)
        if event.kind == "kernel_graph":
            if self.kernel_graphs:
                for text in render_tf2.kernel_graph(event).splitlines():
                    self._placer_line(text)
            return
        if self.trace.graph_mode:  # a TF1 session's event (rare: imported when first needed)
            from ..trace import render_tf1

            text = render_tf1.line(event)
        else:
            text = render_tf2.line(event)
        if text is None:
            return
        if self.trace.printf:
            self._placer_line(text)
        elif event.kind == "message" or not self._glog_muted():
            self._log(text)

    def _placer_line(self, text: str) -> None:
        """TensorFlow's placer printf()s a node's line on stdout, then logs it (INFO, stderr)."""
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        if not self._glog_muted():
            self._log(text)

    def _log(self, text: str) -> None:
        out = self.stream or sys.stderr
        if out is not sys.stdout:
            sys.stdout.flush()  # keep the program's own output in order with the log
        out.write(text + "\n")
        out.flush()

    def _glog_muted(self) -> bool:
        """``TF_CPP_MIN_LOG_LEVEL`` >= 1 hides TensorFlow's C++ INFO lines (its own log only: devtrace's
        ``--log-placement`` log is asked for)."""
        if self._min_log_level is None:
            level = os.environ.get("TF_CPP_MIN_LOG_LEVEL", "0").strip()
            self._min_log_level = int(level) if level.isdigit() else 0
        return self.kernel_graphs and self._min_log_level >= 1

    def message(self, event) -> None:
        """What ``tf.get_logger()``'s level lets through (warnings, by default); ``INFO:tensorflow:``
        lines also print with the placement log, which prints them itself."""
        if event.level == "INFO" and self._logs_placement():
            return
        if logger_enabled(event.level):
            sys.stdout.flush()
            sys.stderr.write(render_tf2.line(event) + "\n")
            sys.stderr.flush()

    def _logs_placement(self) -> bool:
        return self.placement_log and self.placement in self.trace.listeners


def attach(ctx, stream=None, placement_log: bool = True) -> Console:
    """The console of ``ctx``'s trace, created or reconfigured."""
    trace = ctx.trace
    for listener in trace.message_listeners:
        console = getattr(listener, "__self__", None)
        if isinstance(console, Console):
            console.stream, console.placement_log = stream, placement_log
            return console
    console = Console(trace, stream, placement_log)
    trace.message_listeners.append(console.message)
    trace.placement_listeners.append(console.placement)
    trace.set_placement_logging(bool(trace.listeners) or ctx.log_device_placement)
    return console
