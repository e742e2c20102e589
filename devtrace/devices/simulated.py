"""Simulated machines: GPUs described by a spec string or a TOML machine file.

``--simulate 4``            four default GPUs (16 GiB, compute capability 8.0)
``--simulate 2xH100``       two GPUs of a known model
``--simulate 4xK20m:5GiB``  a known model with another memory size
``--simulate 2xH100,1xT4``  groups joined by commas

A machine file lists each GPU (see ``fixtures/machines/``)::

    [[gpu]]
    name = "Tesla K40c"
    memory_total = "11441MiB"
    compute_capability = "3.5"
    pci_bus_id = "0000:05:00.0"      # optional
    memory_used = "0MiB"             # optional: held by other processes
    multiprocessor_count = 15        # optional
    uuid = "GPU-…"                   # optional
"""

from __future__ import annotations

import re
import zlib

from ..errors import UsageError
from . import models
from .physical import GPUInfo

_GROUP = re.compile(r"^(?:(?P<count>\d+)x)?(?P<model>[A-Za-z][\w.-]*?)?(?::(?P<mem>[\w.]+))?$")


def _uuid(seed: str) -> str:
    h = "".join(f"{zlib.crc32(f'{salt}:{seed}'.encode()):08x}" for salt in range(4))
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _bus_id(index: int) -> str:
    return f"0000:{index + 1:02x}:00.0"


def _make(index: int, model: models.Model, memory_total: int, *, used: int = 0,
          bus_id: str | None = None, uuid: str | None = None) -> GPUInfo:
    return GPUInfo(index=index, name=model.name, uuid=uuid or _uuid(f"devtrace-sim-{index}-{model.name}"),
                   pci_bus_id=bus_id or _bus_id(index), memory_total=memory_total, memory_used=used,
                   compute_capability=model.compute_capability,
                   multiprocessor_count=model.multiprocessor_count, backend="simulated")


def parse_simulate(spec: str) -> list[GPUInfo]:
    """Parse a ``--simulate`` spec; raises ``UsageError`` naming the bad part."""
    text = str(spec).strip()
    if not text:
        raise UsageError("--simulate: empty spec; expected e.g. '4', '2xH100' or '4xK20m:5GiB'")
    gpus: list[GPUInfo] = []
    for group in text.split(","):
        group = group.strip()
        if not group.isascii():
            raise UsageError(f"--simulate: '{group}' is not ASCII; expected e.g. '4', '2xH100' or '4xK20m:5GiB'")
        if group.isdigit():
            count, model, mem = int(group), models.DEFAULT, None
        else:
            m = _GROUP.match(group)
            if not m or not m.group("model"):
                raise UsageError(f"--simulate: cannot parse '{group}'; expected N, NxMODEL or NxMODEL:SIZE "
                                 f"(e.g. '2xH100', '4xK20m:5GiB')")
            count = int(m.group("count") or 1)
            model = models.DEFAULT
            if m.group("model"):
                found = models.lookup(m.group("model"))
                if found is None:
                    known = ", ".join(models.MODELS)
                    raise UsageError(f"--simulate: unknown GPU model '{m.group('model')}'; known models: {known}")
                model = found
            mem = m.group("mem")
        memory = model.memory_total
        if mem is not None:
            size = models.parse_size(mem)
            if not size:
                raise UsageError(f"--simulate: bad memory size '{mem}' in '{group}'; expected e.g. 5GiB or 512MiB")
            memory = models.check_gpu_memory(size, f"--simulate {group}")
        if count < 1 or count > models.MAX_GPUS:
            raise UsageError(f"--simulate: GPU count must be between 1 and {models.MAX_GPUS}, got {count} in '{group}'")
        for _ in range(count):
            gpus.append(_make(len(gpus), model, memory))
    if len(gpus) > models.MAX_GPUS:
        raise UsageError(f"--simulate: at most {models.MAX_GPUS} GPUs, got {len(gpus)}")
    return gpus


def _load_toml(path: str) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_MACHINE_FILE + 1)  # bounded: a machine file is a few lines
    except FileNotFoundError:
        raise UsageError(f"machine file not found: {path}") from None
    except OSError as e:
        raise UsageError(f"cannot read machine file {path}: {e.strerror}") from None
    if b"\0" in data:
        raise UsageError(f"{path}: binary data, not a TOML machine file")
    if len(data) > _MAX_MACHINE_FILE:
        raise UsageError(f"{path}: larger than {_MAX_MACHINE_FILE >> 10} KiB, not a machine file")
    if data.count(b"[") + data.count(b"{") > 64 and _too_deep(data):
        raise UsageError(f"{path}: not valid TOML: arrays or tables nested more than 32 deep")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise UsageError(f"{path}: not valid TOML: nested too deeply") from None


_MAX_MACHINE_FILE = 1 << 20


def _too_deep(data: bytes, limit: int = 32) -> bool:
    """Arrays or inline tables nested deeper than ``limit`` (tomllib recurses once per level)."""
    import re

    depth = 0
    for m in re.finditer(rb'[\[\]{}]|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'', data):
        c = m.group()
        if c in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif c in (b"]", b"}"):
            depth -= 1
    return False


def _field(path, where, entry, key, kind, required=True):
    if key not in entry:
        if required:
            raise UsageError(f"{path}: {where}: missing field '{key}'")
        return None
    value = entry[key]
    if kind == "size":
        size = models.parse_size(value) if isinstance(value, str) else None
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            size = value * models.MiB  # a bare integer is MiB, as nvidia-smi prints it
        if size is None:
            raise UsageError(f"{path}: {where}: field '{key}' must be a size like \"16GiB\" or an integer "
                             f"number of MiB, got {value!r}")
        return size
    if kind == "cc":
        m = re.fullmatch(r"(\d+)\.(\d+)", str(value)) if isinstance(value, (str, float)) else None
        if not m:
            raise UsageError(f"{path}: {where}: field '{key}' must be \"MAJOR.MINOR\" like \"8.0\", got {value!r}")
        return int(m.group(1)), int(m.group(2))
    if kind == "bus":
        if not isinstance(value, str) or not re.fullmatch(r"[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]", value):
            raise UsageError(f"{path}: {where}: field '{key}' must be a PCI bus id like \"0000:05:00.0\", got {value!r}")
        return value
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise UsageError(f"{path}: {where}: field '{key}' must be a positive integer, got {value!r}")
        return value
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        raise UsageError(f"{path}: {where}: field '{key}' must be a non-empty printable string, got {value!r}")
    return value


KNOWN_FIELDS = {"name", "memory_total", "memory_used", "compute_capability", "pci_bus_id",
                "multiprocessor_count", "uuid"}


def load_machine(path: str) -> list[GPUInfo]:
    """Read a machine file; raises ``UsageError`` naming the file, the GPU and the field."""
    data = _load_toml(path)
    if "graph_logs" in data:  # the key TensorFlow 1's behaviours hung off before they became one switch
        raise UsageError(f"{path}: 'graph_logs' is no longer a machine file key: TensorFlow 1's behaviours are "
                         f"the --compat tf1 switch (DEVTRACE_COMPAT=tf1 for a plain python run)")
    entries = data.get("gpu", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise UsageError(f"{path}: 'gpu' must be an array of tables ([[gpu]])")
    if not entries:
        raise UsageError(f"{path}: no GPUs: a machine file lists each GPU as a [[gpu]] table "
                         f"(see fixtures/machines/)")
    if len(entries) > models.MAX_GPUS:
        raise UsageError(f"{path}: at most {models.MAX_GPUS} GPUs, got {len(entries)}")
    gpus = []
    for i, entry in enumerate(entries):
        where = f"gpu[{i}]"
        unknown = sorted(set(entry) - KNOWN_FIELDS)
        if unknown:
            raise UsageError(f"{path}: {where}: unknown field '{unknown[0]}' "
                             f"(known: {', '.join(sorted(KNOWN_FIELDS))})")
        name = _field(path, where, entry, "name", str)
        total = models.check_gpu_memory(_field(path, where, entry, "memory_total", "size"), f"{path}: {where}")
        cc = _field(path, where, entry, "compute_capability", "cc")
        used = _field(path, where, entry, "memory_used", "size", required=False) or 0
        if used > total:
            raise UsageError(f"{path}: {where}: memory_used ({used >> 20} MiB) is more than "
                             f"memory_total ({total >> 20} MiB)")
        sms = _field(path, where, entry, "multiprocessor_count", int, required=False)
        model = models.Model(name, total, cc, sms or (models.lookup(name) or models.DEFAULT).multiprocessor_count)
        gpus.append(_make(i, model, total, used=used,
                          bus_id=_field(path, where, entry, "pci_bus_id", "bus", required=False),
                          uuid=_field(path, where, entry, "uuid", str, required=False)))
    for key in ("uuid", "pci_bus_id"):
        seen: dict = {}
        for i, gpu in enumerate(gpus):
            value = getattr(gpu, key).lower()
            if value in seen:
                raise UsageError(f"{path}: gpu[{i}]: {key} {getattr(gpu, key)!r} repeats gpu[{seen[value]}]'s")
            seen[value] = i
    return gpus
