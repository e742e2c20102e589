"""``CUDA_VISIBLE_DEVICES`` and ``CUDA_DEVICE_ORDER``, applied as the CUDA driver applies them."""

from __future__ import annotations

import re

from ..errors import UsageError
from .physical import GPUInfo

_INDEX = re.compile(r"^-?[0-9]+$")  # ASCII digits only, as CUDA reads them


def order_devices(gpus: list[GPUInfo], order: str | None) -> list[GPUInfo]:
    """CUDA enumeration order. ``PCI_BUS_ID`` matches nvidia-smi; ``FASTEST_FIRST`` (CUDA's
    default) puts the GPUs with most multiprocessors first, ties in PCI order."""
    by_bus = sorted(gpus, key=lambda g: g.pci_bus_id.lower())
    if order is None or order == "" or order == "FASTEST_FIRST":
        return sorted(by_bus, key=lambda g: -(g.multiprocessor_count or 0))
    if order == "PCI_BUS_ID":
        return by_bus
    raise UsageError(f"CUDA_DEVICE_ORDER={order!r} is not valid; use FASTEST_FIRST or PCI_BUS_ID")


def apply_visible_devices(gpus: list[GPUInfo], value: str | None) -> list[GPUInfo]:
    """Filter and reorder ``gpus`` (already in enumeration order) by ``CUDA_VISIBLE_DEVICES``.

    Unset → all. Empty or ``-1`` → none. The listed order is kept; the first entry that names
    no device (out of range, negative, an unknown or ambiguous UUID prefix) ends the list, so
    ``0,2,-1,1`` → 0, 2. A repeated device makes the whole list invalid (no GPUs), as CUDA does.
    An entry that is neither an index nor a ``GPU-``/``MIG-`` UUID is a usage error.
    """
    if value is None:
        return list(gpus)
    entries = [e.strip() for e in value.split(",")]
    if entries == [""]:
        return []
    chosen: list[GPUInfo] = []
    for entry in entries:
        if _INDEX.match(entry):
            i = int(entry)
            if i < 0 or i >= len(gpus):
                break
            gpu = gpus[i]
        elif entry.upper().startswith(("GPU-", "MIG-")):
            prefix = entry.lower()  # a GPU- entry names a whole GPU, a MIG- entry a MIG instance
            matches = [g for g in gpus if g.uuid.lower().startswith(prefix)]
            if len(matches) != 1:
                break
            gpu = matches[0]
        else:
            raise UsageError(f"CUDA_VISIBLE_DEVICES={value!r}: entry {entry!r} is neither a device index "
                             f"nor a GPU UUID (GPU-…)")
        if gpu in chosen:
            return []
        chosen.append(gpu)
    return chosen
