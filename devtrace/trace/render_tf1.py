"""TensorFlow 1 Session placement log: the ``Device mapping:`` header, then one line per node.

Modern (TF ≥ 1.5)::

    Device mapping:
    /job:localhost/replica:0/task:0/device:GPU:0 -> device: 0, name: Tesla K40c, pci bus id: 0000:05:00.0, compute capability: 3.5
    MatMul: (MatMul): /job:localhost/replica:0/task:0/device:GPU:0

Legacy (``legacy=True``, the 2017 guide's TF ≤ 1.4 form): lower-case ``gpu:0``/``cpu:0`` device
names, no op type, no compute capability. The guide shows the mapping line wrapped after
``pci bus``; that wrap was the page's, not TensorFlow's, so it is printed as one line.
"""

from __future__ import annotations

import re

_LEGACY = re.compile(r"/device:(CPU|GPU):(\d+)$")
_CAPABILITY = re.compile(r", compute capability: [0-9.]+$")


def legacy_device(name: str) -> str:
    """``…/device:GPU:0`` → ``…/gpu:0`` (only CPU and GPU had lower-case legacy names)."""
    return _LEGACY.sub(lambda m: f"/{m.group(1).lower()}:{m.group(2)}", name)


def legacy_description(desc: str) -> str:
    return _CAPABILITY.sub("", desc)


def line(event, legacy: bool = False) -> str | None:
    """The text TensorFlow 1 prints for ``event`` (a mapping is several lines), or ``None``."""
    kind = event.kind
    if kind == "op_placed":
        node = event.node if event.node else event.op
        if legacy:
            return f"{node}: {legacy_device(event.device)}"
        return f"{node}: ({event.op}): {event.device}"
    if kind == "device_mapping":
        if not event.devices:
            return "Device mapping: no known devices."
        out = ["Device mapping:"]
        for name, desc in event.devices:
            if legacy:
                out.append(f"{legacy_device(name)} -> {legacy_description(desc)}")
            else:
                out.append(f"{name} -> {desc}")
        return "\n".join(out)
    if kind == "message":
        return f"{event.level}:tensorflow:{event.text}"
    return None


def render(events, legacy: bool = False) -> str:
    out = [text for text in (line(e, legacy) for e in events) if text is not None]
    return "\n".join(out) + "\n" if out else ""
