"""Finalisers that run in the middle of the eager hot path and replace what it read.

CPython 3.10 and 3.11 run the cyclic collector inside the allocation of any tracked object (a
tuple, a Tensor): with the thresholds at 1, nearly every such allocation in an op collects, and an
unreachable cycle armed before each op runs its finaliser there. The finaliser replaces the
context's device scope (the op's placement key and trace record read it; the old string is freed
then), the trace's record list, or the placement cache. The ops must go on, right: their values and
records are printed, and the run must end (tests/test_fastpath.py runs this in a subprocess; an
object used after it was freed crashes it, or prints a wrong record). From 3.12 on a collection
waits for the interpreter's next check, so this runs the same ops without interrupting them.
"""

import gc
import os
import sys

os.environ["DEVTRACE_NVML"] = "0"

import numpy as np  # noqa: E402

import devtrace as tf  # noqa: E402
from devtrace.runtime.context import context  # noqa: E402
from devtrace.runtime.eager.executor import execute_binary  # noqa: E402
from devtrace.trace.events import OpRecord  # noqa: E402

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
ctx = context()


def fresh(text):
    return "".join(list(text))  # an equal string that only its holder holds


class Finaliser:
    __slots__ = ("cycle", "what")

    def __del__(self):
        if self.what == "scope":
            ctx.scope = fresh(ctx.scope)
        elif self.what == "records":
            ctx.trace._events = []
        elif self.what == "placements":
            ctx.placement_cache = {}


def arm(what):
    f = Finaliser()
    f.cycle, f.what = f, what


with tf.device("/CPU:0"):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    for what in ("scope", "records", "placements"):
        execute_binary("AddV2", x, x)  # placed: the next ops find the placement cached
        ctx.scope = fresh(ctx.scope)
        ctx.trace._events.clear()
        gc.collect()
        gc.set_threshold(1, 1, 1)
        try:
            for _ in range(ROUNDS):
                arm(what)
                out = execute_binary("AddV2", x, x)
        finally:
            gc.set_threshold(700, 10, 10)
        records = [r for r in ctx.trace._events if type(r) is OpRecord]  # what the finaliser left of them
        right = all((r.op, r.node, r.requested, r.device, r.reason, r.shape, r.dtype)
                    == ("AddV2", None, ctx.scope, x.device, "explicit", (2, 3), "float32") for r in records)
        print(what, out.numpy().tolist(), "records right:", right, "seq:", ctx.trace._seq)
