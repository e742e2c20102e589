"""A NumPy-backed stand-in for CuPy 14 — as strict as CuPy where it matters.

Arrays: ``ndarray`` is not a NumPy array (it holds one, ``_a``); converting it implicitly
(``np.asarray(x)``, anything that calls ``__array__``) is CuPy's ``TypeError``, and ``.get()`` /
``cupy.asnumpy`` are the ways back to the host; ``cupy.asarray``/``array`` take host data. A NumPy
array as a data argument to a routine or ufunc is CuPy's ``TypeError`` (``Unsupported type <class
'numpy.ndarray'>``; shapes and axes may be NumPy arrays, as CuPy reads them as sequences). The
namespace is CuPy 14's (``cupy14_namespace.json``, written from the real package by
``cupy14_namespace.py``): a routine CuPy lacks is CuPy's ``AttributeError``; a ufunc method CuPy
lacks its ``NotImplementedError``. NumPy's functions and ufuncs on device arrays dispatch to the
fake's (``__array_function__``/``__array_ufunc__``, as CuPy's do). Results are device arrays
(NumPy scalars become 0-d arrays), views keep their ``base``. ``tests/test_real_gpu.py`` runs
the same contract checks against real CuPy when a GPU is present.

Devices and memory follow CuPy's contracts (checked against cupy/cuda/memory.pyx and cupy_backends runtime.pyx):

* every device allocation goes through the active allocator (``cupy.cuda.using_allocator``) or
  the default pool, rounded up to 512 bytes (``ALLOCATION_UNIT_SIZE``); a 0-byte allocation
  takes nothing;
* ``MemoryPool`` keeps one pool per device (the *current* device when called): best fit among
  its cached chunks (smallest size, then lowest address), split to the rounded size, merged
  with free neighbours when freed; a new block is "cudaMalloc'ed" when no chunk fits, after
  ``free_all_blocks`` (which frees only unsplit cached blocks) when the limit or the device is
  full; ``set_limit(size=…)`` stores the size as given and the limit bounds ``total_bytes``;
  otherwise ``cupy.cuda.memory.OutOfMemoryError`` (a ``MemoryError``) with CuPy's message;
* an array owns its buffer until it is garbage collected (views keep their base alive, and
  ``base`` is the array a view looks into, ``None`` for an owner), as CuPy's ``PooledMemory``;
* the runtime's devices are CUDA's: ``CUDA_DEVICE_ORDER`` (most multiprocessors first by default)
  and ``CUDA_VISIBLE_DEVICES``, read once at the first call;
* memory hooks as ``cupy/cuda/memory_hook.pyx`` and ``SingleDeviceMemoryPool.malloc`` /
  ``PooledMemory.free`` call them: a ``cupy.cuda.MemoryHook`` entered with ``with`` is the
  calling thread's (a second of the same ``name``: ``KeyError``); each pool ``malloc`` calls its
  ``malloc_preprocess``/``malloc_postprocess`` (and ``alloc_*`` around a new block), each free its
  ``free_preprocess``/``free_postprocess`` — on the thread that frees, with keyword arguments;
* CuPy allocates for itself through the same allocator: a reduction takes a temporary workspace
  (CUB's) for the call; an FFT caches its plan, whose work area stays allocated until the plan
  cache (``cupy.fft.config.get_plan_cache()``) lets it go;
* ``cupy.cuda.Device(i)`` fails to enter for an ordinal the runtime does not have, with CUDA's
  ``cudaErrorInvalidDevice``; ``runtime.getDeviceProperties(i)`` gives the device's name, UUID
  (16 raw bytes), PCI ids and multiprocessor count.

It records which device, allocator and stream each call ran under (``calls``: ``(what, device,
pooled)``; ``kernels``: ``(what, device, stream)``) so tests can check where work happened and in
which order streams ran it.
"""

import collections
import contextlib
import json
import os
import pathlib
import threading
import uuid as _uuid

import numpy as np

ALLOCATION_UNIT_SIZE = 512
# the temporary workspace a reduction takes for its call (CUB's device-wide reductions take one)
REDUCTION_WORKSPACE = 1024
_REDUCTIONS = frozenset(("sum", "prod", "max", "min", "amax", "amin", "mean", "var", "std", "argmax", "argmin",
                         "all", "any", "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "reduce"))
# NumPy functions CuPy does not have (a kernel calling them through ``xp`` fails on a real GPU)
# CuPy 14's namespace (tests/cupy14_namespace.py wrote it from the real package): the fake answers
# these names and no others, so a kernel calling a routine CuPy lacks fails here as on a real GPU
NAMESPACE = json.loads((pathlib.Path(__file__).parent / "cupy14_namespace.json").read_text())
_UFUNCS = frozenset(NAMESPACE["cupy"]["ufuncs"])
_FUNCTIONS = frozenset(NAMESPACE["cupy"]["functions"])
_OTHER = frozenset(NAMESPACE["cupy"]["other"])
_NDARRAY = frozenset(NAMESPACE["ndarray"])
IMPLICIT = ("Implicit conversion to a NumPy array is not allowed. "
            "Please use `.get()` to construct a NumPy array explicitly.")
# the functions that take host data (a NumPy array, lists, scalars) and copy it to the device
_FROM_HOST = frozenset(("array", "asarray", "asanyarray"))
# positional arguments that are shapes or axes, not data: CuPy reads them as Python sequences
_SHAPE_ARGS = {"reshape": 1, "broadcast_to": 1, "tile": 1, "zeros": 0, "ones": 0, "empty": 0, "full": 0,
               "transpose": 1, "resize": 1, "unravel_index": 1, "ravel_multi_index": 1, "indices": 0}
_SHAPE_KEYWORDS = frozenset(("shape", "axes", "axis", "newshape", "reps", "dims", "s"))


def _round_size(size):
    return (size + ALLOCATION_UNIT_SIZE - 1) // ALLOCATION_UNIT_SIZE * ALLOCATION_UNIT_SIZE


class OutOfMemoryError(MemoryError):
    """CuPy's, message and all."""

    def __init__(self, size, total, limit=0):
        self._size, self._total, self._limit = size, total, limit
        if limit == 0:
            msg = "Out of memory allocating {:,} bytes".format(size)
            if total != -1:
                msg += " (allocated so far: {:,} bytes).".format(total)
        else:
            msg = ("Out of memory allocating {:,} bytes (allocated so far: {:,} bytes, "
                   "limit set to: {:,} bytes).".format(size, total, limit))
        super().__init__(msg)


class CUDARuntimeError(RuntimeError):
    def __init__(self, status, name, text):
        self.status = status
        super().__init__(f"{name}: {text}")


errorMemoryAllocation = 2
errorInvalidDevice = 101


class FakeGPU:
    """One CUDA device of the fake runtime."""

    def __init__(self, name="NVIDIA A100-SXM4-80GB", total=80 << 30, sm=108, cc=(8, 0), bus=None, uuid=None):
        self.name, self.total, self.sm, self.cc = name, total, sm, cc
        self.bus = bus
        self.uuid = uuid or "GPU-" + str(_uuid.uuid4())


class _Chunk:
    __slots__ = ("block", "offset", "size", "prev", "next", "free")

    def __init__(self, block, offset, size, prev=None, next=None):
        self.block, self.offset, self.size, self.prev, self.next = block, offset, size, prev, next
        self.free = False


class MemoryHook:
    """CuPy's ``cupy.cuda.MemoryHook``: registered for the calling thread by ``with``; its six
    callbacks take keyword arguments and do nothing by default."""

    name = "MemoryHook"
    _local = threading.local()

    @classmethod
    def hooks(cls) -> collections.OrderedDict:
        """``memory_hook.get_memory_hooks()``: this thread's hooks by name."""
        hooks = getattr(cls._local, "hooks", None)
        if hooks is None:
            hooks = cls._local.hooks = collections.OrderedDict()
        return hooks

    def __enter__(self):
        hooks = self.hooks()
        if self.name in hooks:
            raise KeyError("memory hook %s already exists" % self.name)
        hooks[self.name] = self
        return self

    def __exit__(self, *exc):
        del self.hooks()[self.name]

    def alloc_preprocess(self, **kwargs):
        pass

    def alloc_postprocess(self, **kwargs):
        pass

    def malloc_preprocess(self, **kwargs):
        pass

    def malloc_postprocess(self, **kwargs):
        pass

    def free_preprocess(self, **kwargs):
        pass

    def free_postprocess(self, **kwargs):
        pass


def _call_hooks(point, **kwargs):
    for hook in list(MemoryHook.hooks().values()):
        getattr(hook, point)(**kwargs)


class MemoryPointer:
    """What ``malloc`` returns; the chunk goes back to its pool when this is collected (CuPy's
    ``PooledMemory.free``: the freeing thread's hooks around it; ``id(self)`` is the ``pmem_id``)."""

    def __init__(self, pool, chunk, device_id):
        self._pool, self._chunk, self.device_id = pool, chunk, device_id
        self.ptr = 0 if chunk is None else (chunk.block << 40) + chunk.offset

    def __del__(self):
        if self._chunk is not None and self._pool is not None:
            chunk, self._chunk = self._chunk, None
            hooks = MemoryHook.hooks()
            if hooks:
                info = {"device_id": self.device_id, "mem_size": chunk.size, "mem_ptr": self.ptr, "pmem_id": id(self)}
                _call_hooks("free_preprocess", **info)
                self._pool._free(chunk)
                _call_hooks("free_postprocess", **info)
            else:
                self._pool._free(chunk)


class _DevicePool:
    """CuPy's ``SingleDeviceMemoryPool`` (one arena: devtrace uses each device's current stream)."""

    def __init__(self, fake, device_id):
        self.fake, self.device_id = fake, device_id
        self.limit = 0
        self.in_use = 0
        self.total = 0
        self.free_chunks = []  # cached chunks
        self.blocks = 0
        self._busy, self._deferred = False, []

    def malloc(self, size):
        """A chunk of ``size`` rounded; a free the collector makes meanwhile waits until it is done.
        The calling thread's memory hooks are called around it (a 0-byte request too: ``mem_ptr`` 0)."""
        if not MemoryHook.hooks():
            return self._malloc_rounded(size)
        rounded = _round_size(size)
        _call_hooks("malloc_preprocess", device_id=self.device_id, size=size, mem_size=rounded)
        memptr = None
        try:
            memptr = self._malloc_rounded(size)
        finally:
            _call_hooks("malloc_postprocess", device_id=self.device_id, size=size, mem_size=rounded,
                        mem_ptr=0 if memptr is None else memptr.ptr, pmem_id=0 if memptr is None else id(memptr))
        return memptr

    def _malloc_rounded(self, size):
        if size == 0:
            return MemoryPointer(None, None, self.device_id)
        self._busy = True
        try:
            return self._malloc(_round_size(size))
        finally:
            self._busy = False
            while self._deferred:
                self._free(self._deferred.pop())

    def _malloc(self, size):
        fits = [c for c in self.free_chunks if c.size >= size]
        if fits:
            chunk = min(fits, key=lambda c: (c.size, c.block, c.offset))
            self.free_chunks.remove(chunk)
            if chunk.size > size:  # split: the rest stays cached
                rest = _Chunk(chunk.block, chunk.offset + size, chunk.size - size, chunk, chunk.next)
                if chunk.next is not None:
                    chunk.next.prev = rest
                chunk.next, chunk.size = rest, size
                rest.free = True
                self.free_chunks.append(rest)
        else:
            chunk = self._try_malloc(size)
        chunk.free = False
        self.in_use += chunk.size
        return MemoryPointer(self, chunk, self.device_id)

    def _try_malloc(self, size):
        limit = self.limit
        if limit and size > limit:
            raise OutOfMemoryError(size, self.total, limit)
        for attempt in range(3):  # as is, after free_all_blocks, after gc + free_all_blocks
            if (not limit or self.total + size <= limit) and self.fake._device_room(self.device_id) >= size:
                break
            self.free_all_blocks()
        else:
            raise OutOfMemoryError(size, self.total, limit)
        hooks = MemoryHook.hooks()
        if hooks:
            _call_hooks("alloc_preprocess", device_id=self.device_id, mem_size=size)
        self.total += size
        self.fake._device_used[self.device_id] = self.fake._device_used.get(self.device_id, 0) + size
        self.blocks += 1
        self.fake._blocks += 1  # device addresses are unique on the machine, whichever pool took them
        chunk = _Chunk(self.fake._blocks, 0, size)
        if hooks:
            _call_hooks("alloc_postprocess", device_id=self.device_id, mem_size=size, mem_ptr=chunk.block << 40)
        return chunk

    def _free(self, chunk):
        if self._busy:
            self._deferred.append(chunk)
            return
        self.in_use -= chunk.size
        while chunk.next is not None and chunk.next.free:  # merge with free neighbours
            nxt = chunk.next
            self.free_chunks.remove(nxt)
            chunk.size += nxt.size
            chunk.next = nxt.next
            if nxt.next is not None:
                nxt.next.prev = chunk
        while chunk.prev is not None and chunk.prev.free:
            prev = chunk.prev
            self.free_chunks.remove(prev)
            prev.size += chunk.size
            prev.next = chunk.next
            if chunk.next is not None:
                chunk.next.prev = prev
            chunk = prev
        chunk.free = True
        self.free_chunks.append(chunk)

    def free_all_blocks(self):
        for chunk in [c for c in self.free_chunks if c.prev is None and c.next is None]:  # unsplit only
            self.free_chunks.remove(chunk)
            self.total -= chunk.size
            self.fake._device_used[self.device_id] -= chunk.size

    def set_limit(self, size=None, fraction=None):
        if size is None:
            if fraction is None:
                size = 0
            else:
                if not 0 <= fraction <= 1:
                    raise ValueError(f"memory limit fraction out of range: {fraction}")
                size = fraction * self.fake.gpus[self.device_id].total
            return self.set_limit(size=size)
        if fraction is not None:
            raise ValueError("size and fraction cannot be specified at one time")
        if size < 0:
            raise ValueError(f"memory limit size out of range: {size}")
        self.limit = int(size)


class FakeCupy:
    def __init__(self, gpus=None, visible=None):
        """``gpus``: the machine's CUDA devices (default: eight A100s); ``visible``: the ordinals
        of ``gpus`` the runtime exposes, in CUDA's order (as ``CUDA_VISIBLE_DEVICES`` leaves them)."""
        self.gpus_all = list(gpus) if gpus is not None else [FakeGPU(bus=f"0000:{0x10 + i:02x}:00.0")
                                                            for i in range(8)]
        self._visible = visible
        self.current_device = None
        self.current_allocator = None
        self.current_stream = {}  # device -> stream
        self._null_streams = {}  # device -> its null stream (what runs when no stream is set)
        self.calls = []
        self.kernels = []  # (what, device, stream) in the order the streams run them
        self._device_used = {}
        self._blocks = 0
        self._streams = []  # every stream made (the null streams too): what a device's synchronize completes
        self._plans = {}  # device -> {plan key: its work area}: cupy.fft's plan cache
        fake = self
        self.ndarray = _make_ndarray(self)

        class Device:
            def __init__(self, device=None):
                self.id = (fake.current_device or 0) if device is None else device

            def __enter__(self):
                if not 0 <= self.id < len(fake.gpus):
                    raise CUDARuntimeError(errorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal")
                self._saved = fake.current_device
                fake.current_device = self.id
                return self

            def __exit__(self, *exc):
                fake.current_device = self._saved

            def synchronize(self):
                fake.kernels.append(("synchronize", self.id, None))
                for stream in fake._streams:
                    if stream.device_id == self.id:
                        stream._complete(None)

            def use(self):
                if not 0 <= self.id < len(fake.gpus):
                    raise CUDARuntimeError(errorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal")
                fake.current_device = self.id

            @property
            def compute_capability(self):
                return "%d%d" % fake.gpus[self.id].cc

            @property
            def pci_bus_id(self):
                return fake.gpus[self.id].bus

            @property
            def mem_info(self):
                return fake.gpus[self.id].total - fake._device_used.get(self.id, 0), fake.gpus[self.id].total

            def __eq__(self, other):
                return isinstance(other, Device) and self.id == other.id

            def __hash__(self):
                return self.id

            def __repr__(self):
                return f"<CUDA Device {self.id}>"

        class MemoryPool:
            """CuPy's ``MemoryPool``: one ``SingleDeviceMemoryPool`` per device, the current one."""

            def __init__(self, allocator=None):
                self._pools = {}

            def _pool(self):
                d = fake.current_device or 0
                if d not in self._pools:
                    self._pools[d] = _DevicePool(fake, d)
                return self._pools[d]

            def malloc(self, size):
                return self._pool().malloc(size)

            def set_limit(self, size=None, fraction=None):
                self._pool().set_limit(size, fraction)

            def get_limit(self):
                return self._pool().limit

            def used_bytes(self):
                return self._pool().in_use

            def total_bytes(self):
                return self._pool().total

            def free_bytes(self):
                return self._pool().total - self._pool().in_use

            def free_all_blocks(self, stream=None):
                self._pool().free_all_blocks()

            def n_free_blocks(self):
                return len(self._pool().free_chunks)

        self._default_pool = MemoryPool()

        @contextlib.contextmanager
        def using_allocator(allocator=None):
            saved = fake.current_allocator
            fake.current_allocator = allocator
            try:
                yield
            finally:
                fake.current_allocator = saved

        class Stream:
            null = None

            def __init__(self, non_blocking=False):
                self.device_id = fake.current_device or 0
                self.pending = []
                self.launched = 0  # kernels queued on this stream so far
                self._recorded = []  # its events not completed yet
                fake._streams.append(self)

            def __enter__(self):
                self._saved = fake.current_stream.get(self.device_id)
                fake.current_stream[self.device_id] = self
                return self

            def __exit__(self, *exc):
                fake.current_stream[self.device_id] = self._saved

            def record(self, event=None):
                event = event or Event()
                event.stream = self
                event.position = self.launched
                event.completed = False
                self._recorded.append(event)
                return event

            def wait_event(self, event):
                fake.kernels.append(("wait", self.device_id, self, event.stream))

            def synchronize(self):
                fake.kernels.append(("synchronize", self.device_id, self))
                self._complete(None)

            def _complete(self, upto):
                """The GPU reached ``upto`` (an event of this stream; None: all): it and those before are done."""
                done = self._recorded if upto is None else [e for e in self._recorded if e.position <= upto.position]
                for event in done:
                    event.completed = True
                self._recorded = [e for e in self._recorded if not e.completed]

        class Event:
            """CuPy's: recorded on a stream (the current one by default); it completes when the GPU
            reaches it — in the fake, when it, its stream or its device is synchronised (so the host
            must wait before it reads a time: ``get_elapsed_time`` of an event not completed is
            CUDA's ``cudaErrorNotReady``)."""

            def __init__(self, block=False, disable_timing=False, interprocess=False):
                self.stream, self.position, self.disable_timing = None, None, disable_timing
                self.completed = False

            def record(self, stream=None):
                return (stream or get_current_stream()).record(self)

            @property
            def done(self):
                return self.stream is None or self.completed

            def synchronize(self):
                fake.kernels.append(("event-synchronize", None, self.stream))
                if self.stream is not None:
                    self.stream._complete(self)

        def get_elapsed_time(start, end):
            """Milliseconds between two completed events of one stream (the fake: one microsecond per
            kernel queued between them)."""
            if start.disable_timing or end.disable_timing:
                raise CUDARuntimeError(6, "cudaErrorInvalidResourceHandle", "invalid resource handle")
            if start.position is None or end.position is None or not (start.completed and end.completed):
                raise CUDARuntimeError(600, "cudaErrorNotReady", "device not ready")
            return (end.position - start.position) * 1e-3

        def get_current_stream(device_id=None):
            """As CuPy's: the stream set on the device, else that device's null stream (never None)."""
            device = (fake.current_device or 0) if device_id is None else device_id
            stream = fake.current_stream.get(device)
            if stream is None:
                stream = fake._null_streams.get(device)
                if stream is None:
                    stream = fake._null_streams[device] = Stream()
                    stream.device_id = device
            return stream

        def get_device_properties(i):
            if not 0 <= i < len(fake.gpus):
                raise CUDARuntimeError(errorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal")
            g = fake.gpus[i]
            domain, bus, dev = (int(x, 16) for x in (g.bus or "0000:00:00.0").replace(".", ":").split(":")[:3])
            return {"name": g.name.encode(), "uuid": _uuid.UUID(g.uuid[4:]).bytes if g.uuid.startswith("GPU-")
                    else b"\0" * 16, "pciDomainID": domain, "pciBusID": bus, "pciDeviceID": dev,
                    "multiProcessorCount": g.sm, "totalGlobalMem": g.total, "major": g.cc[0], "minor": g.cc[1]}

        def mem_get_info():
            d = fake.current_device or 0
            return fake.gpus[d].total - fake._device_used.get(d, 0), fake.gpus[d].total

        runtime = type("runtime", (), {
            "getDeviceCount": staticmethod(lambda: len(fake.gpus)),
            "getDeviceProperties": staticmethod(get_device_properties),
            "memGetInfo": staticmethod(mem_get_info),
            "CUDARuntimeError": CUDARuntimeError,
            "errorMemoryAllocation": errorMemoryAllocation,
        })
        memory = type("memory", (), {"OutOfMemoryError": OutOfMemoryError, "MemoryPointer": MemoryPointer,
                                     "ALLOCATION_UNIT_SIZE": ALLOCATION_UNIT_SIZE})
        memory_hook = type("memory_hook", (), {"MemoryHook": MemoryHook,
                                               "get_memory_hooks": staticmethod(MemoryHook.hooks)})
        self.cuda = type("cuda", (), {"Device": Device, "MemoryPool": MemoryPool, "Stream": Stream, "Event": Event,
                                      "MemoryHook": MemoryHook, "memory_hook": memory_hook,
                                      "using_allocator": staticmethod(using_allocator),
                                      "get_current_stream": staticmethod(get_current_stream),
                                      "get_elapsed_time": staticmethod(get_elapsed_time),
                                      "get_device_id": staticmethod(lambda: fake.current_device or 0),
                                      "runtime": runtime, "memory": memory})
        self.linalg = _Submodule(self, "linalg", np.linalg)
        self.fft = _Submodule(self, "fft", np.fft, _FFTConfig(self))
        self.random = _Submodule(self, "random", np.random)

    @property
    def gpus(self):
        """The devices the CUDA runtime exposes: ``visible`` (indices into ``gpus``), else CUDA's
        enumeration (``CUDA_DEVICE_ORDER``: most multiprocessors first by default, else PCI order)
        filtered by ``CUDA_VISIBLE_DEVICES`` (indices or UUID prefixes) as they were when the
        runtime was first asked — CUDA reads them once."""
        if self._visible is None:
            order = sorted(range(len(self.gpus_all)), key=lambda i: (self.gpus_all[i].bus or "").lower())
            if os.environ.get("CUDA_DEVICE_ORDER", "FASTEST_FIRST") != "PCI_BUS_ID":  # CUDA's default
                order.sort(key=lambda i: -self.gpus_all[i].sm)
            self._visible = [order[i] for i in _cuda_visible([self.gpus_all[i] for i in order],
                                                             os.environ.get("CUDA_VISIBLE_DEVICES"))]
        return [self.gpus_all[i] for i in self._visible]

    def get_default_memory_pool(self):
        return self._default_pool

    def is_available(self):
        return bool(self.gpus)

    # -- memory ----------------------------------------------------------------------------
    def _device_room(self, device_id):
        return self.gpus[device_id].total - self._device_used.get(device_id, 0)

    def _malloc(self, nbytes):
        """An allocation as CuPy makes one for a new array: through the active allocator."""
        allocator = self.current_allocator or self._default_pool.malloc
        return allocator(nbytes)

    def _where(self, what):
        device = self.current_device or 0
        self.calls.append((what, self.current_device, self.current_allocator is not None))
        stream = self.cuda.get_current_stream(device)
        stream.launched += 1
        self.kernels.append((what, device, stream))

    def asarray(self, a, dtype=None, order=None, *, blocking=False):
        """Host data onto the current device (a copy); a device array as it is (``dtype``: cast)."""
        self._where("asarray")
        if isinstance(a, self.ndarray):
            return a if dtype is None or a.dtype == np.dtype(dtype) else a.astype(dtype)
        return self._owner(np.array(self._host(a), dtype=dtype, copy=True))

    asanyarray = asarray

    def array(self, obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
        self._where("array")
        if isinstance(obj, self.ndarray):
            out = obj.astype(dtype or obj.dtype, copy=copy)
            return out if ndmin <= out.ndim else out.reshape((1,) * (ndmin - out.ndim) + out.shape)
        return self._owner(np.array(self._host(obj), dtype=dtype, copy=True, ndmin=ndmin))

    def _host(self, obj):
        """Host data for ``asarray``/``array``: device arrays inside a list are read back (as CuPy
        concatenates them on the device)."""
        if isinstance(obj, (list, tuple)) and any(isinstance(o, (self.ndarray, list, tuple)) for o in obj):
            return [self._host(o) for o in obj]
        return obj._a if isinstance(obj, self.ndarray) else obj

    def asnumpy(self, a, stream=None, order="C", out=None, *, blocking=True):
        if isinstance(a, self.ndarray):
            return a.get()
        return np.asarray(a, order=order)

    def get_array_module(self, *args):
        return self if any(isinstance(a, self.ndarray) for a in args) else np

    # -- arrays ----------------------------------------------------------------------------
    def _owner(self, a):
        """A new device array owning a pooled buffer holding ``a`` (a NumPy array)."""
        out = object.__new__(self.ndarray)
        out._a, out._base, out._device = a, None, self.current_device or 0
        out._ptr = self._malloc(a.nbytes)
        return out

    def _result(self, value, inputs):
        """A routine's result as CuPy returns it: arrays on the device (views keep their base),
        NumPy scalars as 0-d device arrays, containers of them alike, anything else as is."""
        if isinstance(value, np.generic):
            return self._owner(np.asarray(value))
        if isinstance(value, np.ndarray):
            if value.dtype == object:
                raise TypeError(f"Unsupported type {np.ndarray}")  # CuPy has no object arrays
            for x in inputs:
                if value is x._a:
                    return x
            root = _root(value)
            for x in inputs:
                if root is _root(x._a):
                    out = object.__new__(self.ndarray)
                    owner = x if x._base is None else x._base
                    out._a, out._base, out._device, out._ptr = value, owner, owner._device, None
                    return out
            return self._owner(value)
        if type(value) is list:
            return [self._result(v, inputs) for v in value]
        if isinstance(value, tuple):  # NumPy's named results (QRResult, EighResult): CuPy's are tuples
            return tuple(self._result(v, inputs) for v in value)
        return value

    def _device_arrays(self, args, kwargs):
        found = []
        for arg in list(args) + list(kwargs.values()):
            for x in arg if type(arg) in (list, tuple) else (arg,):
                if isinstance(x, self.ndarray):
                    found.append(x)
        return found

    def _unwrap(self, arg):
        if isinstance(arg, self.ndarray):
            return arg._a
        if type(arg) in (list, tuple):
            return type(arg)(self._unwrap(a) for a in arg)
        return arg

    def _routine(self, name, fn, shape_arg=None):
        """A CuPy routine computed by NumPy's ``fn``: device arrays in, device arrays out; a NumPy
        array as a data argument is CuPy's ``TypeError``. A reduction allocates a temporary
        workspace (CUB's) for the call, as CuPy's reductions do."""
        reduction = name.rpartition(".")[2] in _REDUCTIONS

        def routine(*args, **kwargs):
            self._where(name)
            for i, arg in enumerate(args):
                if i != shape_arg:
                    _refuse_host(arg)
            for key, arg in kwargs.items():
                if key not in _SHAPE_KEYWORDS:
                    _refuse_host(arg)
            inputs = self._device_arrays(args, kwargs)
            workspace = self._malloc(REDUCTION_WORKSPACE) if reduction else None
            out = fn(*(self._unwrap(a) for a in args), **{k: self._unwrap(v) for k, v in kwargs.items()})
            out = self._result(out, inputs)
            del workspace
            return out
        routine.__name__ = name
        return routine

    def __getattr__(self, name):
        """``cupy.X``: what CuPy 14 has (NumPy computes it), CuPy's ``AttributeError`` otherwise."""
        if name in _UFUNCS:
            value = _Ufunc(self, name, getattr(np, name))
        elif name in _FUNCTIONS:
            fn = getattr(np, name, None)
            if fn is None:
                raise AttributeError(f"fake_cupy does not fake cupy.{name} (CuPy 14 has it): add it")
            value = self._routine(name, fn, _SHAPE_ARGS.get(name))
        elif name in _OTHER and hasattr(np, name):
            value = getattr(np, name)  # dtypes, constants, newaxis
        else:
            raise AttributeError(f"module 'cupy' has no attribute '{name}'")
        self.__dict__[name] = value
        return value


class _Submodule:
    """``cupy.linalg``, ``cupy.fft``, ``cupy.random``: CuPy 14's names, NumPy's computation
    (``cupy.fft``'s transforms through its plan cache, ``config``)."""

    def __init__(self, fake, name, module, config=None):
        self._fake, self._name, self._module = fake, name, module
        self._names = frozenset(NAMESPACE[name]["functions"]) | frozenset(NAMESPACE[name]["other"])
        if config is not None:
            self.config = config

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._names:
            raise AttributeError(f"module 'cupy.{self._name}' has no attribute '{name}'")
        fn = getattr(self._module, name, None)
        if fn is None or not callable(fn):
            raise AttributeError(f"fake_cupy does not fake cupy.{self._name}.{name} (CuPy 14 has it): add it")
        if self._name == "fft" and not name.endswith(("freq", "shift")):
            fn = self.config._planned(name, fn)
        value = self._fake._routine(f"{self._name}.{name}", fn)
        setattr(self, name, value)
        return value


class _FFTConfig:
    """``cupy.fft.config``: its plan cache, one per device (CuPy's is per thread and device, 16
    plans by default, least recently used first out). A transform takes its plan from the cache,
    or makes one — a cuFFT plan allocates its work area (here: the output's size) through the
    active allocator, and keeps it while the plan stays cached."""

    SIZE = 16

    def __init__(self, fake):
        self._fake = fake

    def _planned(self, name, fn):
        fake = self._fake

        def transform(a, *args, **kwargs):
            out = fn(a, *args, **kwargs)
            cache = fake._plans.setdefault(fake.current_device or 0, collections.OrderedDict())
            key = (name, a.shape, a.dtype.str, args, tuple(sorted((k, str(v)) for k, v in kwargs.items())))
            if key in cache:
                cache.move_to_end(key)
            else:
                cache[key] = fake._malloc(out.nbytes)
                while len(cache) > self.SIZE:
                    cache.popitem(last=False)
            return out
        return transform

    def get_plan_cache(self):
        config = self

        class PlanCache:
            def get_size(self):
                return config.SIZE

            def get_curr_size(self):
                return len(config._fake._plans.get(config._fake.current_device or 0, ()))

            def get_curr_memsize(self):
                return sum(_round_size(_ptr_size(p)) for p in config._fake._plans.get(
                    config._fake.current_device or 0, {}).values())

            def clear(self):
                config._fake._plans.pop(config._fake.current_device or 0, None)

        return PlanCache()


def _ptr_size(memptr):
    return 0 if memptr._chunk is None else memptr._chunk.size


class _Ufunc:
    """A CuPy ufunc: its operands are device arrays or scalars (a list, a NumPy array: CuPy's
    ``TypeError``); of its methods only what CuPy implements (``reduce`` and ``accumulate`` of
    ``add``/``multiply``, ``reduceat`` of ``add``, ``at`` of the ufuncs with a scatter, ``outer``),
    ``NotImplementedError`` with CuPy's words otherwise (cupy/_core/_kernel.pyx)."""

    _METHODS = {"reduce": ("add", "multiply"), "accumulate": ("add", "multiply"), "reduceat": ("add",),
                "at": ("add", "subtract", "maximum", "minimum")}

    def __init__(self, fake, name, ufunc):
        self._fake, self._name, self._ufunc = fake, name, ufunc
        self.nin, self.nout, self.name = ufunc.nin, ufunc.nout, name

    def __call__(self, *args, **kwargs):
        for arg in args[:self._ufunc.nin]:
            if not (isinstance(arg, self._fake.ndarray) or isinstance(arg, (int, float, complex, np.generic))):
                raise TypeError(f"Unsupported type {type(arg)}")
        return self._fake._routine(self._name, self._ufunc)(*args, **kwargs)

    def __getattr__(self, method):
        if method.startswith("_") or method not in NAMESPACE["ufunc_methods"]:
            raise AttributeError(f"'cupy._core._kernel.ufunc' object has no attribute '{method}'")
        if self._name not in self._METHODS.get(method, (self._name,)):
            raise NotImplementedError(f"`cupy_{self._name}.{method}` is not supported yet")
        return self._fake._routine(f"{self._name}.{method}", getattr(self._ufunc, method))


def _cuda_visible(gpus, value):
    """The ordinals ``CUDA_VISIBLE_DEVICES`` leaves, as CUDA reads it (up to the first bad entry)."""
    if value is None:
        return list(range(len(gpus)))
    out = []
    for entry in (e.strip() for e in value.split(",")):
        if entry.lstrip("-").isdigit():
            i = int(entry)
            if not 0 <= i < len(gpus):
                break
        else:
            found = [k for k, g in enumerate(gpus) if g.uuid.lower().startswith(entry.lower())]
            if len(found) != 1:
                break
            i = found[0]
        if i in out:
            return []
        out.append(i)
    return out


def _refuse_host(arg):
    """CuPy's routines take device arrays, scalars and lists of them: a NumPy array is CuPy's
    ``TypeError`` — a kernel must not mix host data into ``xp``."""
    for x in arg if type(arg) in (list, tuple) else (arg,):
        if isinstance(x, np.ndarray):
            raise TypeError(f"Unsupported type {np.ndarray}")


def _root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
           "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "matmul": "matmul",
           "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift",
           "rshift": "right_shift", "divmod": "divmod"}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
            "ge": "greater_equal"}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}


def _make_ndarray(fake):
    class ndarray:  # noqa: N801 (CuPy's name)
        """A device array: NumPy data inside (``_a``), never a NumPy array itself. It owns a pooled
        buffer (``_ptr``) unless it is a view (``base``: the array it looks into)."""

        __array_priority__ = 100
        __hash__ = None

        def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
            owner = fake._owner(np.empty(shape, dtype, order=order))
            self._a, self._base, self._device, self._ptr = owner._a, None, owner._device, owner._ptr
            owner._ptr = None

        # -- what CuPy answers without a kernel ----------------------------------------------
        shape = property(lambda self: self._a.shape)
        dtype = property(lambda self: self._a.dtype)
        ndim = property(lambda self: self._a.ndim)
        size = property(lambda self: self._a.size)
        nbytes = property(lambda self: self._a.nbytes)
        itemsize = property(lambda self: self._a.itemsize)
        strides = property(lambda self: self._a.strides)
        base = property(lambda self: self._base)
        device = property(lambda self: fake.cuda.Device(self._device))
        T = property(lambda self: fake._result(self._a.T, (self,)))
        mT = property(lambda self: fake._result(self._a.mT, (self,)))
        real = property(lambda self: fake._result(self._a.real, (self,)), lambda self, v: self._set("real", v))
        imag = property(lambda self: fake._result(self._a.imag, (self,)), lambda self, v: self._set("imag", v))

        def _set(self, part, value):
            _refuse_host(value)
            setattr(self._a, part, value._a if isinstance(value, ndarray) else value)

        @property
        def data(self):
            return (self._base or self)._ptr

        def get(self, stream=None, order="C", out=None, blocking=True):
            """The data in host memory: the one way to a NumPy array (a copy)."""
            return np.array(self._a, copy=True, order=order)

        def set(self, arr, stream=None):
            if not isinstance(arr, np.ndarray):
                raise TypeError(f"Only numpy.ndarray can be set to cupy.ndarray: {type(arr)}")
            self._a[...] = arr

        def copy(self, order="C"):
            """A copy on the current device (CuPy copies across devices too)."""
            fake._where("copy")
            return fake._owner(self._a.copy(order))

        def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
            out = self._a.astype(dtype, order=order, copy=copy)
            return self if out is self._a else fake._owner(out)

        def item(self):
            return self._a.item()

        def tolist(self):
            return self._a.tolist()

        def __array__(self, dtype=None, copy=None):
            raise TypeError(IMPLICIT)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            """NumPy's ufuncs on device arrays run CuPy's (as CuPy's ``__array_ufunc__``)."""
            if ufunc.__name__ not in _UFUNCS:
                return NotImplemented
            fn = getattr(fake, ufunc.__name__)
            if "out" in kwargs and type(kwargs["out"]) is tuple and len(kwargs["out"]) == 1:
                kwargs["out"] = kwargs["out"][0]
            return (fn if method == "__call__" else getattr(fn, method))(*inputs, **kwargs)

        def __array_function__(self, func, types, args, kwargs):
            """NumPy's functions on device arrays run CuPy's of that name; none: NumPy's TypeError."""
            module = fake
            for part in func.__module__.split(".")[1:]:
                module = getattr(module, part, None)
            try:
                fn = getattr(module, func.__name__)
            except AttributeError:
                return NotImplemented
            return fn(*args, **kwargs)

        def __getattr__(self, name):
            """The NumPy methods CuPy's ndarray has (computed by NumPy, results on the device)."""
            if name.startswith("_") or name not in _NDARRAY or not hasattr(self._a, name):
                raise AttributeError(f"'cupy.ndarray' object has no attribute '{name}'")
            return fake._routine(f"ndarray.{name}", getattr(self._a, name))

        def __getitem__(self, key):
            """Basic indexing is a view; one element is a 0-d array on the device, not a scalar."""
            fake._where("getitem")
            key = _index(fake, key)
            out = self._a[key]
            if not isinstance(out, np.ndarray):
                out = self._a[(key if isinstance(key, tuple) else (key,)) + (Ellipsis,)]
            return fake._result(out, (self,))

        def __setitem__(self, key, value):
            fake._where("setitem")
            self._a[_index(fake, key)] = value._a if isinstance(value, ndarray) else value

        def __len__(self):
            if not self._a.ndim:
                raise TypeError("len() of unsized object")
            return len(self._a)

        def __iter__(self):
            if not self._a.ndim:
                raise TypeError("iteration over a 0-d array")
            return (self[i] for i in range(len(self._a)))

        def __bool__(self):
            return bool(self._a)

        def __int__(self):
            return int(self._a)

        def __float__(self):
            return float(self._a)

        def __complex__(self):
            return complex(self._a)

        def __copy__(self):
            return self.copy()

        def __deepcopy__(self, memo):
            return self.copy()

        def __repr__(self):
            return repr(self._a)

        def __str__(self):
            return str(self._a)

    def binary(ufunc):
        return (lambda self, other: getattr(fake, ufunc)(self, other),
                lambda self, other: getattr(fake, ufunc)(other, self),
                lambda self, other: getattr(fake, ufunc)(self, other, out=self))

    for op, ufunc in _BINARY.items():
        forward, reflected, inplace = binary(ufunc)
        setattr(ndarray, f"__{op}__", forward)
        setattr(ndarray, f"__r{op}__", reflected)
        if op != "divmod":
            setattr(ndarray, f"__i{op}__", inplace)
    for op, ufunc in _COMPARE.items():
        setattr(ndarray, f"__{op}__", binary(ufunc)[0])
    for op, ufunc in _UNARY.items():
        setattr(ndarray, f"__{op}__", (lambda u: lambda self: getattr(fake, u)(self))(ufunc))
    return ndarray


def _index(fake, key):
    """An index with its device arrays as NumPy's (CuPy takes device arrays, NumPy arrays, lists)."""
    if isinstance(key, tuple):
        return tuple(k._a if isinstance(k, fake.ndarray) else k for k in key)
    return key._a if isinstance(key, fake.ndarray) else key
