"""TensorFlow's C++ ``DeviceNameUtils`` over :class:`~devtrace.devices.spec.DeviceSpec`: the
strict ``ParseFullOrLocalName`` parser, matching (``IsSpecification``), compatibility, the three
merges, and canonical and legacy names.

``parse_full_or_local_name`` is what ``get_memory_info`` uses: no bare types, no empty pieces,
and the ``/device:`` type keeps its case (``gpu:1`` is type ``gpu``, which matches no device).
"""

from __future__ import annotations

from ..errors import DeviceSpecError, InvalidArgumentError
from .spec import _DIGITS, _NAME, DeviceSpec, _raw

def _cpp_name(s: str, pos: int, terminators: str):
    """C++ ``ConsumePrefix``: a letter, then ``[A-Za-z0-9_]`` up to a terminator or the end."""
    end = pos
    n = len(s)
    while end < n and s[end] not in terminators:
        end += 1
    token = s[pos:end]
    if not _NAME.fullmatch(token):
        return None, pos
    return token, end


def _cpp_number(s: str, pos: int):
    """C++ ``ConsumeLeadingDigits``: one or more leading ASCII digits."""
    m = _DIGITS.match(s, pos)
    if m is None:
        return None, pos
    return int(m.group()), m.end()


_UNSET = object()


def _star_or(s: str, pos: int, parse):
    """``*`` (unset) or what ``parse`` reads at ``pos``: ``(value, new pos)``, or ``_UNSET`` on failure."""
    if s.startswith("*", pos):
        return None, pos + 1
    value, end = parse(s, pos)
    return (_UNSET, pos) if value is None else (value, end)


def _job(s, pos):
    return _cpp_name(s, pos, "/")


def _type(s, pos):
    return _cpp_name(s, pos, "/:")


def _parse_full_name(s: str) -> DeviceSpec | None:
    """C++ ``DeviceNameUtils::ParseFullName``; ``None`` when it fails.

    Each pass tries every component once, in C++'s order; a pass that consumes nothing fails,
    so components may come in any order and repeat (the later one wins).
    """
    fields = {"job": None, "replica": None, "task": None, "device_type": None, "device_index": None}
    if s == "/":
        return _raw(None, None, None, None, None)
    pos, n = 0, len(s)
    while pos < n:
        start = pos
        for prefix, key, parse in (("/job:", "job", _job), ("/replica:", "replica", _cpp_number),
                                   ("/task:", "task", _cpp_number)):
            if s.startswith(prefix, pos):
                fields[key], pos = _star_or(s, pos + len(prefix), parse)
                if fields[key] is _UNSET:
                    return None
        if s.startswith("/device:", pos):
            fields["device_type"], pos = _star_or(s, pos + 8, _type)
            fields["device_index"] = None
            if fields["device_type"] is _UNSET:
                return None
            if s.startswith(":", pos):  # /device:GPU (no id) means any GPU
                fields["device_index"], pos = _star_or(s, pos + 1, _cpp_number)
        for lower, upper in (("/cpu:", "/CPU:"), ("/gpu:", "/GPU:")):
            if s.startswith(lower, pos) or s.startswith(upper, pos):
                fields["device_type"] = upper[1:4]
                fields["device_index"], pos = _star_or(s, pos + 5, _cpp_number)
        if fields["device_index"] is _UNSET or pos == start:
            return None
    return _raw(fields["job"], fields["replica"], fields["task"], fields["device_type"], fields["device_index"])


def _parse_local_name(s: str) -> DeviceSpec | None:
    """C++ ``DeviceNameUtils::ParseLocalName``: exactly ``TYPE:ID``, type case kept."""
    device_type, pos = _cpp_name(s, 0, "/:")
    if device_type is None or not s.startswith(":", pos):
        return None
    m = _DIGITS.fullmatch(s, pos + 1)
    if m is None:
        return None
    return _raw(None, None, None, device_type, int(m.group()))


def parse_full_name(s: str) -> DeviceSpec | None:
    """C++ ``ParseFullName`` (how an eager op reads its device string): ``None`` when malformed
    (``/device:CPU:-1``, ``/job:1``, ``/job:my-job``)."""
    try:
        return _parse_full_name(s)
    except ValueError:  # a number with more digits than int() converts
        return None


def parse_full_or_local_name(s) -> DeviceSpec | None:
    """C++ ``ParseFullOrLocalName`` (used by ``get_memory_info``): ``None`` when ``s`` is
    neither a full name nor exactly ``TYPE:ID``. Stricter than :meth:`DeviceSpec.from_string`:
    no bare ``GPU``, no ``//``, and the type keeps its case (``gpu:1`` → type ``gpu``)."""
    if not isinstance(s, str):
        return None
    try:
        return _parse_full_name(s) or _parse_local_name(s)
    except ValueError:  # a number with more digits than int() converts
        return None


def _as_spec(value) -> DeviceSpec:
    return value if isinstance(value, DeviceSpec) else DeviceSpec.from_string(value)


def _merge(target, other, soft: bool, override: bool) -> DeviceSpec:
    """C++ ``MergeDevNamesImpl``; conflicts raise ``InvalidArgumentError`` unless ``soft``."""
    t = list(_as_spec(target)._key())
    o = _as_spec(other)
    ov = o._key()
    for i, plural in ((0, "jobs"), (1, "replicas"), (2, "tasks")):
        if ov[i] is not None:
            if t[i] is not None and t[i] != ov[i]:
                raise InvalidArgumentError(f"Cannot merge devices with incompatible {plural}: "
                                           f"'{_raw(*t).to_string()}' and '{o.to_string()}'")
            t[i] = ov[i]
    for i, plural in ((3, "types"), (4, "ids")):
        if ov[i] is not None:
            if t[i] is not None and t[i] != ov[i]:
                if not soft:
                    raise InvalidArgumentError(f"Cannot merge devices with incompatible {plural}: "
                                               f"'{_raw(*t).to_string()}' and '{o.to_string()}'")
                if override:
                    t[i] = ov[i]
                else:
                    t[4] = None
                    if i == 3:
                        t[3] = None
                    return _raw(*t)
            else:
                t[i] = ov[i]
    return _raw(*t)


def merge_device_names(target, other, allow_soft_placement: bool = False) -> DeviceSpec:
    """C++ ``MergeDevNames``: ``other``'s set fields fill ``target``'s.

    A conflicting job, replica or task always raises ``InvalidArgumentError``
    (``Cannot merge devices with incompatible jobs: '<t>' and '<o>'``). A conflicting type or
    id raises too, unless ``allow_soft_placement``: then a type conflict clears type and id,
    an id conflict clears the id, and the merge stops there.
    """
    return _merge(target, other, allow_soft_placement, False)


def merge_override_device_names(target, other) -> DeviceSpec:
    """C++ ``MergeOverrideDevNames``: a soft merge where ``other`` wins type/id conflicts
    (job/replica/task conflicts still raise)."""
    return _merge(target, other, True, True)


def merge_unset_device_names(target, other) -> DeviceSpec:
    """C++ ``MergeUnsetDevNames``: ``other`` only fills the fields unset in ``target``."""
    t = _as_spec(target)
    o = _as_spec(other)
    return _raw(*(tv if tv is not None else ov for tv, ov in zip(t._key(), o._key())))


def is_specification(less: DeviceSpec, more: DeviceSpec) -> bool:
    """C++ ``IsSpecification``: every field set in ``less`` is set in ``more`` and equal."""
    return ((less.job is None or less.job == more.job)
            and (less.replica is None or less.replica == more.replica)
            and (less.task is None or less.task == more.task)
            and (less.device_type is None or less.device_type == more.device_type)
            and (less.device_index is None or less.device_index == more.device_index))


# C++ ``IsCompleteSpecification`` (does a fully specified device name match a pattern?) has the
# same body: C++ only adds a CHECK that the name is complete, and an unset field of the name
# never equals a set field of the pattern anyway.
is_complete_specification = is_specification


def are_compatible(a: DeviceSpec, b: DeviceSpec) -> bool:
    """C++ ``AreCompatibleDevNames``: no field is set in both with different values."""
    for x, y in zip(a._key(), b._key()):
        if x is not None and y is not None and x != y:
            return False
    return True


LOCAL_TASK = "/job:localhost/replica:0/task:0"


def full_name(device_type: str, index: int) -> str:
    """``/job:localhost/replica:0/task:0/device:{device_type}:{index}``."""
    return f"/job:localhost/replica:0/task:0/device:{device_type}:{index}"


def legacy_name(full) -> str:
    """TF1's legacy spelling of a device name (C++ ``LegacyName``):
    ``/job:localhost/replica:0/task:0/device:GPU:0`` → ``/job:localhost/replica:0/task:0/gpu:0``.

    ``full`` is a string or ``DeviceSpec`` with a type and an index; its job, replica and task
    are kept as given (unset ones are left out).
    """
    spec = _as_spec(full)
    if spec.device_type is None or spec.device_index is None:
        raise DeviceSpecError(f"Cannot make a legacy device name from '{spec.to_string()}': "
                              f"it needs a device type and an index.")
    head = spec.replace(device_type=None, device_index=None).to_string()
    return f"{head}/{spec.device_type.lower()}:{spec.device_index}"
