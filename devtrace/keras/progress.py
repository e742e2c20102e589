"""What ``fit``/``evaluate``/``predict`` print, as Keras 3 prints it: ``verbose=2`` one line per
epoch (``4/4 - 0s - 5ms/step - loss: 0.2841``), ``verbose=1`` Keras's progress bar (bold counts, a
20-cell bar, redrawn in place with backspaces and ``\\r`` at most every 0.05 s, and at the end)."""

from __future__ import annotations

import math
import sys
import time

_WIDTH = 20


def metrics_text(logs) -> str:
    return "".join(f" - {k}: {v:.4f}" if abs(v) > 1e-3 else f" - {k}: {v:.4e}" for k, v in logs.items())


def _per_step(seconds: float) -> str:
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/step"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/step"
    return f"{seconds * 1e6:.0f}us/step"


class Progress:
    """One epoch's (or one evaluate's / predict's) output for a verbosity."""

    def __init__(self, steps: int, verbose):
        self.steps, self.verbose = steps, 1 if verbose == "auto" else int(verbose or 0)
        self.start = time.time()
        self._last_draw, self._drawn_width = 0.0, 0

    def epoch(self, epoch: int, epochs: int) -> None:
        if self.verbose and epochs > 1:
            sys.stdout.write(f"Epoch {epoch + 1}/{epochs}\n")

    def step(self, done: int, logs, final: bool = False) -> None:
        """One step's drawing (at most every 0.05 s); ``final``: the last one, with the epoch's logs
        (the validation metrics too), its elapsed time in place of the ETA, and a newline."""
        if self.verbose != 1:
            return
        now = time.time()
        if now - self._last_draw < 0.05 and not final:
            return
        self._last_draw = now
        digits = int(math.log10(self.steps)) + 1
        filled = int(_WIDTH * done / self.steps)
        bar = (f"\x1b[1m{done:{digits}d}/{self.steps}\x1b[0m " + ("\x1b[32m" + "━" * filled + "\x1b[0m" if filled else "")
               + "\x1b[37m" + "━" * (_WIDTH - filled) + "\x1b[0m")
        elapsed = now - self.start
        eta = elapsed if final else elapsed / max(done, 1) * (self.steps - done)
        text = f"{bar} \x1b[1m{eta:.0f}s\x1b[0m {_per_step(elapsed / max(done, 1))}" + metrics_text(logs)
        width = len(text)
        pad = " " * (self._drawn_width - width) if self._drawn_width > width else ""
        sys.stdout.write("\b" * self._drawn_width + "\r" + text + pad + ("\n" if final else ""))
        self._drawn_width = width
        sys.stdout.flush()

    def end(self, logs) -> None:
        if self.verbose == 1:
            self.step(self.steps, logs, final=True)
        if self.verbose == 2:
            elapsed = time.time() - self.start
            sys.stdout.write(f"{self.steps}/{self.steps} - {elapsed:.0f}s - {_per_step(elapsed / self.steps)}"
                             + metrics_text(logs) + "\n")
