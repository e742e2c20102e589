"""tf.config-shaped state and the initialisation freeze (in-process)."""

import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context

MiB = 1 << 20


def sim(spec="4", env=None):
    gpus = tuple(simulated.parse_simulate(spec))
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated"), env=env or {})
    return ctx


def test_physical_and_logical_names():
    sim("2")
    assert tf.config.list_physical_devices("GPU") == [
        tf.config.PhysicalDevice("/physical_device:GPU:0", "GPU"), tf.config.PhysicalDevice("/physical_device:GPU:1", "GPU")]
    assert repr(tf.config.list_physical_devices("CPU")) == "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"
    assert [d.name for d in tf.config.list_logical_devices()] == ["/device:CPU:0", "/device:GPU:0", "/device:GPU:1"]


def test_growth_default_is_none_and_visible_devices():
    sim("4")
    gpus = tf.config.list_physical_devices("GPU")
    assert tf.config.experimental.get_memory_growth(gpus[0]) is None
    tf.config.set_visible_devices([gpus[3], gpus[1]], "GPU")
    assert tf.config.get_visible_devices("GPU") == [gpus[1], gpus[3]]  # rebuilt in physical order, as TF does
    assert [d.name for d in tf.config.list_logical_devices("GPU")] == ["/device:GPU:0", "/device:GPU:1"]


@pytest.mark.parametrize("change, message", [
    (lambda g: tf.config.set_visible_devices(g[0], "GPU"), "Visible devices cannot be modified after being initialized"),
    (lambda g: tf.config.experimental.set_memory_growth(g[0], True), "Physical devices cannot be modified after being initialized"),
    (lambda g: tf.config.set_logical_device_configuration(g[0], [tf.config.LogicalDeviceConfiguration(memory_limit=512)]),
     "Virtual devices cannot be modified after being initialized"),
])
def test_config_after_an_op_is_frozen_and_says_where(change, message):
    sim("2")
    gpus = tf.config.list_physical_devices("GPU")
    tf.constant(1.0)  # initialises the runtime
    with pytest.raises(RuntimeError) as info:
        change(gpus)
    first, second = str(info.value).splitlines()
    assert first == message
    assert second.startswith("  (devtrace: the runtime was initialized by op _EagerConst at ")
    assert second.endswith("tests/test_config.py:45)")


def test_setting_the_same_value_after_init_is_a_no_op():
    sim("2")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.list_logical_devices()
    tf.config.set_visible_devices(gpus, "GPU")
    tf.config.experimental.set_memory_growth(gpus[0], None)


def test_growth_must_match_across_gpus():
    sim("2")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.experimental.set_memory_growth(gpus[0], True)
    with pytest.raises(ValueError, match="^Memory growth cannot differ between GPU devices$"):
        tf.config.list_logical_devices()


@pytest.mark.parametrize("call, message", [
    (lambda g, c: tf.config.experimental.set_memory_growth(c, True), "Cannot set memory growth on non-GPU and non-Pluggable devices"),
    (lambda g, c: tf.config.set_logical_device_configuration(g, [tf.config.LogicalDeviceConfiguration()]),
     "Setting memory limit is required for GPU virtual devices"),
    (lambda g, c: tf.config.set_logical_device_configuration(c, [tf.config.LogicalDeviceConfiguration(memory_limit=1)]),
     "Setting memory limit on CPU virtual devices is currently not supported"),
    (lambda g, c: tf.config.set_visible_devices(tf.config.PhysicalDevice("/physical_device:GPU:9", "GPU")),
     "Unrecognized device: PhysicalDevice(name='/physical_device:GPU:9', device_type='GPU')"),
])
def test_config_errors_have_tensorflows_text(call, message):
    sim("1")
    gpu = tf.config.list_physical_devices("GPU")[0]
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError) as info:
        call(gpu, cpu)
    assert str(info.value) == message


def test_growth_on_a_gpu_with_virtual_devices():
    sim("1")
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=512)])
    with pytest.raises(ValueError, match="^Cannot set memory growth on device when virtual devices configured$"):
        tf.config.experimental.set_memory_growth(gpu, True)


def test_growth_then_virtual_devices_is_ignored_and_said():
    ctx = sim("1")
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.experimental.set_memory_growth(gpu, True)
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=512)])
    tf.config.list_logical_devices()
    (msg,) = [e for e in ctx.trace.events if e.kind == "message"]
    assert msg.text.startswith("Memory growth is ignored: virtual devices are configured")
    assert ctx.devices[1].policy == "limit" and not ctx.devices[1].allocator.allow_growth


@pytest.mark.parametrize("value, growth, message", [
    ("true", True, "Overriding orig_value setting because the TF_FORCE_GPU_ALLOW_GROWTH environment variable is set. "
                   "Original config value was 0."),
    ("false", False, None),
    ("True", False, 'The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could not be parsed: "True". '
                    'Valid values are "true" or "false". Using original config value of 0.'),
    ("1", False, 'The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could not be parsed: "1". '
                 'Valid values are "true" or "false". Using original config value of 0.'),
])
def test_tf_force_gpu_allow_growth(value, growth, message):
    ctx = sim("1", env={"TF_FORCE_GPU_ALLOW_GROWTH": value})
    tf.config.list_logical_devices()
    assert ctx.devices[1].allocator.allow_growth is growth
    texts = [e.text for e in ctx.trace.events if e.kind == "message"]
    assert texts == ([message] if message else [])


def test_device_details_and_virtual_numbering():
    sim("2xT4")
    gpus = tf.config.list_physical_devices("GPU")
    assert tf.config.experimental.get_device_details(gpus[0]) == {"device_name": "Tesla T4", "compute_capability": (7, 5)}
    tf.config.set_logical_device_configuration(gpus[0], [tf.config.LogicalDeviceConfiguration(512)] * 2)
    names = [(d.name, d.device_type) for d in tf.config.list_logical_devices("GPU")]
    assert names == [("/device:GPU:0", "GPU"), ("/device:GPU:1", "GPU"), ("/device:GPU:2", "GPU")]


def test_hiding_every_cpu_fails_at_init():
    sim("1")
    tf.config.set_visible_devices([], "CPU")
    with pytest.raises(tf.errors.NotFoundError, match="No CPU devices are available in this process"):
        tf.config.list_logical_devices()
