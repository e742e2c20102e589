"""The eager placer: which device an op runs on, and why.

TensorFlow's ``EagerContext::SelectDevice`` (research/tf-semantics.md §2): resource inputs pin
an op to the variable's device; otherwise the merged ``device()`` scope; no scope → the
highest-priority device type with a kernel, lowest-numbered device; a requested device that
lacks a kernel or does not exist is an error unless soft placement is on, which drops the
type and id and retries. Decisions are cached per (op, dtype, scope, soft) so the per-op path
is one dict lookup.
"""

from __future__ import annotations

from ...devices import names, spec as specs
from ...errors import InvalidArgumentError, NotFoundError
from ...trace import events as ev
from ..execution import op_error_suffix
from ..registry import not_allowed


def _matching(ctx, pattern, types):
    """Devices matching ``pattern`` whose type is in ``types``, in ``types`` priority order."""
    for t in types:
        for d in ctx.devices:
            if d.device_type == t and names.is_complete_specification(pattern, _spec_of(d)):
                return d
    return None


_SPEC_CACHE: dict = {}


def _spec_of(device):
    s = _SPEC_CACHE.get(device.name)
    if s is None:
        s = _SPEC_CACHE[device.name] = specs.DeviceSpec.from_string(device.name)
    return s


def place(ctx, opdef, dtype, name=None):
    """Return ``(device, reason)`` for an op with no resource input; raises TF's errors (``name``:
    the op's, which some of them end with).

    The executor looks the same key up itself before calling (one dict lookup per op)."""
    key = (opdef.name, dtype, ctx.scope, ctx.soft_placement)
    hit = ctx.placement_cache.get(key)
    if hit is None:
        if opdef.allowed is not None and dtype is not None and dtype.name not in opdef.allowed:
            raise not_allowed(opdef, dtype.name, op_error_suffix(ctx, opdef.name, name, ctx.trace._seq + 1))
        hit = ctx.placement_cache[key] = _decide(ctx, opdef, dtype.name if dtype is not None else None)
    return hit


def _not_found(opdef, dtype_name, compat):
    attrs = f"[T={dtype_name}]" if dtype_name else "[]"
    return NotFoundError(f"Could not find device for node: {{{{node {opdef.name}}}}} = {opdef.name}{attrs}\n"
                         f"All kernels registered for op {opdef.name}:\n{opdef.kernel_list(compat)} [Op:{opdef.name}]")


def _decide(ctx, opdef, dtype_name):
    compat = ctx.machine.compat
    types = opdef.supported_types(dtype_name, compat)
    if not types:
        raise _not_found(opdef, dtype_name, compat)
    has_gpu = any(d.device_type == "GPU" for d in ctx.devices)
    if not ctx.scope:
        device = _matching(ctx, specs.DeviceSpec(), types)
        if device is None:
            raise _not_found(opdef, dtype_name, compat)
        reason = ev.FALLBACK if has_gpu and device.device_type != "GPU" and "GPU" not in types else ev.DEFAULT
        return device, reason
    pattern = ctx.scope_spec
    if pattern is None:
        raise malformed(ctx.scope, opdef.name)
    device = _matching(ctx, pattern, types)
    if device is not None:
        return device, ctx.scope_reason
    exists = _matching(ctx, pattern, ("GPU", "CPU"))
    if ctx.soft_placement:
        device = _matching(ctx, pattern.replace(device_type=None, device_index=None), types)
        if device is not None:
            return device, (ev.FALLBACK if exists is not None else ev.SOFT)
    available = ", ".join(d.name for d in ctx.devices)
    supported = ", ".join(t for t in types if any(d.device_type == t for d in ctx.devices))  # this process's types
    raise InvalidArgumentError(
        f"Could not satisfy device specification '{ctx.scope}'. enable_soft_placement="
        f"{int(ctx.soft_placement)}. Supported device types [{supported}]. All available devices "
        f"[{available}].{'' if opdef.name == '_EagerConst' else f' [Op:{opdef.name}] name: '}")


def malformed(scope: str, op_name: str) -> InvalidArgumentError:
    """An eager op under a scope TensorFlow's C++ parser rejects (``/GPU:-1``, ``/job:my-job``)."""
    return InvalidArgumentError(f"Malformed device specification '{scope}' in eager op: Name: {op_name}\n"
                                f"Device Name: []\nDevice: []\nAttrs: goo.gle/debugproto   \n\n"
                                f"{'' if op_name == '_EagerConst' else ' name: '}")
