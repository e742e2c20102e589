"""The run's lock: held by every op once the program runs ops from several threads
(``runtime/threads.py``), and by every write of the trace's records (``Trace.flush``), so a
batch of records is written whole and in the one order their ``seq`` gives."""

from __future__ import annotations

import threading

LOCK = threading.RLock()
owned = LOCK._is_owned  # does this thread hold it (C's RLock answers without a Python frame)
