# Issue 13 areas 1/2/3: two virtual CPUs; ops and copies across them with placement logging; device policies.
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


tf.debugging.set_log_device_placement(True)
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
cell("logical devices", lambda: tf.config.list_logical_devices())
with tf.device("/CPU:1"):
    b = tf.constant([1.0, 2.0])
cell("constant on CPU:1", lambda: b.device)
cell("op with no scope, input on CPU:1", lambda: (b + b).device)
with tf.device("/CPU:1"):
    cell("op under CPU:1", lambda: (b * 2.0).device)
    cell("scalar cache keyed by device: 2.0 on CPU:1 again", lambda: (b * 2.0).device)
cell("2.0 on CPU:0", lambda: (b * 2.0).device)
with tf.device("/CPU:1"):
    v = tf.Variable(3.0)
cell("variable on CPU:1", lambda: v.device)
cell("read variable with no scope", lambda: v.read_value().device)
with tf.device("/CPU:0"):
    cell("variable op under CPU:0 scope", lambda: v.assign_add(1.0).device)
    cell("v + 1 under CPU:0", lambda: (v + 1.0).device)
cell("device policy warn", lambda: tf.config.experimental.set_device_policy("warn"))
with tf.device("/CPU:0"):
    cell("copy under warn", lambda: (b + b).device)
cell("device policy explicit", lambda: tf.config.experimental.set_device_policy("explicit"))
with tf.device("/CPU:0"):
    cell("copy under explicit (error)", lambda: b + b)
cell("device policy silent", lambda: tf.config.experimental.set_device_policy("silent"))
with tf.device("/CPU:0"):
    cell("copy under silent", lambda: (b + b).device)
cell("identity to move", lambda: tf.identity(b).device)
with tf.device("/CPU:2"):
    cell("soft placement of CPU:2", lambda: (b + b).device)
