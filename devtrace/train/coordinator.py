"""``tf.train.Coordinator``: threads that stop together — one asks, all see ``should_stop``;
``join`` waits for them and raises the exception that stopped them."""

from __future__ import annotations

import contextlib
import sys
import threading
import time

from ..errors import OutOfRangeError


class Coordinator:
    def __init__(self, clean_stop_exception_types=None):
        self._clean_stop_exception_types = tuple(
            (OutOfRangeError,) if clean_stop_exception_types is None else clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def request_stop(self, ex=None):
        """Ask every thread to stop; an exception (or ``exc_info``) given is raised by ``join``."""
        with self._lock:
            if not self._stop_event.is_set():
                if ex is not None and self._exc_info_to_raise is None:
                    if isinstance(ex, tuple):
                        ex = ex[1]
                    if not isinstance(ex, self._clean_stop_exception_types):
                        self._exc_info_to_raise = (type(ex), ex, ex.__traceback__)
                self._stop_event.set()

    def clear_stop(self):
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        try:
            yield
        except Exception:  # noqa: BLE001 (any exception stops the threads, as TensorFlow's)
            self.request_stop(ex=sys.exc_info()[1])

    def wait_for_stop(self, timeout=None) -> bool:
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for the threads to end (after a stop request, at most ``stop_grace_period_secs``)."""
        threads = set(threads or ()) | self._registered_threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.time() + stop_grace_period_secs
        while any(t.is_alive() for t in threads) and time.time() < deadline:
            time.sleep(0.01)
        alive = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                _, ex, tb = self._exc_info_to_raise
                raise ex.with_traceback(tb)
        if alive and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: {' '.join(alive)}")

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self):
        with self._lock:
            if self._exc_info_to_raise:
                _, ex, tb = self._exc_info_to_raise
                raise ex.with_traceback(tb)
