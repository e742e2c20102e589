"""Device names: parse, canonicalise, match and merge them as TensorFlow does.

A device name has five optional fields, written ``/job:J/replica:R/task:T/device:TYPE:ID``;
an unset field (``None`` here, ``*`` in a string) matches anything. Two parsers:

``DeviceSpec.from_string`` — what ``tf.device`` and ``tf.DeviceSpec`` accept. It takes the union
of TensorFlow's Python (``DeviceSpecV2``) and C++ (``DeviceNameUtils::ParseFullName``) grammars,
with the C++ checks on values:

* the string is split on ``/``; empty pieces are skipped (so ``GPU:1``, ``job:a/gpu:0``,
  ``/job:a//cpu:0`` and ``/`` parse, as in Python; C++ rejects ``//``);
* ``job:J`` — ``J`` is ``*`` (unset) or ``[A-Za-z][A-Za-z0-9_]*``;
* ``replica:R``, ``task:T`` — ``*`` or ASCII decimal digits (leading zeros allowed);
* ``device:TYPE:ID``, ``device:TYPE`` (no index, as in C++; Python rejects it) — ``TYPE`` is ``*``
  or ``[A-Za-z][A-Za-z0-9_]*``, ``ID`` is ``*`` or digits;
* legacy / bare / local ``TYPE:ID`` and ``TYPE`` where ``TYPE`` is, in any letter case, one of
  TensorFlow's built-in types CPU, GPU, TPU, CUSTOM, EPU (``/cpu:0``, ``/Gpu:1``, ``gpu``, ``tpu:0``);
* ``job``/``replica``/``task`` may repeat, the later one wins; a second device component
  (``/cpu:0/gpu:1``, also ``/gpu:0/gpu:1``) is an error, as in Python.

Letter case of the type: a legacy/bare type is upper-cased whatever its case (TF Python); a
``device:`` type or a ``DeviceSpec(device_type=…)`` is upper-cased only when it is exactly
``cpu`` or ``gpu`` (``/device:Cpu:0`` keeps ``Cpu``, as observed in TensorFlow 2.21).

``parse_full_or_local_name`` — the stricter C++ ``ParseFullOrLocalName`` that
``get_memory_info`` uses: no bare types, no empty pieces, and the ``/device:`` type keeps its
case (``gpu:1`` is type ``gpu``, which matches no device).

Canonical form (``to_string``): set fields only, in the order job, replica, task, device, with
``/device:TYPE:*`` for a type without an index and ``/device:*:ID`` for an index without a type.

Imports only the standard library and :mod:`devtrace.errors` (the CLI start-up path uses it).
"""

from __future__ import annotations

import operator
import re

from ..errors import DeviceSpecError, InvalidArgumentError

__all__ = [
    "DeviceSpec",
    "merge_device_names",
    "merge_override_device_names",
    "merge_unset_device_names",
    "is_specification",
    "is_complete_specification",
    "are_compatible",
    "parse_full_or_local_name",
    "full_name",
    "legacy_name",
]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_DIGITS = re.compile(r"[0-9]+")
# Types the legacy/bare forms accept (TF Python's built-in list; its physical types add none here).
_LEGACY_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})
_FIELDS = ("job", "replica", "task", "device_type", "device_index")

_CACHE: dict = {}
_CACHE_MAX = 8192

_new = object.__new__
_set = object.__setattr__


def _describe(value) -> str:
    return f"{type(value).__name__}({value!r})"


def _check_name(what: str, value, label: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise DeviceSpecError(f"DeviceSpec {what} must be a str or None. Got {_describe(value)}")
    if not _NAME.fullmatch(value):
        raise DeviceSpecError(f"Invalid {label} {value!r}: expected a letter followed by letters, digits or '_'.")
    return value


def _check_number(what: str, value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise DeviceSpecError(f"DeviceSpec {what} must be an int or None. Got {_describe(value)}")
    try:
        number = operator.index(value)
    except TypeError:
        raise DeviceSpecError(f"DeviceSpec {what} must be an int or None. Got {_describe(value)}") from None
    if number < 0:
        raise DeviceSpecError(f"Invalid {what} {number}: must not be negative.")
    return number


def _check_type(value) -> str | None:
    value = _check_name("device_type", value, "device type")
    return value.upper() if value in ("cpu", "gpu") else value


_CHECKS = {
    "job": lambda v: _check_name("job", v, "job name"),
    "replica": lambda v: _check_number("replica", v),
    "task": lambda v: _check_number("task", v),
    "device_type": _check_type,
    "device_index": lambda v: _check_number("device_index", v),
}


def _raw(job, replica, task, device_type, device_index) -> "DeviceSpec":
    """A DeviceSpec from already-valid fields (no checks, no case mapping)."""
    spec = _new(DeviceSpec)
    _set(spec, "job", job)
    _set(spec, "replica", replica)
    _set(spec, "task", task)
    _set(spec, "device_type", device_type)
    _set(spec, "device_index", device_index)
    _set(spec, "_str", None)
    _set(spec, "_hash", None)
    return spec


class DeviceSpec:
    """An immutable, hashable device name; ``None`` fields are unset (``*``).

    ``DeviceSpec(job=None, replica=None, task=None, device_type=None, device_index=None)``
    checks its arguments (``DeviceSpecError``, a ``ValueError``): ``job`` and ``device_type``
    are ``str`` matching ``[A-Za-z][A-Za-z0-9_]*``; ``replica``, ``task`` and ``device_index``
    are non-negative ``int`` (``bool`` is refused). ``device_type`` is upper-cased when it is
    exactly ``"cpu"`` or ``"gpu"`` — TensorFlow's rule for the constructor and for ``/device:``;
    ``"Cpu"`` stays ``"Cpu"`` (only the legacy/bare string forms such as ``/Cpu:0`` or ``cpu``
    are upper-cased whatever their case, see :meth:`from_string`).
    """

    __slots__ = ("job", "replica", "task", "device_type", "device_index", "_str", "_hash")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        _set(self, "job", _check_name("job", job, "job name"))
        _set(self, "replica", _check_number("replica", replica))
        _set(self, "task", _check_number("task", task))
        _set(self, "device_type", _check_type(device_type))
        _set(self, "device_index", _check_number("device_index", device_index))
        _set(self, "_str", None)
        _set(self, "_hash", None)

    # -- parsing ---------------------------------------------------------------------------

    @classmethod
    def from_string(cls, spec) -> "DeviceSpec":
        """Parse any device string TensorFlow accepts (see the module docstring).

        ``None`` and ``""`` give the empty spec (as ``tf.DeviceSpec.from_string``); a
        ``DeviceSpec`` is returned as is; anything else that is not a ``str``, and every
        malformed string, raises ``DeviceSpecError`` naming the string. Results are cached.
        """
        try:
            hit = _CACHE.get(spec)
        except TypeError:  # unhashable input
            hit = None
        if hit is not None:
            return hit
        if isinstance(spec, DeviceSpec):
            return spec
        if spec is None:
            spec = ""
        if not isinstance(spec, str):
            raise DeviceSpecError(f"Expecting a string device name. Got {_describe(spec)}")
        parsed = _parse(spec)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[spec] = parsed
        return parsed

    # -- output ----------------------------------------------------------------------------

    def to_string(self) -> str:
        """Canonical name: ``/job:J/replica:R/task:T/device:TYPE:ID`` with only set fields."""
        s = self._str
        if s is None:
            parts = []
            if self.job is not None:
                parts.append("/job:" + self.job)
            if self.replica is not None:
                parts.append(f"/replica:{self.replica}")
            if self.task is not None:
                parts.append(f"/task:{self.task}")
            if self.device_type is not None or self.device_index is not None:
                index = "*" if self.device_index is None else str(self.device_index)
                parts.append(f"/device:{self.device_type or '*'}:{index}")
            s = "".join(parts)
            _set(self, "_str", s)
        return s

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"DeviceSpec({self.to_string()!r})"

    def as_dict(self) -> dict:
        """JSON-ready fields plus the ``canonical`` string."""
        return {"job": self.job, "replica": self.replica, "task": self.task, "device_type": self.device_type,
                "device_index": self.device_index, "canonical": self.to_string()}

    # -- derived specs ---------------------------------------------------------------------

    def make_merged_spec(self, other) -> "DeviceSpec":
        """A new spec: this one's fields, overridden by every field set in ``other``
        (a ``DeviceSpec`` or a device string). Never fails on conflicts (``tf.DeviceSpec``)."""
        if not isinstance(other, DeviceSpec):
            other = DeviceSpec.from_string(other)
        return _raw(self.job if other.job is None else other.job,
                    self.replica if other.replica is None else other.replica,
                    self.task if other.task is None else other.task,
                    self.device_type if other.device_type is None else other.device_type,
                    self.device_index if other.device_index is None else other.device_index)

    def replace(self, **fields) -> "DeviceSpec":
        """A copy with some fields changed (``None`` unsets); new values are checked."""
        values = [self.job, self.replica, self.task, self.device_type, self.device_index]
        for name, value in fields.items():
            check = _CHECKS.get(name)
            if check is None:
                raise TypeError(f"DeviceSpec.replace() got an unexpected field {name!r}; fields are "
                                f"{', '.join(_FIELDS)}")
            values[_FIELDS.index(name)] = check(value)
        return _raw(*values)

    @property
    def is_empty(self) -> bool:
        """True when no field is set (the spec ``""`` matches every device)."""
        return (self.job is None and self.replica is None and self.task is None
                and self.device_type is None and self.device_index is None)

    # -- identity --------------------------------------------------------------------------

    def _key(self) -> tuple:
        return (self.job, self.replica, self.task, self.device_type, self.device_index)

    def __eq__(self, other):
        if not isinstance(other, DeviceSpec):
            return NotImplemented
        return (self.job == other.job and self.replica == other.replica and self.task == other.task
                and self.device_type == other.device_type and self.device_index == other.device_index)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            _set(self, "_hash", h)
        return h

    def __setattr__(self, name, value):
        raise AttributeError(f"DeviceSpec is immutable; use .replace({name}=...) for a changed copy")

    def __delattr__(self, name):
        raise AttributeError("DeviceSpec is immutable")

    def __reduce__(self):
        return (_raw, self._key())

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


# -- the tf.DeviceSpec-style parser ---------------------------------------------------------

def _show(text: str) -> str:
    """``text`` with unprintable characters escaped, so an error stays on one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _fail(what: str, spec: str) -> DeviceSpecError:
    return DeviceSpecError(f"{_show(what)} while parsing the device spec: '{_show(spec)}'.")


def _number(what: str, value: str, spec: str) -> int | None:
    if value == "*":
        return None
    if _DIGITS.fullmatch(value):
        try:
            return int(value)
        except ValueError:  # more digits than int() converts
            pass
    raise _fail(f"Invalid {what} '{value}'", spec)


def _type_name(value: str, spec: str) -> str | None:
    if value == "*":
        return None
    if not _NAME.fullmatch(value):
        raise _fail(f"Invalid device type '{value}'", spec)
    return value.upper() if value in ("cpu", "gpu") else value


def _parse(spec: str) -> DeviceSpec:
    job = replica = task = device_type = device_index = None
    seen_device = False
    for piece in spec.split("/"):
        if not piece:
            continue
        key, _, rest = piece.partition(":")
        if key == "job":
            if rest == "*":
                job = None
            elif _NAME.fullmatch(rest):
                job = rest
            else:
                raise _fail(f"Invalid job name '{rest}'", spec)
        elif key == "replica":
            replica = _number("replica", rest, spec)
        elif key == "task":
            task = _number("task", rest, spec)
        elif key == "device" or key.upper() in _LEGACY_TYPES:
            if seen_device:
                raise _fail("Multiple device types are not allowed", spec)
            seen_device = True
            if key == "device":
                name, colon, index = rest.partition(":")
                device_type = _type_name(name, spec)
            else:
                device_type, colon, index = key.upper(), ":" in piece, rest
            device_index = _number("device index", index, spec) if colon else None
        else:
            raise _fail(f"Unknown attribute '{key}' is encountered", spec)
    return _raw(job, replica, task, device_type, device_index)


# -- TensorFlow C++ DeviceNameUtils --------------------------------------------------------

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


def is_complete_specification(pattern: DeviceSpec, name: DeviceSpec) -> bool:
    """C++ ``IsCompleteSpecification``: does device ``name`` (fully specified) match ``pattern``?

    Every field set in ``pattern`` must equal ``name``'s. ``name`` is not checked for being
    complete (C++ CHECK-fails); a field unset in ``name`` never equals a set pattern field.
    """
    return ((pattern.job is None or pattern.job == name.job)
            and (pattern.replica is None or pattern.replica == name.replica)
            and (pattern.task is None or pattern.task == name.task)
            and (pattern.device_type is None or pattern.device_type == name.device_type)
            and (pattern.device_index is None or pattern.device_index == name.device_index))


def are_compatible(a: DeviceSpec, b: DeviceSpec) -> bool:
    """C++ ``AreCompatibleDevNames``: no field is set in both with different values."""
    for x, y in zip(a._key(), b._key()):
        if x is not None and y is not None and x != y:
            return False
    return True


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
