"""devtrace.runtime.memory: TF's memory limit, the BFC allocator's exact figures, and its invariants."""

import random
from functools import partial

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from devtrace.output import GiB, KiB, MiB
from devtrace.runtime.memory import (BFCAllocator, HostAllocator, bin_index, default_memory_limit, min_system_memory,
                                     round_bytes)
from devtrace.runtime.memory.bfc import _Chunk, _SizeIndex
from devtrace.runtime.memory.host import ONEDNN_LARGE_ALLOCATION, onednn_allocator


def check_structure(a: BFCAllocator) -> None:
    """Chunks tile every region exactly, no two free neighbours, stats match the chunks."""
    chunks = iter(a.chunks())  # region by region, in address order
    addr, free_sizes = 0, []
    for region in a.region_sizes:  # regions sit end to end
        end, prev_free = addr + region, False
        while addr < end:
            at, size, used = next(chunks)
            assert at == addr and size > 0 and size % 256 == 0
            assert used or not prev_free, "two adjacent free chunks were not coalesced"
            prev_free = not used
            if not used:
                free_sizes.append(size)
            addr += size
        assert addr == end, "a chunk crosses a region boundary"
    assert next(chunks, None) is None
    assert sum(size for _, size, used in a.chunks() if used) == a.bytes_in_use
    assert sorted(c.size for c in a._free_at.values()) == sorted(free_sizes)
    assert a.largest_free_block() == max(free_sizes, default=0)


# -- limits ----------------------------------------------------------------------------------

def test_round_bytes():
    assert [round_bytes(n) for n in (0, 1, 255, 256, 257, 512, 1000)] == [0, 256, 256, 256, 512, 512, 1024]


def test_bins():
    assert bin_index(256) == 0 and bin_index(511) == 0 and bin_index(512) == 1
    assert bin_index(256 * MiB - 256) == 19 and bin_index(256 * MiB) == 20 and bin_index(80 * GiB) == 20


def test_min_system_memory_table():
    assert min_system_memory(2 * GiB - 1, 9) == 225 * MiB
    assert [min_system_memory(16 * GiB, cc) for cc in (3, 6, 7, 8, 9)] == \
        [500 * MiB, 500 * MiB, 1050 * MiB, 1536 * MiB, 1800 * MiB]


def test_default_memory_limit():
    assert default_memory_limit(16 * GiB, 24 * GiB, 8, None) == 16 * GiB - 1536 * MiB
    total = 24 * GiB + 12345
    assert default_memory_limit(16 * GiB, total, 8, 0.4) == int(total * 0.4)  # from total, not free
    assert default_memory_limit(1 * GiB, 2 * GiB, 8, None) == 1 * GiB - 225 * MiB
    assert default_memory_limit(200 * MiB, 2 * GiB, 8, None) == 200 * MiB  # reserve >= free: all of it


# -- BFC: exact figures ----------------------------------------------------------------------

def test_no_growth_reserves_whole_limit_up_front():
    calls = []
    a = BFCAllocator("GPU_0_bfc", 1 * GiB, False, on_reserve=lambda n, t: calls.append((n, t)))
    assert calls == [(GiB, GiB)]
    assert (a.bytes_reserved, a.num_regions, a.region_sizes, a.bytes_in_use) == (GiB, 1, [GiB], 0)
    h = a.allocate(100 * MiB)
    assert a.num_regions == 1 and calls == [(GiB, GiB)] and a.bytes_in_use == 100 * MiB
    a.free(h)
    assert a.chunks() == [(0, GiB, False)]


def test_no_growth_limit_rounded_down():
    a = BFCAllocator("GPU_0_bfc", 1000 * KiB + 100, False)
    assert a.region_sizes == [1000 * KiB]


def test_growth_region_sequence():
    calls = []
    a = BFCAllocator("GPU_0_bfc", 1 * GiB, True, on_reserve=lambda n, t: calls.append((n, t)))
    assert (a.bytes_reserved, a.num_regions, calls) == (0, 0, [])
    script = [1 * MiB, 1 * MiB, 1 * MiB, 3 * MiB, 5 * MiB, 20 * MiB, 1 * MiB, 20 * MiB]
    seen = []
    for n in script:
        assert a.allocate(n) is not None
        seen.append([r // MiB for r in a.region_sizes])
    assert seen == [[2], [2], [2, 4], [2, 4], [2, 4, 8], [2, 4, 8, 32], [2, 4, 8, 32, 32], [2, 4, 8, 32, 32]]
    assert [n // MiB for n, _ in calls] == [2, 4, 8, 32, 32]
    assert [t // MiB for _, t in calls] == [2, 6, 14, 46, 78]
    # 5 MiB took the whole 8 MiB region (8 < 2*5 and 3 MiB waste < 128 MiB); 20 MiB the whole 32;
    # the last 20 MiB the 31 MiB left after 1 MiB was split off the last region.
    assert a.bytes_in_use == (1 + 1 + 1 + 3 + 8 + 32 + 1 + 31) * MiB
    assert a.largest_alloc_size == 32 * MiB and a.num_allocs == 8
    check_structure(a)


def test_growth_small_limit_and_exhaustion():
    a = BFCAllocator("GPU_0_bfc", 3 * MiB, True)
    assert a.allocate(1) is not None
    assert a.region_sizes == [2 * MiB]
    assert a.allocate(2 * MiB) is None  # 2 MiB > what's free in region 1; 1 MiB left under the limit
    assert a.num_ooms == 1 and a.region_sizes == [2 * MiB]
    assert a.allocate(2 * MiB - 256) is not None and a.num_regions == 1  # the rest of region 1, exactly
    assert a.allocate(MiB) is not None  # Extend: min(4 MiB, 1 MiB available)
    assert a.region_sizes == [2 * MiB, MiB] and a.bytes_reserved == a.limit
    b = BFCAllocator("GPU_0_bfc", 1_000_000, True)
    b.allocate(1)
    assert b.region_sizes == [1_000_000 // 256 * 256]


def test_rounding_and_unsplit_chunks_count_whole():
    a = BFCAllocator("GPU_0_bfc", 1 * MiB, False)
    h = a.allocate(1)
    assert a.bytes_in_use == 256 and a.live_allocations() == [(256, None)]
    a.free(h)
    a.allocate(600 * KiB)  # 1 MiB < 2 * 600 KiB and waste < 128 MiB: not split
    assert a.bytes_in_use == a.peak_bytes_in_use == a.largest_alloc_size == MiB
    big = BFCAllocator("GPU_0_bfc", 1 * GiB, False)
    big.allocate(600 * MiB)  # waste 424 MiB >= 128 MiB: split even though < 2x
    assert big.bytes_in_use == 600 * MiB and big.largest_free_block() == 424 * MiB


def test_limit_exceeded():
    a = BFCAllocator("GPU_0_bfc", 1 * MiB, False)
    assert a.allocate(MiB + 1) is None
    assert a.num_ooms == 1 and a.bytes_in_use == 0 and a.num_allocs == 0
    g = BFCAllocator("GPU_0_bfc", 10 * MiB, True)
    assert g.allocate(11 * MiB) is None and g.num_ooms == 1 and g.num_regions == 0


def test_fragmentation_is_real():
    a = BFCAllocator("GPU_0_bfc", 4 * MiB, False)
    h = [a.allocate(MiB) for _ in range(4)]
    assert a.bytes_in_use == 4 * MiB
    a.free(h[0])
    a.free(h[2])
    assert a.bytes_reserved - a.bytes_in_use == 2 * MiB and a.largest_free_block() == MiB
    assert a.allocate(2 * MiB) is None and a.num_ooms == 1
    a.free(h[1])  # coalesces h0+h1+h2
    assert a.largest_free_block() == 3 * MiB and a.allocate(2 * MiB) is not None


def test_best_fit_lowest_address():
    a = BFCAllocator("GPU_0_bfc", 16 * MiB, False)
    h = [a.allocate(n) for n in (3 * MiB, 256, MiB, 256, 2 * MiB, 256, MiB, 256)]
    for i in (0, 2, 4, 6):
        a.free(h[i])
    got = a.allocate(MiB)  # two 1 MiB holes: the lower one
    assert a._live[got].addr == 3 * MiB + 256
    got2 = a.allocate(1536 * KiB)  # best fit is the 2 MiB hole, not the 3 MiB one
    assert a._live[got2].addr == 4 * MiB + 512
    check_structure(a)


def test_no_coalescing_across_regions():
    a = BFCAllocator("GPU_0_bfc", 1 * GiB, True)
    x, y = a.allocate(2 * MiB), a.allocate(4 * MiB)  # one whole region each
    assert a.region_sizes == [2 * MiB, 4 * MiB]
    a.free(x)
    a.free(y)
    assert a.chunks() == [(0, 2 * MiB, False), (2 * MiB, 4 * MiB, False)]
    assert a.largest_free_block() == 4 * MiB


def test_free_errors_and_handles_not_reused():
    a = BFCAllocator("GPU_0_bfc", 1 * MiB, False)
    h = a.allocate(10)
    a.free(h)
    with pytest.raises(ValueError):
        a.free(h)
    with pytest.raises(ValueError):
        a.free(12345)
    assert a.allocate(10) != h
    with pytest.raises(ValueError):
        a.allocate(-1)


def test_zero_bytes():
    a = BFCAllocator("GPU_0_bfc", 1 * MiB, False)
    h = a.allocate(0, "empty")
    assert h is not None and a.bytes_in_use == 0 and a.num_allocs == 0 and a.live_allocations() == []
    a.free(h)
    with pytest.raises(ValueError):
        a.free(h)


def test_stats_tags_and_reset():
    a = BFCAllocator("GPU_0_bfc", 64 * MiB, True)
    h1 = a.allocate(MiB, ("MatMul", (512, 512), "float32"))
    a.allocate(3 * MiB, ("Add", (3, MiB // 4), "float32"))
    assert a.live_allocations()[0][1][0] == "Add" and [s for s, _ in a.live_allocations()] == [4 * MiB, MiB]
    a.free(h1)
    assert a.peak_bytes_in_use == 5 * MiB and a.bytes_in_use == 4 * MiB
    a.reset_peak()  # TF ClearStats
    assert (a.peak_bytes_in_use, a.num_allocs, a.largest_alloc_size) == (4 * MiB, 0, 0)
    assert a.bytes_reserved == 6 * MiB


def test_the_fast_path_after_a_reset_keeps_peak_and_largest_allocation_exact():
    """A chunk the fast path hands back may not skip the stats a reset cleared: a chunk freed just
    before the reset sets the peak again, and one allocated before it counts as the largest."""
    a = BFCAllocator("GPU_0_bfc", 64 * MiB, True)
    size = 768 * KiB  # the rest of the 2 MiB region differs in size: none of its size is free
    a.free(a.allocate(size))  # pending: the next request of that size gets it back
    a.reset_peak()
    assert (a.peak_bytes_in_use, a.largest_alloc_size) == (0, 0)
    h = a.allocate(size)
    assert (a.bytes_in_use, a.peak_bytes_in_use, a.num_allocs, a.largest_alloc_size) == (size, size, 1, size)
    a.reset_peak()  # ``h`` was allocated before this reset
    a.free(h)
    h = a.allocate(size)
    assert (a.bytes_in_use, a.peak_bytes_in_use, a.num_allocs, a.largest_alloc_size) == (size, size, 1, size)
    assert a.live_allocations() == [(size, None)]
    a.reset_peak()
    a.free(h)
    assert a.live_allocations() == [] and a.bytes_in_use == 0 and a.chunks() == [(0, 2 * MiB, False)]
    with pytest.raises(ValueError):
        a.free(h)


def test_a_request_of_the_same_size_class_takes_the_pending_chunk_back():
    a = BFCAllocator("GPU_0_bfc", 64 * MiB, True)
    first, second = a.allocate(16), a.allocate(16)
    a.free(first)
    third = a.allocate(200)  # rounds up to 256 too: the chunk at 0, as best fit picks
    assert a.chunks()[:3] == [(0, 256, True), (256, 256, True), (512, 2 * MiB - 512, False)]
    assert (a.bytes_in_use, a.num_allocs, a.live_allocations()) == (512, 3, [(256, None), (256, None)])
    a.free(third)
    assert a.allocate(257) != a.allocate(16)  # another size: the pending chunk is filed first
    assert a.chunks()[:4] == [(0, 256, True), (256, 256, True), (512, 512, True), (1024, 2 * MiB - 1024, False)]
    a.free(second)


def test_many_chunks_same_size_stay_consistent():
    # Exercises lazy heap deletion and its compaction.
    rng = random.Random(7)
    a = BFCAllocator("GPU_0_bfc", 64 * MiB, False)
    live = []
    for _ in range(20000):
        if live and rng.random() < 0.5:
            a.free(live.pop(rng.randrange(len(live))))
        else:
            h = a.allocate(rng.choice((256, 512, 768, 4096)))
            assert h is not None
            live.append(h)
    check_structure(a)
    for h in live:
        a.free(h)
    assert a.chunks() == [(0, 64 * MiB, False)]
    assert all(len(heap) <= 2 * a._nfree[k] + 16 for k, heap in a._heaps.items())


def test_stale_heap_entries_are_compacted():
    # A long-lived free chunk at the lowest address keeps the stale entries of its size class from
    # ever reaching the heap's top; compaction must still bound the heap.
    a = BFCAllocator("GPU_0_bfc", 1 * MiB, True)
    chunks = [_Chunk(i * 256, 256) for i in range(1000)]
    for c in chunks:
        a._insert_free(c)
    for c in chunks[1:]:
        a._remove_free(c)
    assert a._nfree[1] == 1 and len(a._heaps[1]) <= 18
    assert a._take_best_fit(256) is chunks[0] and a._take_best_fit(256) is None


def test_size_index_matches_sorted_set():
    rng = random.Random(3)
    idx, ref = _SizeIndex(1 << 30), set()
    for _ in range(3000):
        k = rng.randrange(1 << 30) if rng.random() < 0.3 else rng.randrange(300)
        if ref and rng.random() < 0.4:
            k = rng.choice(sorted(ref))
            ref.discard(k)
            idx.discard(k)
        elif k not in ref:
            ref.add(k)
            idx.add(k)
        q = rng.randrange(400) if rng.random() < 0.7 else rng.randrange(1 << 30)
        assert idx.successor(q) == min((x for x in ref if x >= q), default=None)
        assert idx.maximum() == max(ref, default=None)


# -- BFC: properties -------------------------------------------------------------------------

SIZES = st.one_of(st.integers(0, 4096), st.integers(1, 4 * MiB), st.integers(1, 40 * MiB))


class BFCMachine(RuleBasedStateMachine):
    @initialize(limit=st.sampled_from([MiB, 3 * MiB + 100, 16 * MiB, 64 * MiB]), growth=st.booleans())
    def setup(self, limit, growth):
        self.a = BFCAllocator("GPU_0_bfc", limit, growth)
        self.live = {}
        self.peak = self.a.peak_bytes_in_use
        self.reserved = self.a.bytes_reserved

    @rule(n=SIZES)
    def allocate(self, n):
        ooms = self.a.num_ooms
        h = self.a.allocate(n, n)
        if h is None:
            assert self.a.num_ooms == ooms + 1
            assert n > self.a.largest_free_block()
        else:
            assert h not in self.live
            self.live[h] = n

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def free(self, data):
        h = data.draw(st.sampled_from(sorted(self.live)))
        del self.live[h]
        self.a.free(h)

    @rule()
    def reset_peak(self):
        self.a.reset_peak()
        assert self.a.peak_bytes_in_use == self.a.bytes_in_use
        self.peak = self.a.peak_bytes_in_use

    @invariant()
    def stats(self):
        a = self.a
        assert a.bytes_in_use <= a.bytes_reserved <= a.limit
        assert a.bytes_in_use == sum(size for size, _ in a.live_allocations())
        assert sorted(tag for _, tag in a.live_allocations()) == sorted(n for n in self.live.values() if n)
        assert all(size >= round_bytes(tag) for size, tag in a.live_allocations())
        assert a.peak_bytes_in_use >= self.peak and a.peak_bytes_in_use >= a.bytes_in_use
        self.peak = a.peak_bytes_in_use
        assert a.bytes_reserved >= self.reserved
        self.reserved = a.bytes_reserved
        check_structure(a)

    def teardown(self):
        a = getattr(self, "a", None)
        if a is None:
            return
        for h in list(self.live):
            a.free(h)
        assert a.bytes_in_use == 0
        bases = [sum(a.region_sizes[:i]) for i in range(a.num_regions)]
        assert a.chunks() == [(b, r, False) for b, r in zip(bases, a.region_sizes)]


BFCMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow])
test_bfc_properties = BFCMachine.TestCase


@settings(max_examples=200, deadline=None)
@given(ops=st.lists(st.tuples(st.sampled_from([True, False, None]), st.sampled_from([256, 300, 512, 4096, MiB]),
                              st.integers(0, 1 << 20)), max_size=120),
       growth=st.booleans())
@example(ops=[(True, 256, 0)] * 5 + [(False, 256, 0), (False, 256, 1), (True, 256, 0)], growth=True)
@example(ops=[(True, 256, 0)] * 4 + [(False, 256, 0), (False, 256, 2), (True, 256, 0)], growth=False)
@example(ops=[(True, 4096, 0), (True, 256, 0), (True, 8 * MiB - 4352, 0), (False, 0, 1), (False, 0, 0),
              (True, 4096, 0)], growth=False)
# another free chunk of the size in the index:
@example(ops=[(True, 256, 0)] * 5 + [(False, 0, 1), (True, 512, 0), (False, 0, 2), (True, 256, 0)], growth=True)
# ... once the allocator had found none of that size (what it remembers is forgotten when one is filed):
@example(ops=[(True, 256, 0)] * 5 + [(False, 0, 1), (True, 256, 0), (False, 0, 4), (True, 512, 0), (False, 0, 2),
                                     (True, 256, 0)], growth=True)
# a chunk whose free neighbour before it (512 B) merges with it: best fit splits the 768 B at its address
@example(ops=[(True, 512, 0), (True, 256, 0), (True, 256, 0), (False, 0, 0), (True, 4096, 0), (False, 0, 0),
              (True, 256, 0)], growth=True)
# a chunk handed out unsplit (768 B for 300 B) and back: a request of 300 B fits the 512 B hole better
@example(ops=[(True, n, 0) for n in (256, 256, 512, 256, 512, 256)] + [
    (False, 0, 1), (False, 0, 1), (True, 300, 0), (False, 0, 2), (True, 4096, 0), (False, 0, 3), (True, 300, 0)],
    growth=True)
# a chunk next to the free remainder while another free chunk (3840 B) fits its size better
@example(ops=[(True, 4096, 0), (True, 256, 0), (True, 512, 0), (False, 0, 0), (True, 256, 0), (False, 0, 1),
              (True, 512, 0)], growth=False)
# the only free chunk next to it is smaller: best fit hands out the two merged, unsplit
@example(ops=[(True, 4096, 0), (True, 256, 0), (True, 8 * MiB - 4352, 0), (False, 0, 1), (True, MiB, 0),
              (False, 0, 0), (True, 4096, 0)], growth=False)
def test_the_free_then_allocate_fast_path_picks_the_chunk_best_fit_picks(ops, growth):
    """The allocator parks a chunk freed without coalescing and hands it straight back to the next
    request of its size; an allocator that indexes every free chunk at once must end up with the
    very same chunks, addresses and figures after every step (``allocate`` None: reset the stats)."""
    fast, plain = BFCAllocator("GPU_0_bfc", 8 * MiB, growth), BFCAllocator("GPU_0_bfc", 8 * MiB, growth)
    live = []
    for allocate, size, pick in ops:
        if allocate is None:
            fast.reset_peak()
            plain.reset_peak()
            continue
        if allocate or not live:
            pair = fast.allocate(size, size), plain.allocate(size, size)
            assert (pair[0] is None) == (pair[1] is None)
            if pair[0] is not None:
                live.append(pair)
        else:
            h_fast, h_plain = live.pop(pick % len(live))
            fast.free(h_fast)
            plain.free(h_plain)
            plain._settle()
            continue  # fast.chunks() would settle its pending chunk: compare once the next request ran
        assert fast.chunks() == plain.chunks()
        figures = ("bytes_in_use", "peak_bytes_in_use", "bytes_reserved", "num_ooms", "num_allocs", "largest_alloc_size")
        assert [getattr(fast, f) for f in figures] == [getattr(plain, f) for f in figures]
        assert fast.live_allocations() == plain.live_allocations()
    assert fast.chunks() == plain.chunks() and fast.largest_free_block() == plain.largest_free_block()
    check_structure(fast)


def _state(a: BFCAllocator) -> tuple:
    """Everything the steady state touches, without settling the pending chunk."""
    pending = a._pending
    return (a.bytes_in_use, a.peak_bytes_in_use, a.largest_alloc_size, a.num_allocs, a._handle, a._absent,
            (pending.addr, pending.size, pending.in_use, pending.tag), sorted((h, c.addr) for h, c in a._live.items()),
            sorted(a._free_at), dict(a._nfree))


@pytest.mark.skipif(type(BFCAllocator.allocate).__name__ != "method_descriptor",
                    reason="the C module is not in use: allocate and free are the reference")
@settings(max_examples=150, deadline=None, derandomize=True)
@given(ops=st.lists(st.tuples(st.integers(0, 1), st.sampled_from([True, False, None]), st.booleans(),
                              st.sampled_from([0, 256, 300, 512, 4096, MiB]), st.integers(0, 1 << 20)), max_size=120),
       growth=st.booleans())
def test_the_c_steady_state_is_the_reference_step_for_step(ops, growth):
    """``_fastpath.BFCBase`` (the C ``allocate``/``free``) against ``bfc._Methods`` (the Python
    reference) on one random program over two allocators, the C one's steps sometimes taken by the
    reference too (C and Python hand the pending chunk to each other): same handles, same pending
    chunk, same figures, every step."""
    from devtrace.runtime.memory.bfc import _Methods

    pairs = [(BFCAllocator("GPU_0_bfc", 8 * MiB, growth), BFCAllocator("GPU_0_bfc", 8 * MiB, growth), [])
             for _ in range(2)]
    for which, allocate, by_reference, size, pick in ops:
        c, ref, live = pairs[which]
        c_allocate, c_free = (partial(_Methods.allocate, c), partial(_Methods.free, c)) if by_reference \
            else (c.allocate, c.free)
        if allocate is None:
            c.reset_peak()
            ref.reset_peak()
        elif allocate or not live:
            got = c_allocate(size, (size, pick)), _Methods.allocate(ref, size, (size, pick))
            assert got[0] == got[1]
            if got[0] is not None:
                live.append(got[0])
        else:
            handle = live.pop(pick % len(live))
            assert c_free(handle) is _Methods.free(ref, handle) is None
        assert _state(c) == _state(ref)
    for c, ref, _ in pairs:
        with pytest.raises(ValueError, match="unknown or already freed handle"):
            c.free(10**6)
        assert c.chunks() == ref.chunks() and c.live_allocations() == ref.live_allocations()


def _whole_state(a: BFCAllocator) -> tuple:
    """Every field of the allocator, chunk by chunk, without settling the pending chunk: heaps
    (stale entries included), counts, the size index, regions, figures, handles and tags."""
    def chunk(c):
        return None if c is None else (c.addr, c.size, c.in_use, c.tag, c.request,
                                        None if c.prev is None else c.prev.addr, None if c.next is None else c.next.addr)
    everything = []
    for head in a._region_heads:
        while head is not None:
            everything.append(chunk(head))
            head = head.next
    return (_state(a), everything, chunk(a._pending), {k: list(h) for k, h in a._heaps.items()}, list(a._sizes.keys),
            {h: chunk(c) for h, c in a._live.items()}, {h: chunk(c) for h, c in a._before_reset.items()},
            dict(a._empty), a.region_sizes, a.bytes_reserved, a.num_ooms, a.num_allocs, a._curr_region,
            {addr: chunk(c) for addr, c in a._free_at.items()}, a._busy, a._deferred)


@pytest.mark.skipif(type(BFCAllocator.allocate).__name__ != "method_descriptor",
                    reason="the C module is not in use: allocate and free are the reference")
@settings(max_examples=120, deadline=None, derandomize=True)
@given(ops=st.lists(st.tuples(st.sampled_from([True, True, False, None]),
                              st.sampled_from([0, 1, 256, 300, 512, 1000, 4096, 5000, 70_000, MiB, 3 * MiB]),
                              st.integers(0, 1 << 20)), max_size=150),
       growth=st.booleans())
def test_the_c_allocator_is_the_python_reference_step_for_step(ops, growth):
    """``_fastpath.BFCBase`` (best fit, split, coalescing, the steady state, OOMs, growth) against
    the Python reference (``bfc._Methods`` on a subclass the C module does not read), on one random
    program: every field — chunks, heaps with their stale entries, the size index, handles, tags,
    figures — the same after every step."""
    from devtrace.runtime.memory.bfc import _Methods

    class Reference(_Methods, BFCAllocator):
        __slots__ = ()

    c, ref, live = BFCAllocator("GPU_0_bfc", 8 * MiB, growth), Reference("GPU_0_bfc", 8 * MiB, growth), []
    for allocate, size, pick in ops:
        if allocate is None:
            c.reset_peak()
            ref.reset_peak()
        elif allocate or not live:
            got = c.allocate(size, ("Op", (size,), "float32")), ref.allocate(size, ("Op", (size,), "float32"))
            assert got[0] == got[1]
            if got[0] is not None:
                live.append(got[0])
        else:
            handle = live.pop(pick % len(live))
            assert c.free(handle) is ref.free(handle) is None
        assert _whole_state(c) == _whole_state(ref)
    assert c.chunks() == ref.chunks() and c.largest_free_block() == ref.largest_free_block()
    check_structure(c)


def test_a_free_arriving_inside_an_allocation_waits_until_the_chunk_is_handed_out():
    """Python's garbage collector can run a tensor's ``__del__`` in the middle of an allocation —
    here right after best fit took the chunk out of the free index, neither free nor in use yet;
    that free (of the chunk's neighbour) must act as if it came right after the allocation."""
    def run(free_inside):
        a = BFCAllocator("GPU_0_bfc", 64 * MiB, False)
        first, second, _ = a.allocate(MiB), a.allocate(MiB), a.allocate(MiB)
        a.free(first)  # a hole of 1 MiB at 0, next to second
        a.chunks()  # files it in the index
        remove = a._remove_free

        def remove_and_collect(chunk):
            remove(chunk)
            if free_inside and second in a._live:
                a.free(second)
        a._remove_free = remove_and_collect
        h = a.allocate(MiB)  # best fit: the hole at 0, exactly
        if not free_inside:
            a.free(second)
        return a, h

    (inside, h_inside), (after, h_after) = run(True), run(False)
    assert inside.chunks() == after.chunks() and inside.bytes_in_use == after.bytes_in_use
    check_structure(inside)
    inside.free(h_inside)
    check_structure(inside)


# -- host ------------------------------------------------------------------------------------

def _python_host_allocator():
    """HostAllocator on its counters' Python twin (``host._Counters``: what runs without the C module)."""
    from devtrace.runtime.memory import host

    own = {k: v for k, v in vars(HostAllocator).items() if k not in ("__slots__", "name", "onednn")}
    return type("HostAllocator", (host._Counters,), dict(own, __slots__=("name", "onednn")))


HOST_ALLOCATORS = [HostAllocator, _python_host_allocator()]


@pytest.mark.parametrize("HostAllocator", HOST_ALLOCATORS)
def test_host_allocator(HostAllocator):
    a = HostAllocator("cpu_0")
    assert a.limit is None and a.num_ooms == 0 and a.num_regions == 0 and a.region_sizes == []
    h1 = a.allocate(1, ("Const", (), "int8"))
    h2 = a.allocate(1000, ("Fill", (250,), "float32"))
    assert (a.bytes_in_use, a.bytes_reserved, a.peak_bytes_in_use) == (1001, 1001, 1001)  # not rounded
    assert a.live_allocations() == []  # it never runs out: no OOM report to list them in
    assert a.num_allocs == 2 and a.largest_alloc_size == 1000
    a.free(h2)
    assert a.bytes_in_use == 1 and a.peak_bytes_in_use == 1001
    a.reset_peak()
    assert a.peak_bytes_in_use == 1 and a.num_allocs == 0
    a.free(h1)
    assert a.bytes_in_use == 0
    assert a.allocate(10 * 1 << 40) is not None  # unlimited
    assert a.allocate(0) is not None


@pytest.mark.parametrize("HostAllocator", HOST_ALLOCATORS)
def test_host_allocator_books_large_requests_with_onednn_and_frees_both(HostAllocator):
    onednn = onednn_allocator(1 << 30)
    a = HostAllocator("cpu_0", onednn)
    small = a.allocate(1000)
    large = a.allocate(ONEDNN_LARGE_ALLOCATION)
    assert a.bytes_in_use == 1000 + ONEDNN_LARGE_ALLOCATION
    assert onednn.bytes_in_use == ONEDNN_LARGE_ALLOCATION  # only the large one: TF's CPU stats
    a.free(large)
    a.free(small)
    assert a.bytes_in_use == 0 and onednn.bytes_in_use == 0 and onednn.peak_bytes_in_use == ONEDNN_LARGE_ALLOCATION


@pytest.mark.parametrize("HostAllocator", HOST_ALLOCATORS)
def test_host_counters_are_ints_of_any_size_a_program_sets(HostAllocator):
    """The C module keeps the counters as C integers: what is set reads back as the int it was."""
    a = HostAllocator("cpu_0")
    a.peak_bytes_in_use = 2**62
    a.bytes_in_use = -3
    a.allocate(5)
    assert (a.bytes_in_use, a.peak_bytes_in_use, a.num_allocs, a.largest_alloc_size) == (2, 2**62, 1, 5)
    assert type(a.bytes_in_use) is int and repr(a) == "HostAllocator('cpu_0', in_use=2)"


@pytest.mark.parametrize("order", [(1, 2, 0, 4, 3, 5), (0, 1, 2, 3, 4, 5), (5, 3, 1, 4, 2, 0)])
def test_every_tag_is_released_when_its_chunk_is_freed_and_merged_away(order):
    """A freed chunk merged into its neighbour lets go of its tag (a tensor) at the free, as the
    reference's chunk dies there (a chunk parked as pending keeps it until filed, in both); chunks
    merged away and made again by later splits (the C module keeps them) leave the figures and chunks
    the reference leaves."""
    import weakref

    from devtrace.runtime.memory.bfc import _Methods

    class Tag:
        pass

    c, ref = BFCAllocator("GPU_0_bfc", 8 * MiB, True), BFCAllocator("GPU_0_bfc", 8 * MiB, True)
    tags = {a: [Tag() for _ in range(6)] for a in ("c", "ref")}
    alive = {a: [weakref.ref(t) for t in ts] for a, ts in tags.items()}
    handles = [(c.allocate(1000 * (i + 1), tags["c"][i]), _Methods.allocate(ref, 1000 * (i + 1), tags["ref"][i]))
               for i in range(6)]
    del tags
    for i in order:
        c.free(handles[i][0])
        _Methods.free(ref, handles[i][1])
        assert [r() is None for r in alive["c"]] == [r() is None for r in alive["ref"]]
    assert c.chunks() == ref.chunks() == [(0, 2 * MiB, False)]
    assert [r() for r in alive["c"] + alive["ref"]] == [None] * 12
    again = [(c.allocate(n, n), _Methods.allocate(ref, n, n)) for n in (300, 5000, 256, 70000)]
    assert [h for h, _ in again] == [h for _, h in again]
    assert c.chunks() == ref.chunks() and c.bytes_in_use == ref.bytes_in_use
