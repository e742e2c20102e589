"""Device memory: the policy each logical device gets (:mod:`.policy`), TensorFlow's BFC
allocator for GPUs (:mod:`.bfc`) and the host's byte counter (:mod:`.host`)."""

from .bfc import BFCAllocator, bin_index, round_bytes
from .host import HostAllocator
from .policy import HOST, MemoryPolicy, default_memory_limit, min_system_memory, resolve

__all__ = ["BFCAllocator", "HostAllocator", "MemoryPolicy", "HOST", "bin_index", "round_bytes",
           "default_memory_limit", "min_system_memory", "resolve"]
