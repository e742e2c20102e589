"""tf.config-shaped state and the initialisation freeze (in-process)."""

import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context

MiB = 1 << 20


def sim(spec="4", env=None):
    gpus = tuple(simulated.parse_simulate(spec)) if spec != "0" else ()
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
    assert str(info.value) == message  # TensorFlow's text; where the runtime was initialised is devtrace's note
    (note,) = info.value.__notes__
    assert note.startswith("  (devtrace: the runtime was initialized by op _EagerConst at ")
    assert note.endswith("tests/test_config.py:45)")


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


# -- TF 2.21's validation order, threading, options, logging (oracle: tests/tf221_oracle/config_*) ----------


def test_logical_device_configuration_is_a_namedtuple():
    c = tf.config.LogicalDeviceConfiguration(1024)
    assert isinstance(c, tuple) and c._fields == ("memory_limit", "experimental_priority", "experimental_device_ordinal")
    assert repr(c) == ("LogicalDeviceConfiguration(memory_limit=1024, experimental_priority=None, "
                       "experimental_device_ordinal=None)")


@pytest.mark.parametrize("configs, error, message", [
    (None, TypeError, "'NoneType' object is not iterable"),
    ([tf.config.LogicalDeviceConfiguration(experimental_device_ordinal=1)], ValueError,
     "Setting experimental_device_ordinal on CPU virtual  devices is currently not supported"),
    ([tf.config.LogicalDeviceConfiguration(experimental_priority=1)], ValueError,
     "Setting experimental_priority on CPU virtual  devices is currently not supported"),
    (["x"], AttributeError, "'str' object has no attribute 'memory_limit'"),
])
def test_cpu_virtual_devices_are_checked_in_tensorflows_order(configs, error, message):
    sim("1")
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(error) as info:
        tf.config.set_logical_device_configuration(cpu, configs)
    assert str(info.value) == message
    assert tf.config.get_logical_device_configuration(cpu) is None  # nothing stored
    with pytest.raises(ValueError, match="^Cannot set memory growth on non-GPU and non-Pluggable devices$"):
        tf.config.experimental.set_memory_growth(cpu, True)


def test_an_empty_cpu_configuration_makes_initialisation_fail_every_time():
    sim("1")
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [])
    assert tf.config.get_logical_device_configuration(cpu) == []
    for call in (tf.config.list_logical_devices, lambda: tf.constant(1.0), tf.config.list_logical_devices):
        with pytest.raises(tf.errors.NotFoundError, match="^No CPU devices are available in this process$"):
            call()


def test_threading_is_frozen_at_initialisation():
    sim("1")
    assert tf.config.threading.get_intra_op_parallelism_threads() == 0
    assert tf.config.threading.get_inter_op_parallelism_threads() == 0
    tf.config.threading.set_intra_op_parallelism_threads(2)
    tf.config.threading.set_inter_op_parallelism_threads(3)
    tf.config.list_logical_devices()
    tf.config.threading.set_intra_op_parallelism_threads(2)  # the same value: a no-op
    with pytest.raises(RuntimeError, match=r"^Intra op parallelism cannot be modified after initialization\.$"):
        tf.config.threading.set_intra_op_parallelism_threads(4)
    with pytest.raises(RuntimeError, match=r"^Inter op parallelism cannot be modified after initialization\.$"):
        tf.config.threading.set_inter_op_parallelism_threads(4)
    assert (tf.config.threading.get_intra_op_parallelism_threads(),
            tf.config.threading.get_inter_op_parallelism_threads()) == (2, 3)


def test_a_thread_count_that_is_not_an_int_fails_when_read():
    sim("1")
    tf.config.threading.set_intra_op_parallelism_threads("x")
    with pytest.raises(TypeError, match="^'str' object cannot be interpreted as an integer$"):
        tf.config.threading.get_intra_op_parallelism_threads()


def test_synchronous_execution_and_optimizer_options():
    sim("1")
    assert tf.config.experimental.get_synchronous_execution() is True
    tf.config.experimental.set_synchronous_execution(False)
    assert tf.config.experimental.get_synchronous_execution() is False
    tf.config.experimental.set_synchronous_execution(None)
    assert tf.config.experimental.get_synchronous_execution() is True
    assert tf.config.optimizer.get_jit() == ""
    tf.config.optimizer.set_jit(True)
    assert tf.config.optimizer.get_jit() == "autoclustering"
    tf.config.optimizer.set_jit("x")
    assert tf.config.optimizer.get_jit() == ""
    assert tf.config.optimizer.get_experimental_options() == {"disable_model_pruning": False,
                                                              "disable_meta_optimizer": False}
    tf.config.optimizer.set_experimental_options({"constant_folding": False, "layout_optimizer": True,
                                                  "min_graph_nodes": 3})
    assert list(tf.config.optimizer.get_experimental_options().items()) == [
        ("layout_optimizer", True), ("constant_folding", False), ("disable_model_pruning", False),
        ("disable_meta_optimizer", False), ("min_graph_nodes", 3)]


def test_dir_lists_tensorflows_names_and_extras_stay_reachable():
    assert "set_memory_growth" not in dir(tf.config) and "threading" in dir(tf.config)
    assert "set_memory_fraction" not in dir(tf.config.experimental)
    assert callable(tf.config.experimental.set_memory_fraction) and callable(tf.config.experimental.get_memory_stats)
    assert hasattr(tf.config, "experimental_connect_to_host")


def test_deprecated_functions_warn_once_through_the_tensorflow_logger(caplog):
    from devtrace.platform import tf_logging

    sim("1")
    tf_logging._warned.clear()
    tf.config.experimental.get_memory_usage("CPU:0")
    tf.config.experimental.get_memory_usage("CPU:0")
    records = [r for r in caplog.records if r.name == "tensorflow"]
    assert len(records) == 1 and records[0].levelname == "WARNING"
    first, *rest = records[0].getMessage().splitlines()
    assert first.startswith(f"From {__file__}:") and first.endswith(
        ": get_memory_usage (from tensorflow.python.framework.config) is deprecated and will be removed in a "
        "future version.")
    assert rest == ["Instructions for updating:", "Use tf.config.experimental.get_memory_info(device)['current'] instead."]


def test_compat_v1_logging_is_the_tensorflow_logger():
    logger = tf.get_logger()
    saved = logger.level
    try:
        tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
        assert tf.compat.v1.logging.get_verbosity() == 20 and logger.getEffectiveLevel() == 20
    finally:
        logger.setLevel(saved)


def test_device_lib_lists_one_cpu_with_virtual_cpus():
    from devtrace.platform.device_lib import list_local_devices

    sim("1")
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    assert [d.name for d in list_local_devices()] == ["/device:CPU:0", "/device:GPU:0"]


def test_tf_force_gpu_allow_growth_is_not_read_without_gpus():
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), (), (), "simulated"),
                        env={"TF_FORCE_GPU_ALLOW_GROWTH": "junk"})
    tf.config.list_logical_devices()
    assert [e for e in ctx.trace.events if e.kind == "message"] == []


def test_device_details_validate_as_tensorflow():
    sim("1")
    with pytest.raises(ValueError, match="^device must be a tf.config.PhysicalDevice, but got: CPU:0$"):
        tf.config.experimental.get_device_details("CPU:0")
    with pytest.raises(ValueError) as info:
        tf.config.experimental.get_device_details(tf.config.PhysicalDevice("/physical_device:GPU:3", "GPU"))
    assert str(info.value) == ("The PhysicalDevice must be one obtained from calling `tf.config.list_physical_devices`, "
                               "but got: PhysicalDevice(name='/physical_device:GPU:3', device_type='GPU')")


def test_visible_devices_take_a_list_and_soft_placement_none_is_the_default():
    sim("1")
    cpus = tf.config.list_physical_devices("CPU")
    with pytest.raises(ValueError) as info:
        tf.config.set_visible_devices(tuple(cpus))
    assert str(info.value) == "Unrecognized device: (PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU'),)"
    tf.config.set_soft_device_placement(0)
    assert tf.config.get_soft_device_placement() is False
    tf.config.set_soft_device_placement(None)
    assert tf.config.get_soft_device_placement() is True


def test_compat_v1_logging_helpers_behave_as_tensorflows(caplog):
    from devtrace.platform import tf_logging

    tf_logging._counts.clear()
    for _ in range(3):
        tf.compat.v1.logging.log_first_n(tf.compat.v1.logging.WARN, "first", 2)
    for _ in range(3):  # TensorFlow's per-call-site token is shared by every call from one file: counts 3, 4, 5
        tf.compat.v1.logging.log_every_n(tf.compat.v1.logging.WARN, "every", 2)
    tf.compat.v1.logging.log_if(tf.compat.v1.logging.WARN, "if %s", True, "x")
    assert [r.getMessage() for r in caplog.records if r.name == "tensorflow"] == ["first", "first", "every", "if x"]
    with pytest.raises(NotImplementedError):
        tf.compat.v1.logging.flush()
    assert tf.test.is_built_with_xla() is True


@pytest.mark.parametrize("field, message", [
    ("experimental_priority", "priority must be specified for all virtual devices"),
    ("experimental_device_ordinal", "device_ordinals must be specified for all virtual devices"),
])
def test_virtual_gpus_set_priorities_and_ordinals_on_all_or_none(field, message):
    sim("1")
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(512, **{field: 0}),
                                                     tf.config.LogicalDeviceConfiguration(512)])
    with pytest.raises(ValueError) as info:
        tf.config.list_logical_devices()
    assert str(info.value) == message


@pytest.mark.parametrize("spec, built", [("0", False), ("1", True)])
def test_the_build_devtrace_stands_for_follows_the_machine(spec, built):
    """tensorflow-cpu on a machine without GPUs (tf221_oracle config_misc: False), the CUDA build with them."""
    sim(spec)
    assert tf.test.is_built_with_cuda() is built and tf.test.is_built_with_gpu_support() is built
    assert repr(tf.sysconfig.get_build_info()) == (f"OrderedDict([('is_cuda_build', {built}), ('is_rocm_build', False), "
                                                   "('is_tensorrt_build', False)])")


def test_cpu_memory_info_without_onednn_is_refused_as_tensorflow_does():
    sim("0", env={"TF_ENABLE_ONEDNN_OPTS": "0"})
    x = tf.ones([100000])
    for call, text in [(tf.config.experimental.get_memory_info, "Allocator stats not available"),
                       (tf.config.experimental.get_memory_usage, "Allocator stats not available"),
                       (tf.config.experimental.reset_memory_stats, "Cannot reset memory stats")]:
        with pytest.raises(ValueError) as info:
            call("CPU:0")
        assert str(info.value) == f"{text} for device 'CPU:0'"
    assert tf.config.experimental.get_memory_stats("CPU:0")["in_use"] == 400000  # devtrace's view keeps every byte
    del x


def test_cpu_memory_info_with_onednn_counts_its_large_allocations():
    """TensorFlow 2.21 with oneDNN on: requests under 256 KiB are not counted, larger ones in 256-byte
    steps, shared by every CPU; reset_memory_stats clears the peak."""
    sim("0", env={"TF_ENABLE_ONEDNN_OPTS": "1"})
    info = tf.config.experimental.get_memory_info
    keep, seen = [], []
    for n in [1, 1000, 65535, 65536, 65537, 100000]:
        keep.append(tf.ones([n]))
        seen.append(info("CPU:0")["current"])
    assert seen == [0, 0, 0, 262144, 524544, 924672]
    del keep
    assert info("CPU:0") == {"current": 0, "peak": 924672}
    tf.config.experimental.reset_memory_stats("CPU:0")
    assert info("CPU:0") == {"current": 0, "peak": 0}
