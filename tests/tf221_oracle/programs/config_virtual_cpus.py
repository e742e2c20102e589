# Issue 13 area 3: virtual CPU devices via set_logical_device_configuration; reprs after initialisation.
import tensorflow as tf
import sys


def cell(label, f):
    """One cell: a '--- label' marker on stdout and stderr, then the result or the error."""
    print(f"--- {label}", flush=True)
    print(f"--- {label}", file=sys.stderr, flush=True)
    try:
        r = f()
        if r is not None:
            print(r, flush=True)
    except Exception as e:
        print(type(e).__name__, e, flush=True)


cpu = tf.config.list_physical_devices("CPU")[0]
cell("set 3 virtual CPUs", lambda: tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3))
cell("get config back", lambda: tf.config.get_logical_device_configuration(cpu))
cell("set again before init (overrides)", lambda: tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2))
cell("list_logical_devices", lambda: tf.config.list_logical_devices())
cell("list_logical_devices CPU", lambda: tf.config.list_logical_devices("CPU"))
cell("list_physical_devices still 1", lambda: tf.config.list_physical_devices())
cell("modify after init", lambda: tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3))
cell("same after init", lambda: tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2))
cell("op on CPU:1", lambda: (lambda: __import__("builtins").exec("with tf.device('/CPU:1'):\n  r = tf.constant(1.0) + 1.0\nprint(r.device)"))())
cell("device_lib names", lambda: [d.name for d in __import__("tensorflow.python.client.device_lib", fromlist=["x"]).list_local_devices()])
cell("get_memory_info CPU:1", lambda: tf.config.experimental.get_memory_info("CPU:1"))
