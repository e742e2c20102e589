"""A program's own "is there a GPU?" checks (tf.test, device_lib) see the machine devtrace
simulates; on a CPU-only machine the records are TensorFlow 2.21's (the oracle's config_misc cells)."""

import devtrace as tf
from devtrace.platform.device_lib import list_local_devices
from devtrace.devices.discovery import discover
from devtrace.runtime.context import reset_context


def test_simulated_gpus_answer_the_usual_checks():
    reset_context(discover(simulate="2"), env={})
    assert tf.test.is_gpu_available() and tf.test.gpu_device_name() == "/device:GPU:0"
    records = list_local_devices()
    assert [(d.name, d.device_type) for d in records] == [("/device:CPU:0", "CPU"), ("/device:GPU:0", "GPU"),
                                                          ("/device:GPU:1", "GPU")]
    gpu0 = tf.config.experimental.get_memory_info("GPU:0")
    assert records[1].memory_limit > 0 and gpu0["current"] == 0
    assert records[1].physical_device_desc.startswith("device: 0, name: ")


def test_no_gpu_means_no_gpu():
    reset_context(discover(simulate=None, env={}, nvml_module=None), env={})
    if tf.config.list_physical_devices("GPU"):  # a machine with a real GPU
        return
    assert not tf.test.is_gpu_available() and tf.test.gpu_device_name() == ""
    assert str(list_local_devices()[0]).splitlines()[:3] == ['name: "/device:CPU:0"', 'device_type: "CPU"',
                                                            "memory_limit: 268435456"]
