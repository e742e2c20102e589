"""Host (CPU) memory accounting."""

from __future__ import annotations

from ..native import FASTPATH
from .bfc import BFCAllocator

# oneDNN's CPU allocator (TensorFlow's ``MklCPUAllocator``, TF_ENABLE_ONEDNN_OPTS on) sends requests
# of kSmallAllocationsThreshold bytes and more to a BFC allocator, smaller ones to an allocator
# without stats: the BFC's stats are what ``tf.config.experimental.get_memory_info`` reports for a CPU.
ONEDNN_LARGE_ALLOCATION = 262144


def onednn_allocator(host_memory: int) -> BFCAllocator:
    """oneDNN's large-allocation BFC allocator: one per process (every CPU device shares it),
    growing, limited by the host's memory."""
    return BFCAllocator("mkl_cpu_allocator", host_memory, allow_growth=True)


class _Counters:
    """HostAllocator's counters; with the C module (``native.py``) they are ``_fastpath.HostBase``'s,
    C integers the per-op path reads and writes without making a Python int."""

    __slots__ = ("bytes_in_use", "peak_bytes_in_use", "num_allocs", "largest_alloc_size")


class HostAllocator(FASTPATH.HostBase if FASTPATH is not None else _Counters):
    """Host (CPU) memory: unlimited, unrounded, no regions and no OOMs — just counters, since it
    sits on the hot path of every CPU op. Same interface as :class:`BFCAllocator`, but a handle is
    the byte count itself (with the oneDNN allocator's handle for a large request): each tensor
    frees its handle once, and with no OOM to report there are no live allocations to list.
    ``onednn``: the process's :func:`onednn_allocator`, which also books the large requests
    (TensorFlow's CPU stats)."""

    __slots__ = ("name", "onednn")
    limit = None
    allow_growth = True
    num_ooms = 0
    num_regions = 0

    def __init__(self, name: str = "cpu", onednn: BFCAllocator | None = None):
        self.name = name
        self.onednn = onednn
        self.bytes_in_use = 0
        self.peak_bytes_in_use = 0
        self.num_allocs = 0
        self.largest_alloc_size = 0

    @property
    def bytes_reserved(self) -> int:
        return self.bytes_in_use

    @property
    def region_sizes(self) -> list[int]:
        return []

    def allocate(self, nbytes: int, tag=None):
        self.num_allocs += 1
        n = self.bytes_in_use = self.bytes_in_use + nbytes
        if n > self.peak_bytes_in_use:
            self.peak_bytes_in_use = n
        if nbytes > self.largest_alloc_size:
            self.largest_alloc_size = nbytes
        if nbytes >= ONEDNN_LARGE_ALLOCATION and self.onednn is not None:
            large = self.onednn.allocate(nbytes, tag)
            if large is not None:
                return nbytes, large
        return nbytes

    def free(self, handle) -> None:
        try:
            self.bytes_in_use -= handle
        except TypeError:  # a large request: (nbytes, the oneDNN allocator's handle)
            self.bytes_in_use -= handle[0]
            self.onednn.free(handle[1])

    def reset_peak(self) -> None:
        """As :meth:`BFCAllocator.reset_peak` (TF's ``ClearStats``)."""
        self.peak_bytes_in_use = self.bytes_in_use
        self.num_allocs = 0
        self.largest_alloc_size = 0

    def live_allocations(self) -> list[tuple[int, object]]:
        return []

    def largest_free_block(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"HostAllocator({self.name!r}, in_use={self.bytes_in_use})"
