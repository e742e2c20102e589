"""Device names: ``devtrace.devices.spec`` against TensorFlow's C++ and Python parsers."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devtrace.devices.names import (
    are_compatible,
    full_name,
    is_complete_specification,
    is_specification,
    legacy_name,
    merge_device_names,
    merge_override_device_names,
    merge_unset_device_names,
    parse_full_or_local_name,
)
from devtrace.devices.spec import DeviceSpec
from devtrace.errors import DeviceSpecError, InvalidArgumentError, UsageError

FULL = "/job:localhost/replica:0/task:0/device:GPU:1"

# -- from_string: every accepted form -------------------------------------------------------

ACCEPTED = [
    # full and partial
    (FULL, FULL),
    ("/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0"),
    ("/job:worker", "/job:worker"),
    ("/replica:1", "/replica:1"),
    ("/task:3", "/task:3"),
    ("/job:worker/task:2", "/job:worker/task:2"),
    ("/job:w_1/replica:007", "/job:w_1/replica:7"),
    # any order, repeats (later wins), '*' = unset
    ("/job:foo/cpu:1/task:2/replica:1", "/job:foo/replica:1/task:2/device:CPU:1"),
    ("/gpu:*/job:*/replica:4", "/replica:4/device:GPU:*"),
    ("/job:w/job:v", "/job:v"),
    ("/replica:1/replica:2/task:1/task:*", "/replica:2"),
    ("/job:*/replica:*/task:*/device:*:*", ""),
    ("/job:*", ""),
    ("/device:*", ""),
    ("/device:*:1", "/device:*:1"),
    # legacy
    ("/cpu:0", "/device:CPU:0"),
    ("/CPU:0", "/device:CPU:0"),
    ("/Cpu:0", "/device:CPU:0"),
    ("/GPU:1", "/device:GPU:1"),
    ("/gpu:*", "/device:GPU:*"),
    ("/GPU:01", "/device:GPU:1"),
    ("/tpu:0", "/device:TPU:0"),
    ("/custom:2", "/device:CUSTOM:2"),
    ("/epu:0", "/device:EPU:0"),
    # local and bare
    ("GPU:1", "/device:GPU:1"),
    ("gpu:1", "/device:GPU:1"),
    ("Gpu:1", "/device:GPU:1"),
    ("CPU:0", "/device:CPU:0"),
    ("cpu:0", "/device:CPU:0"),
    ("GPU", "/device:GPU:*"),
    ("cpu", "/device:CPU:*"),
    ("/gpu", "/device:GPU:*"),
    ("GPU:*", "/device:GPU:*"),
    ("job:a/gpu:0", "/job:a/device:GPU:0"),
    # /device: forms
    ("/device:GPU", "/device:GPU:*"),
    ("/device:GPU:0", "/device:GPU:0"),
    ("device:CPU:*", "/device:CPU:*"),
    ("/device:gpu:0", "/device:GPU:0"),
    ("/device:cpu", "/device:CPU:*"),
    ("/device:Cpu:0", "/device:Cpu:0"),  # only exactly cpu/gpu are upper-cased (TF 2.21)
    ("/device:tpu:0", "/device:tpu:0"),
    ("/device:XLA_GPU:3", "/device:XLA_GPU:3"),
    ("/job:w/device:GPU/replica:2", "/job:w/replica:2/device:GPU:*"),
    # empty and slash oddities (empty pieces are skipped, as in TF Python)
    ("", ""),
    ("/", ""),
    ("//", ""),
    ("/job:a//cpu:0", "/job:a/device:CPU:0"),
    ("/job:a/", "/job:a"),
    ("//gpu:1//", "/device:GPU:1"),
]


@pytest.mark.parametrize("text,canonical", ACCEPTED)
def test_from_string_canonical(text, canonical):
    spec = DeviceSpec.from_string(text)
    assert spec.to_string() == canonical
    assert str(spec) == canonical
    assert DeviceSpec.from_string(canonical) == spec


def test_from_string_fields():
    spec = DeviceSpec.from_string("/job:localhost/replica:0/task:0/device:GPU:1")
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == ("localhost", 0, 0, "GPU", 1)
    bare = DeviceSpec.from_string("/gpu")
    assert (bare.job, bare.replica, bare.task, bare.device_type, bare.device_index) == (None, None, None, "GPU", None)
    index_only = DeviceSpec.from_string("/device:*:3")
    assert (index_only.device_type, index_only.device_index) == (None, 3)


def test_from_string_none_and_spec_passthrough():
    assert DeviceSpec.from_string(None) == DeviceSpec()
    spec = DeviceSpec(device_type="GPU", device_index=0)
    assert DeviceSpec.from_string(spec) is spec


def test_from_string_is_cached():
    assert DeviceSpec.from_string("/job:cache_me/gpu:3") is DeviceSpec.from_string("/job:cache_me/gpu:3")


# -- from_string: malformed strings ---------------------------------------------------------

REJECTED = [
    ("/job:", "Invalid job name ''"),
    ("/job", "Invalid job name ''"),
    ("/job:1x", "Invalid job name '1x'"),
    ("/job:1abc", "Invalid job name '1abc'"),
    ("/job:a-b", "Invalid job name 'a-b'"),
    ("/job:a.b", "Invalid job name 'a.b'"),
    ("/job:a:b", "Invalid job name 'a:b'"),
    ("/job:**", "Invalid job name '**'"),
    ("/replica:x", "Invalid replica 'x'"),
    ("/replica:1x", "Invalid replica '1x'"),
    ("/replica:-1", "Invalid replica '-1'"),
    ("/replica:", "Invalid replica ''"),
    ("/replica:+1", "Invalid replica '+1'"),
    ("/replica:1_0", "Invalid replica '1_0'"),
    ("/replica: 1", "Invalid replica ' 1'"),
    ("/replica:\u0661", "Invalid replica '\u0661'"),  # non-ASCII digit: int() would take it
    ("/task:*x", "Invalid task '*x'"),
    ("/task:1:2", "Invalid task '1:2'"),
    ("/GPU:-1", "Invalid device index '-1'"),
    ("/gpu:", "Invalid device index ''"),
    ("/cpu:x", "Invalid device index 'x'"),
    ("GPU:0:1", "Invalid device index '0:1'"),
    ("/device:GPU:", "Invalid device index ''"),
    ("/device:GPU:-1", "Invalid device index '-1'"),
    ("/device:GPU:0:1", "Invalid device index '0:1'"),
    ("/device:", "Invalid device type ''"),
    ("device", "Invalid device type ''"),
    ("/device:1GPU:0", "Invalid device type '1GPU'"),
    ("/device:G-PU:0", "Invalid device type 'G-PU'"),
    ("/cpu:0/gpu:1", "Multiple device types are not allowed"),
    ("/gpu:0/gpu:1", "Multiple device types are not allowed"),
    ("/device:GPU:0/cpu:0", "Multiple device types are not allowed"),
    ("/device:*/device:*", "Multiple device types are not allowed"),
    ("GPU/CPU", "Multiple device types are not allowed"),
    ("/foo:bar", "Unknown attribute 'foo' is encountered"),
    ("/xla_gpu:0", "Unknown attribute 'xla_gpu' is encountered"),
    ("/JOB:a", "Unknown attribute 'JOB' is encountered"),
    ("/Device:GPU:0", "Unknown attribute 'Device' is encountered"),
    (" GPU:0", "Unknown attribute ' GPU' is encountered"),
    ("/:0", "Unknown attribute '' is encountered"),
    ("*", "Unknown attribute '*' is encountered"),
    ("*:1", "Unknown attribute '*' is encountered"),
    ("localhost", "Unknown attribute 'localhost' is encountered"),
]


@pytest.mark.parametrize("text,what", REJECTED)
def test_from_string_rejects(text, what):
    with pytest.raises(DeviceSpecError) as info:
        DeviceSpec.from_string(text)
    assert str(info.value) == f"{what} while parsing the device spec: '{text}'."
    assert "\n" not in str(info.value)


def test_error_is_a_value_error_and_a_usage_error():
    with pytest.raises(ValueError):
        DeviceSpec.from_string("/foo:bar")
    assert issubclass(DeviceSpecError, UsageError)
    assert DeviceSpecError.exit_code == 2


def test_error_stays_on_one_line():
    with pytest.raises(DeviceSpecError) as info:
        DeviceSpec.from_string("/job:a\nb")
    assert str(info.value) == "Invalid job name 'a\\nb' while parsing the device spec: '/job:a\\nb'."


def test_error_for_a_huge_number():
    with pytest.raises(DeviceSpecError, match="^Invalid replica '9+' while parsing"):
        DeviceSpec.from_string("/replica:" + "9" * 5000)


@pytest.mark.parametrize("value,message", [
    (3, "Expecting a string device name. Got int(3)"),
    (b"/cpu:0", "Expecting a string device name. Got bytes(b'/cpu:0')"),
    (["GPU"], "Expecting a string device name. Got list(['GPU'])"),
])
def test_from_string_non_str(value, message):
    with pytest.raises(DeviceSpecError) as info:
        DeviceSpec.from_string(value)
    assert str(info.value) == message


# -- the constructor and the value object --------------------------------------------------

def test_constructor_case_rule():
    assert DeviceSpec(device_type="gpu").device_type == "GPU"
    assert DeviceSpec(device_type="cpu").device_type == "CPU"
    assert DeviceSpec(device_type="Cpu").device_type == "Cpu"
    assert DeviceSpec(device_type="tpu").device_type == "tpu"


@pytest.mark.parametrize("kwargs,message", [
    ({"job": 1}, "DeviceSpec job must be a str or None. Got int(1)"),
    ({"job": "1x"}, "Invalid job name '1x': expected a letter followed by letters, digits or '_'."),
    ({"replica": "0"}, "DeviceSpec replica must be an int or None. Got str('0')"),
    ({"task": 1.0}, "DeviceSpec task must be an int or None. Got float(1.0)"),
    ({"device_index": True}, "DeviceSpec device_index must be an int or None. Got bool(True)"),
    ({"device_index": -1}, "Invalid device_index -1: must not be negative."),
    ({"device_type": "GPU:0"}, "Invalid device type 'GPU:0': expected a letter followed by letters, digits or '_'."),
    ({"device_type": "*"}, "Invalid device type '*': expected a letter followed by letters, digits or '_'."),
])
def test_constructor_validates(kwargs, message):
    with pytest.raises(DeviceSpecError) as info:
        DeviceSpec(**kwargs)
    assert str(info.value) == message


def test_value_semantics():
    a = DeviceSpec(job="localhost", replica=0, task=0, device_type="GPU", device_index=1)
    b = DeviceSpec.from_string(FULL)
    assert a == b and hash(a) == hash(b) and not (a != b)
    assert a != DeviceSpec.from_string("/device:GPU:1")
    assert a != FULL  # no comparison with strings (as tf.DeviceSpec)
    assert {a, b} == {a}
    assert repr(a) == f"DeviceSpec('{FULL}')"
    assert repr(DeviceSpec()) == "DeviceSpec('')"
    with pytest.raises(AttributeError):
        a.job = "x"
    with pytest.raises(AttributeError):
        del a.job
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.copy(a) is a and copy.deepcopy(a) is a
    assert bool(DeviceSpec())  # an empty spec is still truthy; use is_empty


def test_is_empty_and_as_dict():
    assert DeviceSpec().is_empty
    assert DeviceSpec.from_string("/job:*/gpu:*").is_empty is False
    assert DeviceSpec.from_string("gpu:1").as_dict() == {
        "job": None, "replica": None, "task": None, "device_type": "GPU", "device_index": 1,
        "canonical": "/device:GPU:1"}


def test_make_merged_spec():
    outer = DeviceSpec.from_string("/job:localhost/replica:0/task:0/device:CPU:0")
    assert outer.make_merged_spec("GPU:1").to_string() == FULL
    assert outer.make_merged_spec(DeviceSpec(job="worker")).to_string() == "/job:worker/replica:0/task:0/device:CPU:0"
    assert outer.make_merged_spec("/gpu:*").to_string() == "/job:localhost/replica:0/task:0/device:GPU:0"
    assert outer.make_merged_spec("") == outer
    assert DeviceSpec().make_merged_spec("/device:*:2").to_string() == "/device:*:2"


def test_replace():
    spec = DeviceSpec.from_string(FULL)
    assert spec.replace(device_type=None, device_index=None).to_string() == "/job:localhost/replica:0/task:0"
    assert spec.replace(device_type="cpu", device_index=0).to_string() == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert spec.replace() == spec
    with pytest.raises(TypeError, match="unexpected field 'index'"):
        spec.replace(index=1)
    with pytest.raises(DeviceSpecError):
        spec.replace(task=-1)


# -- merge_device_names (C++ MergeDevNames) -------------------------------------------------

MERGES = [
    ("/device:GPU:1", "/gpu:*", False, "/device:GPU:1"),
    ("/job:a", "/replica:1/gpu:0", False, "/job:a/replica:1/device:GPU:0"),
    ("/job:a/task:1", "/job:a", False, "/job:a/task:1"),
    ("", "/job:a/cpu:0", False, "/job:a/device:CPU:0"),
    ("/gpu:*", "/cpu:1", True, ""),
    ("/job:a/gpu:0", "/cpu:1", True, "/job:a"),
    ("/device:GPU:1", "/device:GPU:2", True, "/device:GPU:*"),
    ("/device:GPU:1", "/device:GPU:1", True, "/device:GPU:1"),
]


@pytest.mark.parametrize("target,other,soft,expected", MERGES)
def test_merge_device_names(target, other, soft, expected):
    merged = merge_device_names(DeviceSpec.from_string(target), DeviceSpec.from_string(other), soft)
    assert merged.to_string() == expected


MERGE_ERRORS = [
    ("/job:a", "/job:b", True, "Cannot merge devices with incompatible jobs: '/job:a' and '/job:b'"),
    ("/job:a/replica:1", "/job:a/replica:2", True,
     "Cannot merge devices with incompatible replicas: '/job:a/replica:1' and '/job:a/replica:2'"),
    ("/task:1", "/replica:3/task:2", True,
     "Cannot merge devices with incompatible tasks: '/replica:3/task:1' and '/replica:3/task:2'"),
    ("/gpu:*", "/cpu:1", False, "Cannot merge devices with incompatible types: '/device:GPU:*' and '/device:CPU:1'"),
    ("/device:GPU:1", "/device:GPU:2", False,
     "Cannot merge devices with incompatible ids: '/device:GPU:1' and '/device:GPU:2'"),
]


@pytest.mark.parametrize("target,other,soft,message", MERGE_ERRORS)
def test_merge_device_names_errors(target, other, soft, message):
    with pytest.raises(InvalidArgumentError) as info:
        merge_device_names(DeviceSpec.from_string(target), DeviceSpec.from_string(other), soft)
    assert str(info.value) == message


def test_merge_variants_and_inputs_unchanged():
    target = DeviceSpec.from_string("/job:a/gpu:0")
    assert merge_override_device_names(target, "/cpu:1").to_string() == "/job:a/device:CPU:1"
    assert merge_override_device_names("/gpu:0", "/gpu:3").to_string() == "/device:GPU:3"
    assert merge_unset_device_names(target, "/job:b/replica:2/cpu:1").to_string() == "/job:a/replica:2/device:GPU:0"
    merge_device_names(target, "/cpu:1", allow_soft_placement=True)
    assert target.to_string() == "/job:a/device:GPU:0"


# -- matching predicates --------------------------------------------------------------------

def test_is_complete_specification():
    device = DeviceSpec.from_string(FULL)
    for pattern, ok in [("", True), ("GPU", True), ("/gpu:1", True), ("/gpu:0", False), ("CPU:1", False),
                        ("/job:localhost/device:*:1", True), ("/job:worker", False), ("/replica:0/task:0", True),
                        ("/device:gpu:1", True), ("/device:Gpu:1", False)]:
        assert is_complete_specification(DeviceSpec.from_string(pattern), device) is ok, pattern
    assert is_specification(DeviceSpec.from_string("/gpu:1"), DeviceSpec.from_string("/job:a/gpu:1"))
    assert not is_specification(DeviceSpec.from_string("/job:a/gpu:1"), DeviceSpec.from_string("/gpu:1"))


def test_are_compatible():
    s = DeviceSpec.from_string
    assert are_compatible(s("/job:a/gpu:1"), s("/replica:0/device:GPU"))
    assert are_compatible(s(""), s(FULL))
    assert not are_compatible(s("/job:a"), s("/job:b"))
    assert not are_compatible(s("GPU:0"), s("GPU:1"))
    assert not are_compatible(s("GPU"), s("CPU"))


# -- parse_full_or_local_name (C++ ParseFullOrLocalName) ------------------------------------

STRICT = [
    (FULL, FULL),
    ("/job:foo/cpu:1/task:2/replica:1", "/job:foo/replica:1/task:2/device:CPU:1"),
    ("/gpu:*/job:*/replica:4", "/replica:4/device:GPU:*"),
    ("/device:GPU", "/device:GPU:*"),
    ("/device:gpu:0", "/device:gpu:0"),  # case kept
    ("/device:GPU:0/device:CPU:1", "/device:CPU:1"),  # C++: later wins
    ("/replica:007", "/replica:7"),
    ("/job:*", ""),
    ("/", ""),
    ("", ""),
    ("CPU:10", "/device:CPU:10"),
    ("gpu:1", "/device:gpu:1"),
    ("XLA_GPU:0", "/device:XLA_GPU:0"),
]


@pytest.mark.parametrize("text,canonical", STRICT)
def test_parse_full_or_local_name(text, canonical):
    spec = parse_full_or_local_name(text)
    assert spec is not None and spec.to_string() == canonical


@pytest.mark.parametrize("text", [
    "GPU", "gpu", "bogus", "cpu:abc", "abc:", "CPU:0:1", "CPU:-1", "/gpu:", "/cpu", "/Gpu:0", "/tpu:0",
    "/xla_gpu:0", "/job:a//cpu:0", "/job:a/", "//", "/job:", "/job:1x", "/job:a-b", "/replica:1x",
    "/replica:-1", "/device:GPU:", "/device:", "job:a", "device:GPU:0", " CPU:0", "/job:**", None, 3,
])
def test_parse_full_or_local_name_rejects(text):
    assert parse_full_or_local_name(text) is None


def test_parse_full_or_local_name_keeps_fields():
    spec = parse_full_or_local_name("gpu:1")
    assert (spec.device_type, spec.device_index) == ("gpu", 1)


# -- names ----------------------------------------------------------------------------------

def test_full_and_legacy_names():
    assert full_name("GPU", 1) == FULL
    assert full_name("CPU", 0) == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert legacy_name("/job:localhost/replica:0/task:0/device:GPU:0") == "/job:localhost/replica:0/task:0/gpu:0"
    assert legacy_name(DeviceSpec.from_string("/job:foo/replica:10/task:0/device:CPU:1")) == \
        "/job:foo/replica:10/task:0/cpu:1"
    assert legacy_name("GPU:2") == "/gpu:2"
    with pytest.raises(DeviceSpecError, match="needs a device type and an index"):
        legacy_name("/job:a/device:GPU")


# -- properties -----------------------------------------------------------------------------

_TOKENS = ["/", "/", "/", ":", ":", "job", "replica", "task", "device", "cpu", "CPU", "gpu", "GPU", "Gpu", "tpu",
           "xla_gpu", "*", "0", "1", "07", "-1", "x", "a", "Z", "_", " ", "localhost", "foo", "\n", "é"]
grammarish = st.lists(st.sampled_from(_TOKENS), max_size=14).map("".join)

_name = st.builds(lambda head, tail: head + tail, st.sampled_from("aZgGcx"),
                  st.text(alphabet="az09_PU", max_size=5))
_num = st.one_of(st.integers(0, 20), st.just("*"), st.just("007"))
_piece = st.one_of(
    st.builds(lambda v: f"job:{v}", st.one_of(_name, st.just("*"))),
    st.builds(lambda v: f"replica:{v}", _num),
    st.builds(lambda v: f"task:{v}", _num),
)
_device_piece = st.one_of(
    st.builds(lambda t, i: f"device:{t}:{i}", st.one_of(_name, st.just("*")), _num),
    st.builds(lambda t: f"device:{t}", st.one_of(_name, st.just("*"))),
    st.builds(lambda t, i: f"{t}:{i}", st.sampled_from(["cpu", "GPU", "Gpu", "tpu", "CUSTOM", "epu"]), _num),
    st.sampled_from(["cpu", "GPU", "gpu", "Tpu"]),
)


@st.composite
def valid_specs(draw):
    pieces = draw(st.lists(_piece, max_size=4))
    if draw(st.booleans()):
        pieces.insert(draw(st.integers(0, len(pieces))), draw(_device_piece))
    sep = draw(st.sampled_from(["/", "//"]))
    return draw(st.sampled_from(["/", ""])) + sep.join(pieces)


def _round_trips(text):
    try:
        spec = DeviceSpec.from_string(text)
    except DeviceSpecError:
        return False
    again = DeviceSpec.from_string(spec.to_string())
    assert again == spec
    assert again.to_string() == spec.to_string()
    return True


@settings(max_examples=200, deadline=None)
@given(valid_specs())
def test_property_valid_specs_round_trip(text):
    assert _round_trips(text)


@settings(max_examples=200, deadline=None)
@given(grammarish)
def test_property_grammarish_round_trip_or_clean_error(text):
    _round_trips(text)
    result = parse_full_or_local_name(text)
    assert result is None or isinstance(result, DeviceSpec)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_property_any_text_parses_or_raises_device_spec_error(text):
    _round_trips(text)
    result = parse_full_or_local_name(text)
    assert result is None or isinstance(result, DeviceSpec)


@settings(max_examples=100, deadline=None)
@given(valid_specs(), valid_specs(), st.booleans())
def test_property_merge(a_text, b_text, soft):
    a, b = DeviceSpec.from_string(a_text), DeviceSpec.from_string(b_text)
    merged = a.make_merged_spec(b)
    assert is_specification(b, merged)
    try:
        strict = merge_device_names(a, b, soft)
    except InvalidArgumentError:
        assert not are_compatible(a, b)
    else:
        if are_compatible(a, b):
            assert strict == merged
        assert is_specification(strict, merged)
