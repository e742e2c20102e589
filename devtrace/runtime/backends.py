"""Execution backends: where a kernel's arrays live and which array module runs it.

``NumpyBackend``      the CPU.
``SimulatedBackend``  a simulated GPU: NumPy kernels, arrays kept "resident" on the device
                      (a copy onto it is a real copy), memory accounted by the device's allocator.
``CupyBackend``       a real NVIDIA GPU: CuPy kernels inside that GPU's CUDA device context,
                      each logical device allocating from its own size-limited CuPy memory pool.

The executor only calls ``run``, ``from_host``, ``to_host`` and ``copy_from``.
"""

from __future__ import annotations

import numpy as np

from ..errors import InternalError, UnimplementedError


class NumpyBackend:
    name = "numpy"
    xp = np
    direct = True  # the executor may call kernels with ``xp`` itself, skipping ``run``

    def run(self, kernel, arrays, attrs, opdef=None, dtype=None):
        return kernel(np, *arrays, **attrs) if attrs else kernel(np, *arrays)

    def from_host(self, array):
        return array

    def to_host(self, array):
        return array

    def copy_from(self, array, src_backend):
        return np.array(src_backend.to_host(array), copy=True)


class SimulatedBackend(NumpyBackend):
    name = "simulated"


class PoolExhausted(MemoryError):
    """CuPy's ``OutOfMemoryError`` as devtrace passes it on: ``nbytes`` is the (rounded) request
    the pool refused. Raised outside CuPy's ``except`` so that the kernel's temporaries are
    already back in the pool."""

    def __init__(self, text: str, nbytes: int):
        super().__init__(text)
        self.nbytes = nbytes


class CudaFailure(ValueError):
    """A CuPy or CUDA error inside a kernel, as TensorFlow reports its GPU kernels' failures: the
    execution step raises ``error_class`` naming the op and device; CuPy's own frames stay out."""

    def __init__(self, text: str, error_class):
        super().__init__(text)
        self.error_class = error_class


def _cuda_failure(e: Exception) -> CudaFailure | None:
    """``e`` as TensorFlow's error, when CuPy or CUDA raised it: a routine CuPy does not implement
    is ``UnimplementedError``; a CUDA runtime, driver or library error ``InternalError``."""
    if isinstance(e, NotImplementedError):
        return CudaFailure(f"CuPy does not implement it: {e}", UnimplementedError)
    module = type(e).__module__ or ""
    if isinstance(e, RuntimeError) and (module.startswith(("cupy", "cupy_backends")) or type(e).__name__.startswith(
            ("CUDARuntimeError", "CUDADriverError", "CUBLASError", "CUSOLVERError", "CUFFTError"))):
        return CudaFailure(f"{type(e).__name__}: {e}", InternalError)
    return None


class CupyBackend:
    """One logical device on a real GPU: CuPy kernels run inside the physical GPU's device
    context and allocate from the logical device's own memory pool, limited to its size.

    Every output owns its buffer (a view or an input handed back is copied), so each tensor's
    bytes are its own buffer's. CuPy allocates from the pool for itself too — a reduction's
    temporary workspace, an FFT plan's work area its plan cache keeps, a library's workspace:
    a memory hook around every call sees each allocation and free (:class:`_CallAllocations`),
    so those bytes are counted apart (:attr:`own_peak`; now: ``used_bytes() - tensor bytes``),
    never as a tensor's. CuPy's ``OutOfMemoryError`` leaves as :class:`PoolExhausted`, its other
    errors as :class:`CudaFailure`."""

    name = "cupy"
    direct = False

    def __init__(self, platform_id: int, limit_bytes: int | None = None, preallocate: bool = False, cupy=None):
        if cupy is None:
            cupy = _import_cupy()
        self.cupy = self.xp = cupy
        self.platform_id = platform_id
        self.device = cupy.cuda.Device(platform_id)
        self.pool = cupy.cuda.MemoryPool()
        self._oom = cupy.cuda.memory.OutOfMemoryError
        self._using = cupy.cuda.using_allocator
        self._watch = _CallAllocations.make(cupy, f"devtrace-pool-{id(self):x}")
        # the bytes of live tensors on this device (its accounting allocator's ``bytes_in_use``)
        self.tensor_bytes = lambda: 0
        self.own_peak = 0  # the most pool bytes CuPy held for itself at once, temporaries included
        # time each kernel on the GPU with CUDA events (``kernel_ns``: the last one's), which waits
        # for it; else an op's time is the host's launch of its kernels (CuPy runs them asynchronously)
        self.time_kernels = False
        self.kernel_ns: int | None = None
        with self.device:
            if limit_bytes:
                self.pool.set_limit(size=limit_bytes)
            if preallocate and limit_bytes:
                # the largest block CuPy's 512-byte rounding keeps under the limit; freed, it stays cached
                block = self.pool.malloc(limit_bytes - limit_bytes % 512)
                del block

    def used_bytes(self) -> int:
        with self.device:
            return self.pool.used_bytes()

    def total_bytes(self) -> int:
        with self.device:
            return self.pool.total_bytes()

    def own_bytes(self) -> int:
        """The pool bytes CuPy holds now for itself, owned by no tensor (FFT plans' work areas)."""
        with self.device:
            return self.pool.used_bytes() - self.tensor_bytes()

    def _call(self, fn, *args, timed=False):
        """``fn(*args)`` inside the device and its pool; CuPy's OOM becomes :class:`PoolExhausted`.
        ``timed``: the GPU's time for the kernels ``fn`` queues, between two CUDA events on the
        device's stream, goes to ``kernel_ns`` (the host waits for the second)."""
        refused = failure = None
        watch = self._watch
        try:
            with self.device, self._using(self.pool.malloc):
                if timed:
                    start = self.cupy.cuda.Event()
                    start.record()
                if watch is None or watch.active:  # no hooks in this CuPy, or a call inside a call
                    out = fn(*args)
                else:
                    own_before = self.pool.used_bytes() - self.tensor_bytes()
                    with watch:
                        out = fn(*args)
                    peak = own_before + watch.own_peak(out, self.cupy.ndarray)
                    if peak > self.own_peak:
                        self.own_peak = peak
                if timed:
                    end = self.cupy.cuda.Event()
                    end.record()
                    end.synchronize()
                    self.kernel_ns = int(round(self.cupy.cuda.get_elapsed_time(start, end) * 1e6))
                return out
        except self._oom as e:
            refused = (str(e), int(getattr(e, "_size", 0)))
        except RuntimeError as e:  # NotImplementedError too
            failure = _cuda_failure(e)
            if failure is None:
                raise
        if failure is not None:
            raise failure
        raise PoolExhausted(*refused)

    def run(self, kernel, arrays, attrs, opdef=None, dtype=None):
        timed = self.time_kernels
        if any(type(a) is np.ndarray for a in arrays):
            return self._call(self._run_with_host_inputs, kernel, arrays, attrs, timed=timed)
        if attrs:
            return self._call(lambda: self._own(kernel(self.cupy, *arrays, **attrs), arrays), timed=timed)
        return self._call(lambda: self._own(kernel(self.cupy, *arrays), arrays), timed=timed)

    def _run_with_host_inputs(self, kernel, arrays, attrs):
        """Inputs TensorFlow keeps in host memory (an int32 constant on a GPU) go to the device for
        the kernel, which computes with CuPy alone; strings stay (their kernels are CPU-only)."""
        arrays = [self.cupy.asarray(a) if type(a) is np.ndarray and a.dtype != object else a for a in arrays]
        return self._own(kernel(self.cupy, *arrays, **(attrs or {})), arrays)

    def _own(self, out, arrays):
        """Outputs with buffers of their own: a view or an input returned as is is copied."""
        nd = self.cupy.ndarray
        taken = {id(a) for a in arrays}
        if type(out) is tuple:
            owned = []
            for o in out:
                if isinstance(o, nd) and (o.base is not None or id(o) in taken):
                    o = o.copy()
                taken.add(id(o))
                owned.append(o)
            return tuple(owned)
        if isinstance(out, nd) and (out.base is not None or id(out) in taken):
            return out.copy()
        return out

    def _copy(self, fn, *args):
        """A copy onto this GPU; CUDA failing it is TensorFlow's error naming the device (the
        executor knows no op for a copy)."""
        try:
            return self._call(fn, *args)
        except CudaFailure as e:
            raise e.error_class(f"{e} (copying a tensor onto CUDA device {self.platform_id})") from None

    def from_host(self, array):
        if array.dtype == object:
            return array  # strings never live on a GPU (their kernels are CPU-only)
        return self._copy(self.cupy.asarray, array)

    def to_host(self, array):
        return self.cupy.asnumpy(array) if isinstance(array, self.cupy.ndarray) else array

    def copy_from(self, array, src_backend):
        if not isinstance(array, self.cupy.ndarray):
            return self._copy(self.cupy.asarray, src_backend.to_host(array))
        src = getattr(src_backend, "device", None)
        if src is None or src.id == self.device.id:
            return self._copy(array.copy)  # same GPU: one stream orders it after the producer
        # A peer copy runs on this GPU's stream, which knows nothing of the source GPU's: it must
        # wait for the work queued there (the kernel that produced ``array``) before it reads.
        with src:
            produced = self.cupy.cuda.get_current_stream().record()
        return self._copy(self._peer_copy, array, produced)

    def _peer_copy(self, array, produced):
        self.cupy.cuda.get_current_stream().wait_event(produced)
        return array.copy()


class _CallAllocations:
    """The pool allocations and frees of one backend call, in order, from CuPy's memory hooks
    (``cupy.cuda.MemoryHook``: called on the allocating — or freeing — thread, while entered).
    What the call allocated and its outputs do not own is CuPy's own: :meth:`own_peak` is the
    most of it held at once during the call."""

    @staticmethod
    def make(cupy, name):
        base = getattr(cupy.cuda, "MemoryHook", None)
        if base is None:
            return None

        class Hook(_CallAllocations, base):
            pass

        hook = Hook()
        hook.name = name
        return hook

    def __init__(self):
        self.events: list[tuple[int, int]] = []  # (pointer, +bytes allocated / -bytes freed)
        self.active = False

    def __enter__(self):
        self.events.clear()
        self.active = True
        return super().__enter__()

    def __exit__(self, *exc):
        self.active = False
        return super().__exit__(*exc)

    def malloc_postprocess(self, device_id=None, size=0, mem_size=0, mem_ptr=0, pmem_id=0, **_):
        if mem_ptr:
            self.events.append((mem_ptr, mem_size))

    def free_preprocess(self, device_id=None, mem_size=0, mem_ptr=0, pmem_id=0, **_):
        self.events.append((mem_ptr, -mem_size))

    def own_peak(self, out, ndarray) -> int:
        """The most bytes allocated in the call, not its outputs' buffers, held at once."""
        events, self.events = self.events, []
        outputs = {o.data.ptr for o in (out if type(out) is tuple else (out,))
                   if isinstance(o, ndarray) and o.base is None}
        last = {}  # an output's buffer: the last allocation at its address (a freed one may be reused)
        for i, (ptr, n) in enumerate(events):
            if n > 0 and ptr in outputs:
                last[ptr] = i
        owned = set(last.values())
        live, held, peak = {}, 0, 0
        for i, (ptr, n) in enumerate(events):
            if n > 0:
                if i not in owned:
                    live[ptr] = n
                    held += n
                    peak = max(peak, held)
            elif ptr in live:
                held -= live.pop(ptr)
        return peak


def cuda_ordinals(cupy=None) -> dict[str, int]:
    """The CUDA runtime's devices — what it left visible, in its order — by UUID (the hex digits
    NVML writes after ``GPU-``/``MIG-``, lower case), from ``getDeviceProperties``."""
    import uuid

    cupy = cupy or _import_cupy()
    runtime, out = cupy.cuda.runtime, {}
    for ordinal in range(runtime.getDeviceCount()):
        raw = runtime.getDeviceProperties(ordinal).get("uuid")
        if raw and any(raw):
            out[str(uuid.UUID(bytes=bytes(raw)))] = ordinal
    return out


def uuid_key(nvml_uuid: str) -> str:
    """``GPU-1d3a…`` / ``MIG-…`` → the bare UUID :func:`cuda_ordinals` is keyed by."""
    text = nvml_uuid.lower()
    return text[4:] if text.startswith(("gpu-", "mig-")) else text


def _import_cupy():
    import cupy

    return cupy


_NUMPY = NumpyBackend()
_SIMULATED = SimulatedBackend()


def cupy_usable() -> str | None:
    """``None`` when CuPy can run kernels here, else a one-line reason."""
    try:
        cupy = _import_cupy()
    except ImportError:
        return "CuPy is not installed (pip install 'devtrace[cuda]')"
    try:
        if not cupy.is_available():
            return "CuPy is installed but cannot use a GPU (no CUDA device or driver)"
    except Exception as e:  # CuPy raises its own runtime errors here
        return f"CuPy cannot use the GPU: {e}"
    return None


def backend_for(gpu, platform_id: int | None = None, memory=None):
    """The backend of one logical device: ``gpu=None`` is the CPU. Real GPUs are addressed by
    their platform id (CUDA's numbering after ``CUDA_VISIBLE_DEVICES``); each logical device on
    one gets its own pool, limited by the device's ``MemoryPolicy`` — the same policy its
    accounting allocator was built from. Without a usable CuPy, NVML GPUs run NumPy kernels."""
    if gpu is None:
        return _NUMPY
    if gpu.backend == "nvml" and cupy_usable() is None:
        return CupyBackend(platform_id, memory.limit, memory.preallocate)
    return _SIMULATED
