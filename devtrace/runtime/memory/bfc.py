"""TensorFlow's best-fit-with-coalescing (BFC) allocator, bookkeeping only.

Nothing here touches real memory. A :class:`BFCAllocator` does TensorFlow's bookkeeping for one
GPU device — regions reserved from the device, chunks carved out of them, stats — so that a
program sees the same ``bytes_in_use``/``peak``, the same regions and the same OOMs (including
OOMs caused by fragmentation) as under ``tensorflow/core/common_runtime/bfc_allocator.cc``.

Handles are opaque positive ints, never reused, so a double free is always detected.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left

from ...output import MiB
from ..native import FASTPATH

_new = object.__new__

MIN_ALLOCATION_SIZE = 256            # kMinAllocationSize: every request is rounded up to this
NUM_BINS = 21                        # kNumBins: bin b holds [256 << b, 256 << (b+1)); the last, all >= 256 MiB
INITIAL_GROWTH_REGION = 2 * MiB      # first region with allow_growth
MAX_INTERNAL_FRAGMENTATION = 128 * MiB  # split a chunk anyway if it would waste this much


def round_bytes(n: int) -> int:
    """TF's ``RoundedBytes``: ``n`` rounded up to a multiple of 256. ``round_bytes(0) == 0``, as in TF
    (TF never asks its allocator for 0 bytes: an empty tensor has no buffer)."""
    return (n + MIN_ALLOCATION_SIZE - 1) & -MIN_ALLOCATION_SIZE


def bin_index(size: int) -> int:
    """TF's ``BinNumForSize``: the bin of a chunk of ``size`` bytes (0..20)."""
    return min(max(size >> 8, 1).bit_length() - 1, NUM_BINS - 1)


class _SizeIndex:
    """A set of non-negative ints (chunk sizes / 256) answering "smallest member >= k": a sorted
    list, searched by bisection. TF scans a sorted set per bin; a heap per bin could not find
    "smallest >= request" inside the request's own bin without a linear scan. The distinct free
    sizes are few (tens, a few thousand when badly fragmented), so a list insert's move of
    pointers costs less than any structure walked in Python.
    """

    __slots__ = ("keys",)

    def __init__(self, max_key: int):
        self.keys: list[int] = []

    def add(self, k: int) -> None:
        keys = self.keys
        i = bisect_left(keys, k)
        if i == len(keys) or keys[i] != k:
            keys.insert(i, k)

    def discard(self, k: int) -> None:
        keys = self.keys
        i = bisect_left(keys, k)
        if i < len(keys) and keys[i] == k:
            del keys[i]

    def successor(self, k: int) -> int | None:
        """The smallest member >= ``k``, or None."""
        keys = self.keys
        i = bisect_left(keys, k)
        return keys[i] if i < len(keys) else None

    def maximum(self) -> int | None:
        return self.keys[-1] if self.keys else None


class _Chunk:
    """A piece of a region: ``[addr, addr + size)``. ``prev``/``next`` are the address-adjacent
    chunks of the same region (None at the region's ends), so chunks never merge across regions."""

    __slots__ = ("addr", "size", "prev", "next", "in_use", "tag", "request")

    def __init__(self, addr, size, prev=None, next=None):
        self.addr = addr
        self.size = size
        self.prev = prev
        self.next = next
        self.in_use = False
        self.tag = None
        self.request = None  # in use: the bytes asked for, if that request rounds up to ``size``


_NOTHING = _Chunk(0, -1)  # "no chunk pending": no request equals its request or rounds up to its size


class _Methods:
    """``BFCAllocator.allocate``, ``free`` and ``_allocate``. With the runtime's C module
    (``native.py``) they are ``_fastpath.BFCBase``'s, which does the same step for step — the steady
    state (a free parking its chunk, an allocate of that size taking it back), best fit and split,
    coalescing (``_coalesce``, ``_insert_free``, ``_remove_free``, ``_take_best_fit`` in C) — and
    hands the rest here whole (a 0-byte request, an unknown handle, a free while busy)."""

    __slots__ = ()

    def allocate(self, nbytes: int, tag=None) -> int | None:
        """A handle for ``nbytes`` (rounded up to 256), or None when it cannot be satisfied."""
        chunk = self._pending
        if nbytes != chunk.request:
            rounded = (nbytes + MIN_ALLOCATION_SIZE - 1) & -MIN_ALLOCATION_SIZE
            if rounded != chunk.size:
                return self._allocate(nbytes, rounded, tag)
        size = chunk.size
        if size != self._absent:  # not known to be the only free chunk of its size: look
            if (size >> 8) in self._nfree:
                return self._allocate(nbytes, size, tag)
            self._absent = size
        # The steady state (free, then allocate the same size): the pending chunk is what TF's best
        # fit returns (see free), and handing it back leaves every other chunk as it was. In use
        # again, the bytes in use are what they were before the free: never above the peak, and
        # its size already counted in the largest allocation (see reset_peak). Nothing here
        # creates an object: no garbage collection runs.
        self._pending = _NOTHING
        handle = self._handle = self._handle + 1
        self._live[handle] = chunk
        self.bytes_in_use += size
        chunk.tag = tag  # last: the old tag's __del__ finds the allocator in order
        return handle

    def free(self, handle: int) -> None:
        """Return an allocation; it coalesces with free neighbours of the same region."""
        if self._busy:  # a __del__ run by the garbage collector inside one of our calls: later
            self._deferred.append(handle)
            return
        try:
            chunk = self._live.pop(handle)
        except KeyError:
            chunk = self._allocated_before_reset(handle)
            if chunk is None:
                return
            self.bytes_in_use -= chunk.size
        else:
            size = chunk.size
            self.bytes_in_use -= size
            if self._pending is _NOTHING:
                # Park the chunk as pending — free, not yet in the size index — when nothing else
                # need change for the next request of its size to get it back as TF's best fit
                # would, if it is the only free chunk of that size (allocate looks): it has nothing
                # to coalesce, or its only neighbour to absorb is the only free chunk there is, big
                # enough that the request splits it again. It keeps its in-use mark and tag until
                # filed: the fast path touches neither.
                prev, nxt = chunk.prev, chunk.next
                if (prev is None or prev.in_use) and (nxt is None or nxt.in_use or len(self._free_at) == 1 and (
                        nxt.size >= size or nxt.size >= MAX_INTERNAL_FRAGMENTATION)):
                    self._pending = chunk
                    return
        self._busy = True
        try:
            pending = self._pending
            if pending is not _NOTHING:  # filed while ``chunk`` still counts as in use
                self._pending = _NOTHING
                self._coalesce(pending)
            self._coalesce(chunk)
        finally:
            self._busy = False
            if self._deferred:
                self._drain()

    def _allocate(self, nbytes: int, rounded: int, tag) -> int | None:
        """TF's best fit (reserving a region if need be), split when it is big enough. This creates
        objects, so Python's cyclic garbage collector may run a tensor's ``__del__`` in here: that
        free waits (``_busy``) until the chunk is handed out, as it would otherwise coalesce with it."""
        if nbytes <= 0:
            if nbytes < 0:
                raise ValueError(f"cannot allocate {nbytes} bytes")
            # An empty tensor: TF gives it no buffer and never calls the allocator. Hand out a
            # handle anyway so callers can free every handle they got, but account nothing.
            handle = self._handle = self._handle + 1
            self._uncounted += 1
            self._empty[handle] = tag
            return handle
        self._busy = True
        try:
            chunk = self._pending
            if chunk is not _NOTHING:  # filed first, as best fit looks only in the index
                self._pending = _NOTHING
                if chunk.next is None or chunk.next.in_use:  # nothing to merge
                    self._insert_free(chunk)
                else:
                    self._coalesce(chunk)
            chunk = self._take_best_fit(rounded)
            if chunk is None and self._extend(rounded):
                chunk = self._take_best_fit(rounded)
            if chunk is not None:
                size = chunk.size
                if size >= 2 * rounded or size - rounded >= MAX_INTERNAL_FRAGMENTATION:
                    rest = _new(_Chunk)  # _Chunk(...) without the __init__ frame
                    rest.addr, rest.size, rest.prev, rest.next = chunk.addr + rounded, size - rounded, chunk, chunk.next
                    rest.request = None
                    if chunk.next is not None:
                        chunk.next.prev = rest
                    chunk.next = rest
                    chunk.size = size = rounded
                    self._insert_free(rest)
        finally:
            self._busy = False
        if chunk is None:
            self.num_ooms += 1
            self._drain()
            return None
        # Unsplit chunks count whole (up to 2x the request), as TF counts them.
        chunk.in_use = True
        chunk.tag = tag
        chunk.request = nbytes if size == rounded else None  # the next such request may take it back
        handle = self._handle = self._handle + 1
        self._live[handle] = chunk
        n = self.bytes_in_use = self.bytes_in_use + size
        if n > self.peak_bytes_in_use:
            self.peak_bytes_in_use = n
        if size > self.largest_alloc_size:
            self.largest_alloc_size = size
        if self._deferred:
            self._drain()
        return handle


class BFCAllocator(FASTPATH.BFCBase if FASTPATH is not None else _Methods):
    """TensorFlow's BFC allocator, bookkeeping only.

    ``allow_growth=False``: the whole limit (rounded down to 256) is reserved as one region now.
    ``allow_growth=True``: regions of 2, 4, 8 … MiB are reserved as needed (TF's ``Extend``) and,
    like in TF without garbage collection, never returned. ``on_reserve(nbytes, total_reserved)``
    is called for every region reserved.

    Best fit picks the smallest free chunk >= the rounded request, lowest address among equals —
    exactly the chunk TF's scan of its 21 size-ordered bins finds — through :class:`_SizeIndex`
    plus a heap of addresses per size. Not modelled: garbage collection of wholly free regions
    (``TF_ENABLE_GPU_GARBAGE_COLLECTION``), the x0.9 back-off after a driver failure (there is no
    driver to fail), ``fragmentation_fraction``, and the retry-on-free wait of ``AllocateRaw``.
    """

    __slots__ = ("name", "_busy", "_deferred", "limit", "allow_growth", "on_reserve", "bytes_reserved",
                 "bytes_in_use", "peak_bytes_in_use", "largest_alloc_size", "num_ooms", "region_sizes",
                 "_region_heads", "_live", "_before_reset", "_empty", "_handle", "_uncounted", "_free_at", "_heaps",
                 "_nfree", "_sizes", "_pending", "_absent", "_curr_region", "__dict__")

    def __init__(self, name: str, limit: int, allow_growth: bool, on_reserve=None):
        self.name = name
        self._busy, self._deferred = False, []
        self.limit = int(limit)
        self.allow_growth = bool(allow_growth)
        self.on_reserve = on_reserve
        self.bytes_reserved = 0
        self.bytes_in_use = 0
        self.peak_bytes_in_use = 0
        self.largest_alloc_size = 0
        self.num_ooms = 0
        self.region_sizes: list[int] = []
        self._region_heads: list[_Chunk] = []     # chunk at each region's base (never merged away)
        self._live: dict[int, _Chunk] = {}         # handle -> chunk in use, allocated since the last reset
        self._before_reset: dict[int, _Chunk] = {}  # handle -> chunk in use, allocated before it
        self._empty: dict[int, object] = {}        # handle -> tag of 0-byte allocations (no memory)
        self._handle = 0                           # the last handle given out
        self._uncounted = 0                        # handles num_allocs does not count
        self._free_at: dict[int, _Chunk] = {}      # addr -> free chunk
        self._heaps: dict[int, list[int]] = {}     # size/256 -> min-heap of addrs of free chunks (lazy)
        self._nfree: dict[int, int] = {}           # size/256 -> number of free chunks of that size
        self._sizes = _SizeIndex(max(self.limit, 0) >> 8)
        # The pending chunk (see free): a freed chunk not yet in the size index, still marked in use,
        # that the next request of its size gets back; _NOTHING when there is none.
        self._pending = _NOTHING
        self._absent = -1                          # a size no free chunk in the index has, or -1
        # TF: RoundedBytes(min(limit, 2 MiB)) with growth, RoundedBytes(limit) without.
        limit = max(self.limit, 0)
        self._curr_region = round_bytes(min(limit, INITIAL_GROWTH_REGION) if self.allow_growth else limit)
        if not self.allow_growth:
            self._extend(0)

    # -- stats ------------------------------------------------------------------------------
    @property
    def num_regions(self) -> int:
        return len(self.region_sizes)

    @property
    def num_allocs(self) -> int:
        """Allocations since the allocator was made or its stats were reset (0-byte ones excluded)."""
        return self._handle - self._uncounted

    def reset_peak(self) -> None:
        """TF's ``ClearStats`` (what ``tf.config.experimental.reset_memory_stats`` calls):
        peak := in use, and ``num_allocs``/``largest_alloc_size`` restart from 0.

        The pending chunk is settled and the live chunks move to ``_before_reset``: so a chunk the
        fast path hands back was allocated since the reset, which already counted its size in the
        largest allocation, and leaves the bytes in use no higher than the peak."""
        self._settle()
        self.peak_bytes_in_use = self.bytes_in_use
        self._uncounted = self._handle
        self.largest_alloc_size = 0
        self._before_reset.update(self._live)
        self._live = {}

    def live_allocations(self) -> list[tuple[int, object]]:
        """``(chunk size, tag)`` of every live allocation, largest first (0-byte ones excluded)."""
        live = [*self._before_reset.values(), *self._live.values()]
        return sorted(((c.size, c.tag) for c in live), key=lambda e: e[0], reverse=True)

    def largest_free_block(self) -> int:
        """The largest free chunk inside the reserved regions (not counting unreserved headroom)."""
        self._settle()
        k = self._sizes.maximum()
        return 0 if k is None else k << 8

    def chunks(self) -> list[tuple[int, int, bool]]:
        """``(address, size, in use)`` of every chunk, region by region in address order.
        O(number of chunks): for memory dumps and tests, not for the hot path."""
        self._settle()
        out = []
        for chunk in self._region_heads:
            while chunk is not None:
                out.append((chunk.addr, chunk.size, chunk.in_use))
                chunk = chunk.next
        return out

    # -- allocation (allocate, free and _allocate: _Methods) ---------------------------------
    def _drain(self) -> None:
        """The frees the garbage collector asked for while the allocator was busy."""
        while self._deferred:
            self.free(self._deferred.pop())

    def _allocated_before_reset(self, handle: int) -> _Chunk | None:
        """The chunk of a handle given out before the last reset; None for a 0-byte allocation's."""
        if handle in self._empty:
            del self._empty[handle]
            return None
        chunk = self._before_reset.pop(handle, None)
        if chunk is None:
            raise ValueError(f"{self.name}: free of unknown or already freed handle {handle!r}")
        return chunk

    def _coalesce(self, chunk: _Chunk) -> None:
        """Merge a freed chunk with its free neighbours of the same region and index the result."""
        nxt = chunk.next
        if nxt is not None and not nxt.in_use:  # absorb the next chunk
            self._remove_free(nxt)
            chunk.size += nxt.size
            chunk.next = nxt.next
            if nxt.next is not None:
                nxt.next.prev = chunk
        prev = chunk.prev
        if prev is not None and not prev.in_use:  # merge into the previous chunk
            self._remove_free(prev)
            prev.size += chunk.size
            prev.next = chunk.next
            if chunk.next is not None:
                chunk.next.prev = prev
            chunk = prev
        self._insert_free(chunk)

    # -- internals --------------------------------------------------------------------------
    def _extend(self, rounded: int) -> bool:
        """TF's ``Extend``: reserve a new region big enough for ``rounded`` bytes, if the limit allows."""
        available = (self.limit - self.bytes_reserved) & -MIN_ALLOCATION_SIZE
        if rounded > available or available <= 0:
            return False
        increased = False
        while rounded > self._curr_region:
            self._curr_region *= 2
            increased = True
        size = min(self._curr_region, available)
        if not increased:
            self._curr_region *= 2  # the next region will be twice as big
        head = _Chunk(self.bytes_reserved, size)  # regions sit end to end in a virtual address space
        self._region_heads.append(head)
        self._insert_free(head)
        self.bytes_reserved += size
        self.region_sizes.append(size)
        if self.on_reserve is not None:
            self.on_reserve(size, self.bytes_reserved)
        return True

    def _settle(self) -> None:
        """Put the pending chunk, if any, into the size index (coalesced, if it was to absorb its
        neighbour), where every other path looks for free chunks."""
        chunk = self._pending
        if chunk is _NOTHING:
            return
        self._pending = _NOTHING
        busy, self._busy = self._busy, True  # guarded when a look at the chunks settles it
        try:
            self._coalesce(chunk)
        finally:
            self._busy = busy
        if not busy and self._deferred:
            self._drain()

    def _insert_free(self, chunk: _Chunk) -> None:
        """Mark a chunk free and file it under its size."""
        chunk.in_use = False
        chunk.tag = None
        self._absent = -1
        self._free_at[chunk.addr] = chunk
        k = chunk.size >> 8
        heap = self._heaps.get(k)
        if heap is None:
            self._heaps[k] = [chunk.addr]
            self._nfree[k] = 1
            self._sizes.add(k)
        else:
            heapq.heappush(heap, chunk.addr)
            self._nfree[k] += 1

    def _remove_free(self, chunk: _Chunk) -> None:
        """Forget a free chunk. Its heap entry is left behind (lazy deletion) and skipped later."""
        del self._free_at[chunk.addr]
        k = chunk.size >> 8
        n = self._nfree[k] - 1
        if n == 0:
            del self._nfree[k], self._heaps[k]
            self._sizes.discard(k)
            return
        self._nfree[k] = n
        heap = self._heaps[k]
        if len(heap) > 2 * n + 16:  # too many stale entries: rebuild (amortised O(1) per removal)
            self._compact(heap, k)

    def _compact(self, heap: list[int], k: int) -> None:
        """The heap of free chunks of size ``k << 8`` without its stale entries (``_fastpath`` calls it too)."""
        size, free_at = k << 8, self._free_at
        heap[:] = sorted({a for a in heap if (c := free_at.get(a)) is not None and c.size == size})

    def _take_best_fit(self, rounded: int) -> _Chunk | None:
        """Remove and return the smallest free chunk >= ``rounded`` (lowest address among equals) —
        the chunk TF's bin search finds — or None."""
        k = self._sizes.successor(rounded >> 8)
        if k is None:
            return None
        heap, size, free_at = self._heaps[k], k << 8, self._free_at
        while True:  # the heap's top is the lowest address, unless it is a stale entry
            chunk = free_at.get(heap[0])
            if chunk is not None and chunk.size == size:
                break
            heapq.heappop(heap)
        self._remove_free(chunk)  # its entry becomes stale and is popped on a later search
        return chunk

    def __repr__(self) -> str:
        return (f"BFCAllocator({self.name!r}, limit={self.limit}, allow_growth={self.allow_growth}, "
                f"reserved={self.bytes_reserved}, in_use={self.bytes_in_use}, regions={self.num_regions})")


if FASTPATH is not None:
    FASTPATH.configure_bfc(BFCAllocator=BFCAllocator, Chunk=_Chunk, nothing=_NOTHING, allocate=_Methods.allocate,
                           free=_Methods.free, allocate_slow=_Methods._allocate, SizeIndex=_SizeIndex,
                           max_fragmentation=MAX_INTERNAL_FRAGMENTATION)
