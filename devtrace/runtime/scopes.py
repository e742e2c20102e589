"""``device()`` scopes and the placement-log switch."""

from __future__ import annotations

from ..devices.device_spec import DeviceSpecV2
from ..devices.names import parse_full_name
from ..devices.spec import DeviceSpec
from . import threads
from .context import context
from .devices import LogicalDevice


_MERGED: dict = {}  # (outer, name) -> (merged name, its C++ parse): TensorFlow's _device_parsing_cache


def _merged(outer: str, name: str):
    """``name`` (TensorFlow's Python parser: its ``ValueError`` texts) merged onto ``outer``, and the
    merged name as an eager op's C++ parser reads it (``None``: malformed, each op raises)."""
    hit = _MERGED.get((outer, name))
    if hit is None:
        merged = DeviceSpecV2.from_string(outer).make_merged_spec(DeviceSpecV2.from_string(name)).to_string()
        if len(_MERGED) >= 4096:
            _MERGED.clear()
        hit = _MERGED[(outer, name)] = (merged, parse_full_name(merged))
    return hit


class device:  # noqa: N801 (TensorFlow's name)
    """``with devtrace.device('/GPU:1'):`` — nested scopes merge, inner fields win.

    The name is read by TensorFlow's Python parser (``tf.DeviceSpec``: its ``ValueError`` texts)
    and, as in TensorFlow's eager mode, merged onto the outer scope, or onto the host CPU's full
    name when there is none (so ``device('GPU:1')`` requests
    ``/job:localhost/replica:0/task:0/device:GPU:1``). Values Python does not check (``/GPU:-1``,
    ``/job:my-job``) fail when an op runs, as TensorFlow's C++ parser rejects them. ``device(None)``
    clears the scope and ``device('')`` inherits it (at top level: the host CPU's full name, an
    explicit ``CPU:0`` scope, as TensorFlow merges ``''`` onto its first device). In graph mode the scope is recorded on the
    default graph's nodes instead (TensorFlow's ``merge_device``), and the runtime is not initialised.
    """

    def __init__(self, name):
        if isinstance(name, LogicalDevice):
            name = name.name
        elif isinstance(name, (DeviceSpec, DeviceSpecV2)):
            name = name.to_string()
        if callable(name):
            raise RuntimeError("tf.device does not support functions.")
        self._name = name
        self._saved = None
        self._graph_scope = None

    def __enter__(self):
        ctx = context()
        if ctx.threaded and not threads.owned():  # the scope is this thread's (threads.py)
            return threads.locked(ctx, self.__enter__)
        name = self._name
        if not ctx.eager:
            self._graph_scope = ctx.graph_builder.device(name)
            self._graph_scope.__enter__()
            return None
        if name is not None and not isinstance(name, str):
            raise ValueError(f"Expecting a string device name. Got {type(name)}({name})")
        ctx.ensure_initialized("device() scope")
        self._saved = (ctx.scope, ctx.scope_spec)
        if name is None:
            ctx.scope, ctx.scope_spec = "", None
        else:
            ctx.scope, ctx.scope_spec = _merged(ctx.scope or ctx.host.name, name)
        return None

    def __exit__(self, *exc):
        if self._graph_scope is not None:
            scope, self._graph_scope = self._graph_scope, None
            return scope.__exit__(*exc)
        ctx = context()
        if ctx.threaded and not threads.owned():
            return threads.locked(ctx, self.__exit__, *exc)
        ctx.scope, ctx.scope_spec = self._saved
        return False


class device_v1(device):  # noqa: N801 (TensorFlow's name)
    """``tf.compat.v1.device``: in a graph it also takes a *device function*, called with each
    node created inside and returning its device."""

    def __init__(self, name_or_function):
        if callable(name_or_function):
            if context().eager:
                raise RuntimeError("tf.device does not support functions when eager execution is enabled.")
            self._name, self._saved, self._graph_scope = name_or_function, None, None
            return
        super().__init__(name_or_function)


def set_log_device_placement(enabled: bool) -> None:
    context().set_log_device_placement(enabled)


def get_log_device_placement() -> bool:
    return context().log_device_placement


def executing_eagerly() -> bool:
    return context().eager
