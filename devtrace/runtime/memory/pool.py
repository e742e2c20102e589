"""The accounting of a logical device on a real GPU, whose memory is a CuPy memory pool.

A simulated GPU's memory is TensorFlow's BFC allocator (:mod:`.bfc`, 256-byte rounding). On a
real GPU the memory is CuPy's pool, and the kernel allocates its output there before devtrace
sees it; so this allocator keeps the books *as the pool keeps them*: every live tensor counts
its buffer rounded up to 512 bytes (CuPy's ``ALLOCATION_UNIT_SIZE``), the limit is the one the
pool was given (both from the device's ``MemoryPolicy``), and what is reserved is the pool's
``total_bytes``. With every device buffer owned by one tensor, ``bytes_in_use`` equals the
pool's ``used_bytes`` after every op; an allocation the pool refuses surfaces as CuPy's
``OutOfMemoryError``, which the execution step turns into TensorFlow's OOM.
"""

from __future__ import annotations

import itertools

CUPY_ALLOCATION_UNIT = 512  # cupy/cuda/memory.pyx ALLOCATION_UNIT_SIZE: cudaMalloc's alignment


def round_pool_bytes(n: int) -> int:
    """CuPy's ``_round_size``: ``n`` rounded up to a multiple of 512 (0 stays 0)."""
    return (n + CUPY_ALLOCATION_UNIT - 1) // CUPY_ALLOCATION_UNIT * CUPY_ALLOCATION_UNIT


class PoolAllocator:
    """Same interface as :class:`~.bfc.BFCAllocator`. ``reserved`` is a callable giving the
    pool's ``total_bytes`` now; every growth of it is reported through ``on_reserve`` (a region:
    a block CuPy took from the device)."""

    def __init__(self, name: str, limit: int | None, allow_growth: bool, reserved=None, on_reserve=None):
        self.name = name
        self.limit = None if limit is None else int(limit)
        self.allow_growth = bool(allow_growth)
        self.on_reserve = on_reserve
        self._reserved = reserved or (lambda: 0)
        self.bytes_in_use = 0
        self.peak_bytes_in_use = 0
        self.num_allocs = 0
        self.largest_alloc_size = 0
        self.num_ooms = 0
        self.region_sizes: list[int] = []
        self._seen_reserved = 0
        self._live: dict[int, tuple[int, object]] = {}
        self._ids = itertools.count(1)
        self.sync_reserved()

    @property
    def bytes_reserved(self) -> int:
        return self._seen_reserved

    @property
    def num_regions(self) -> int:
        return len(self.region_sizes)

    def sync_reserved(self) -> None:
        """Record what the pool took from the device since the last look."""
        total = self._reserved()
        if total > self._seen_reserved:
            grown = total - self._seen_reserved
            self.region_sizes.append(grown)
            self._seen_reserved = total
            if self.on_reserve is not None:
                self.on_reserve(grown, total)
        elif total < self._seen_reserved:  # CuPy freed cached blocks (free_all_blocks before an OOM)
            self._seen_reserved = total

    def allocate(self, nbytes: int, tag=None) -> int | None:
        """Account a buffer of ``nbytes`` the pool holds (rounded as CuPy rounds it), or None
        when it would not fit under the limit (a request asked before the kernel runs)."""
        if nbytes < 0:
            raise ValueError(f"cannot allocate {nbytes} bytes")
        size = round_pool_bytes(nbytes)
        if self.limit is not None and self.bytes_in_use + size > self.limit:
            self.num_ooms += 1
            return None
        handle = next(self._ids)
        self._live[handle] = (size, tag)
        if size:
            self.num_allocs += 1
            n = self.bytes_in_use = self.bytes_in_use + size
            if n > self.peak_bytes_in_use:
                self.peak_bytes_in_use = n
            if size > self.largest_alloc_size:
                self.largest_alloc_size = size
            self.sync_reserved()
        return handle

    def free(self, handle: int) -> None:
        try:
            self.bytes_in_use -= self._live.pop(handle)[0]
        except KeyError:
            raise ValueError(f"{self.name}: free of unknown or already freed handle {handle!r}") from None

    def reset_peak(self) -> None:
        self.peak_bytes_in_use = self.bytes_in_use
        self.num_allocs = 0
        self.largest_alloc_size = 0

    def live_allocations(self) -> list[tuple[int, object]]:
        return sorted((e for e in self._live.values() if e[0]), key=lambda e: e[0], reverse=True)

    def largest_free_block(self) -> int:
        return max(0, self._seen_reserved - self.bytes_in_use)

    def chunks(self) -> list[tuple[int, int, bool]]:
        return []

    def __repr__(self) -> str:
        return (f"PoolAllocator({self.name!r}, limit={self.limit}, allow_growth={self.allow_growth}, "
                f"reserved={self.bytes_reserved}, in_use={self.bytes_in_use})")
