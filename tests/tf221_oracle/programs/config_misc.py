# Issue 13 area 3: tf.test helpers, device_lib records, get_logger, memory/device helpers and their deprecation warnings.
import tensorflow as tf
import sys
import logging
from tensorflow.python.client import device_lib


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


cell("is_built_with_cuda", lambda: tf.test.is_built_with_cuda())
cell("is_built_with_gpu_support", lambda: tf.test.is_built_with_gpu_support())
cell("gpu_device_name", lambda: repr(tf.test.gpu_device_name()))
cell("is_gpu_available (deprecated)", lambda: tf.test.is_gpu_available())
cell("list_local_devices", lambda: device_lib.list_local_devices())
cell("list_local_devices fields", lambda: [(d.name, d.device_type, d.memory_limit, type(d).__name__) for d in device_lib.list_local_devices()])
cell("sysconfig build_info keys", lambda: sorted(tf.sysconfig.get_build_info().keys()))
cell("get_logger", lambda: (tf.get_logger().name, tf.get_logger().level, logging.getLevelName(tf.get_logger().getEffectiveLevel())))
cell("logger INFO message", lambda: (tf.get_logger().setLevel("INFO"), tf.get_logger().info("hello %s", "info"))[1])
cell("logger WARNING message", lambda: tf.get_logger().warning("hello warning"))
cell("autograph set_verbosity", lambda: tf.autograph.set_verbosity(0))
cell("compat.v1.logging", lambda: tf.compat.v1.logging.get_verbosity())
cell("get_memory_usage (deprecated)", lambda: tf.config.experimental.get_memory_usage("CPU:0"))
cell("experimental_connect_to_host?", lambda: hasattr(tf.config, "experimental_connect_to_host"))
cell("tf.config.experimental functions", lambda: sorted(n for n in dir(tf.config.experimental) if not n.startswith("_")))
cell("tf.config functions", lambda: sorted(n for n in dir(tf.config) if not n.startswith("_")))
cell("get_visible_devices GPU", lambda: tf.config.get_visible_devices("GPU"))
cell("run_functions_eagerly", lambda: (tf.config.run_functions_eagerly(False), tf.config.functions_run_eagerly())[1])
cell("optimizer jit", lambda: tf.config.optimizer.get_jit())
cell("optimizer experimental options", lambda: tf.config.optimizer.get_experimental_options())
cell("enable_op_determinism", lambda: tf.config.experimental.enable_op_determinism())
cell("tensor_float_32", lambda: tf.config.experimental.tensor_float_32_execution_enabled())
