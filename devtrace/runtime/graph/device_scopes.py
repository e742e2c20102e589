"""A TF1 graph's device scopes (``Graph.device``): what one ``device()`` call puts on the graph's
stack, the request the nodes created inside get (``merge_device``: inner fields win), and a
node's device when device functions are on the stack."""

from __future__ import annotations

from ...devices.device_spec import DeviceSpecV2
from ...devices.spec import DeviceSpec


def entry(name):
    """What ``Graph.device(name)`` pushes: ``None`` (outer scopes ignored), ``""`` (inherited), a
    device function, or a ``DeviceSpec`` (TensorFlow's Python parse first, with its errors)."""
    if name is None or name == "":
        return name
    if callable(name) and not isinstance(name, DeviceSpec) and not hasattr(name, "name"):
        return name  # a device function: called with each node created inside (TF1's device functions)
    if isinstance(name, DeviceSpecV2):
        name = name.to_string()
    name = getattr(name, "name", name) if not isinstance(name, (str, DeviceSpec)) else name
    if isinstance(name, str):  # TensorFlow's Python parse (its errors), then devtrace's placer's
        name = DeviceSpecV2.from_string(name).to_string()
    return DeviceSpec.from_string(name)


def merged(stack) -> tuple:
    """``(the request of nodes created now, whether a device function is on the stack)``."""
    spec = None
    functions = False
    for item in reversed(stack):
        if item == "":
            continue
        if item is None:
            break
        if not isinstance(item, DeviceSpec):
            functions = True
            continue
        spec = item if spec is None else item.make_merged_spec(spec)
    return ("" if spec is None else spec.to_string()), functions


def device_for(stack, op) -> str:
    """A node's device when device functions are on the stack, as TensorFlow applies them:
    innermost first; a scope's spec fills the fields still unset, a function's result replaces
    the device (kept as the function spelled it)."""
    device = ""
    for item in reversed(stack):
        if item == "":
            continue
        if item is None:
            break
        if isinstance(item, DeviceSpec):
            device = item.make_merged_spec(DeviceSpec.from_string(device)).to_string() if device \
                else item.to_string()
        else:
            chosen = item(op)
            spec = isinstance(chosen, (DeviceSpec, DeviceSpecV2))
            device = "" if chosen is None else chosen.to_string() if spec else chosen
    return device
