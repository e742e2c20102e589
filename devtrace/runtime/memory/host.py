"""Host (CPU) memory accounting."""

from __future__ import annotations

import itertools


class HostAllocator:
    """Host (CPU) memory: unlimited, unrounded, no regions and no OOMs — just counters, since it
    sits on the hot path of every CPU op. Same interface as :class:`BFCAllocator`."""

    __slots__ = ("name", "bytes_in_use", "peak_bytes_in_use", "num_allocs", "largest_alloc_size", "_live", "_ids")
    limit = None
    allow_growth = True
    num_ooms = 0
    num_regions = 0

    def __init__(self, name: str = "cpu"):
        self.name = name
        self.bytes_in_use = 0
        self.peak_bytes_in_use = 0
        self.num_allocs = 0
        self.largest_alloc_size = 0
        self._live: dict[int, tuple[int, object]] = {}  # handle -> (nbytes, tag)
        self._ids = itertools.count(1)

    @property
    def bytes_reserved(self) -> int:
        return self.bytes_in_use

    @property
    def region_sizes(self) -> list[int]:
        return []

    def allocate(self, nbytes: int, tag=None) -> int:
        handle = next(self._ids)
        self._live[handle] = (nbytes, tag)
        self.num_allocs += 1
        n = self.bytes_in_use = self.bytes_in_use + nbytes
        if n > self.peak_bytes_in_use:
            self.peak_bytes_in_use = n
        if nbytes > self.largest_alloc_size:
            self.largest_alloc_size = nbytes
        return handle

    def free(self, handle: int) -> None:
        try:
            self.bytes_in_use -= self._live.pop(handle)[0]
        except KeyError:
            raise ValueError(f"{self.name}: free of unknown or already freed handle {handle!r}") from None

    def reset_peak(self) -> None:
        """As :meth:`BFCAllocator.reset_peak` (TF's ``ClearStats``)."""
        self.peak_bytes_in_use = self.bytes_in_use
        self.num_allocs = 0
        self.largest_alloc_size = 0

    def live_allocations(self) -> list[tuple[int, object]]:
        return sorted(self._live.values(), key=lambda e: e[0], reverse=True)

    def largest_free_block(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"HostAllocator({self.name!r}, in_use={self.bytes_in_use})"
