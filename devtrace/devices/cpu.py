"""The host CPU: one physical CPU device."""

from __future__ import annotations

import functools
import os

from .physical import CPUInfo


@functools.lru_cache(maxsize=1)
def probe() -> CPUInfo:
    model = os.uname().machine if hasattr(os, "uname") else "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 0
    return CPUInfo(model=model, cores=os.cpu_count() or 1, memory_total=memory)
