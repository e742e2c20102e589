"""Ops run from several threads: one run, one trace, TensorFlow's per-thread scopes.

The runtime's state is one process-wide ``Context``, and its per-op path takes no lock. The first
``threading.Thread.start`` once devtrace's runtime exists (or a context made while such a thread
still runs) turns ``Context.threaded`` on for good: from then on every op (``executor.execute``, ``execute_const``, ``Session.run``, a
``tf.function`` call) and every free of a tensor's memory holds the run's re-entrant lock
(``util/runlock.py``), the C hot path hands every op to Python (``_fastpath.set_threaded``), and so
ops are placed, accounted and recorded one at a time: ``seq`` is one global order. What TensorFlow
keeps per thread (the ``tf.device`` scope, the name scope, the gradient tapes) is swapped into the
context when a thread takes the lock after another (``own``): a scope in one thread does not apply
in another, and a new thread starts with none, as in TensorFlow.
"""

from __future__ import annotations

import threading
from weakref import WeakKeyDictionary, WeakSet

from ..trace import events as ev
from ..util.runlock import LOCK, owned
from .native import FASTPATH

PER_THREAD = ("scope", "scope_spec", "scope_reason", "name_scope", "tapes", "list_arg_seq")
_saved: WeakKeyDictionary = WeakKeyDictionary()  # thread -> its PER_THREAD values while another holds the context
_holder = None  # the thread whose PER_THREAD values the context holds
_start = threading.Thread.start
_numbers: WeakKeyDictionary = WeakKeyDictionary()  # thread other than the main one -> its number in the trace
_started: WeakSet = WeakSet()  # the threads started since devtrace watched threading.Thread.start
_watched = None  # the newest context (context.py hands each to ``watch``)
active = False  # a thread was started: tensor frees take the lock (tensor.py)

__all__ = ["LOCK", "owned", "locked", "own", "watch"]


def _fresh() -> tuple:
    """A new thread's values: no device scope, no name scope, no tape (TensorFlow's)."""
    return ("", None, ev.EXPLICIT, "", [], None)


def own(ctx) -> None:
    """Make ``ctx`` hold this thread's per-thread values (the caller holds ``LOCK``)."""
    global _holder
    me = threading.current_thread()
    if _holder is me:
        return
    if _holder is not None:
        _saved[_holder] = tuple(getattr(ctx, f) for f in PER_THREAD)
    state = _saved.pop(me, None) or _fresh()
    for f, v in zip(PER_THREAD, state):
        setattr(ctx, f, v)
    _holder = me
    _mark(ctx, me)


def _mark(ctx, thread) -> None:
    """Record that the records from here on are ``thread``'s (one ``ThreadSwitched`` per switch)."""
    number = 0 if thread is threading.main_thread() else _numbers.get(thread)
    if number is None:
        number = _numbers[thread] = len(_numbers) + 1
    marked = ctx.thread_marked  # [the thread of the trace's latest records, the one before it]
    if marked[0] == number:
        return
    if ctx.trace.drop_last(ev.ThreadSwitched):  # the thread switched to recorded nothing
        marked[0] = marked[1]
        if marked[0] == number:
            return
    marked[:] = [number, marked[0]]
    ctx.trace.append(ev.ThreadSwitched(number, thread.name))


def locked(ctx, fn, *args):
    """``fn(*args)`` holding the run's lock, ``ctx`` holding this thread's values."""
    with LOCK:
        own(ctx)
        return fn(*args)


def _enable(ctx) -> None:
    global _holder, active
    with LOCK:
        active = True
        if FASTPATH is not None:
            FASTPATH.set_threaded(True)
        if ctx is not None and not ctx.threaded:
            if _holder is None:
                _holder = threading.current_thread()  # the context holds the starting thread's values
            ctx.threaded = True
            _mark(ctx, _holder)


def _start_watched(self):
    """``threading.Thread.start``: before the new thread can run an op, every op takes the lock."""
    _started.add(self)
    _enable(_watched)
    return _start(self)


def watch(ctx) -> None:
    """Called for each new context: it is threaded once a thread starts, or at once while one
    started earlier still runs (a context made for each test is not, once those threads ended)."""
    global _holder, active, _watched
    _watched = ctx
    if threading.Thread.start is not _start_watched:
        threading.Thread.start = _start_watched
    _saved.clear()
    _numbers.clear()
    _holder = None
    if any(t.is_alive() for t in list(_started)):
        _enable(ctx)
    elif active:
        active = False
        if FASTPATH is not None:
            FASTPATH.set_threaded(False)
