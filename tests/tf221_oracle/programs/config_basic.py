# Issue 13 area 3: tf.config listing, reprs, validation errors before initialisation.
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


cpus = tf.config.list_physical_devices("CPU")
cell("list_physical_devices", lambda: tf.config.list_physical_devices())
cell("list_physical_devices GPU", lambda: tf.config.list_physical_devices("GPU"))
cell("list_physical_devices lowercase", lambda: tf.config.list_physical_devices("cpu"))
cell("experimental.list_physical_devices", lambda: tf.config.experimental.list_physical_devices("CPU"))
cell("PhysicalDevice fields", lambda: (cpus[0].name, cpus[0].device_type, type(cpus[0]).__name__))
cell("get_visible_devices", lambda: tf.config.get_visible_devices())
cell("LogicalDeviceConfiguration repr", lambda: repr(tf.config.LogicalDeviceConfiguration()))
cell("LogicalDeviceConfiguration is namedtuple", lambda: (tf.config.LogicalDeviceConfiguration._fields, isinstance(tf.config.LogicalDeviceConfiguration(), tuple)))
cell("LogicalDeviceConfiguration positional", lambda: repr(tf.config.LogicalDeviceConfiguration(1024)))
cell("VirtualDeviceConfiguration alias", lambda: tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration)
cell("get_logical_device_configuration", lambda: tf.config.get_logical_device_configuration(cpus[0]))
cell("set_logical_device_configuration(dev, None)", lambda: tf.config.set_logical_device_configuration(cpus[0], None))
cell("set_logical_device_configuration with memory_limit", lambda: tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=100)]))
cell("set_logical_device_configuration with device ordinal", lambda: tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration(experimental_device_ordinal=1)]))
cell("set_logical_device_configuration with priority", lambda: tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration(experimental_priority=1)]))
cell("set_logical_device_configuration not a device", lambda: tf.config.set_logical_device_configuration("CPU:0", [tf.config.LogicalDeviceConfiguration()]))
cell("set_logical_device_configuration list of str", lambda: tf.config.set_logical_device_configuration(cpus[0], ["x"]))
cell("set_memory_growth CPU", lambda: tf.config.experimental.set_memory_growth(cpus[0], True))
cell("get_memory_growth CPU", lambda: tf.config.experimental.get_memory_growth(cpus[0]))
cell("set_visible_devices bad type", lambda: tf.config.set_visible_devices(cpus, "XPU"))
cell("set_visible_devices non-device", lambda: tf.config.set_visible_devices(["CPU:0"]))
cell("set_visible_devices same (no-op)", lambda: tf.config.set_visible_devices(cpus))
cell("set_visible_devices single device not list", lambda: tf.config.set_visible_devices(cpus[0], "CPU"))
cell("get_device_details", lambda: tf.config.experimental.get_device_details(cpus[0]))
cell("threading intra", lambda: tf.config.threading.get_intra_op_parallelism_threads())
cell("threading inter", lambda: tf.config.threading.get_inter_op_parallelism_threads())
cell("threading set before init", lambda: (tf.config.threading.set_intra_op_parallelism_threads(2), tf.config.threading.get_intra_op_parallelism_threads())[1])
cell("synchronous execution", lambda: tf.config.experimental.get_synchronous_execution())
cell("set synchronous", lambda: tf.config.experimental.set_synchronous_execution(True))
cell("list_logical_devices (initialises)", lambda: tf.config.list_logical_devices())
cell("LogicalDevice fields", lambda: (lambda d: (d.name, d.device_type, type(d).__name__))(tf.config.list_logical_devices()[0]))
cell("threading set after init", lambda: tf.config.threading.set_intra_op_parallelism_threads(4))
cell("threading set same after init", lambda: tf.config.threading.set_intra_op_parallelism_threads(2))
cell("set_logical_device_configuration after init", lambda: tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2))
cell("set_visible_devices after init (same)", lambda: tf.config.set_visible_devices(cpus, "CPU"))
cell("set_visible_devices after init (none)", lambda: tf.config.set_visible_devices([], "CPU"))
cell("get_memory_info CPU:0", lambda: tf.config.experimental.get_memory_info("CPU:0"))
cell("get_memory_info GPU:0", lambda: tf.config.experimental.get_memory_info("GPU:0"))
cell("get_memory_info cpu:0", lambda: tf.config.experimental.get_memory_info("cpu:0"))
cell("get_memory_info bogus", lambda: tf.config.experimental.get_memory_info("bogus"))
cell("reset_memory_stats CPU:0", lambda: tf.config.experimental.reset_memory_stats("CPU:0"))
cell("get_memory_usage CPU:0 (deprecated)", lambda: tf.config.experimental.get_memory_usage("CPU:0"))
