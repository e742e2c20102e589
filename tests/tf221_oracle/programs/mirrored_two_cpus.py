# Issue 13 area 5: MirroredStrategy over two virtual CPUs, with placement logging (collective all-reduce, per-device variables).
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
tf.get_logger().setLevel("INFO")
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/CPU:0", "/CPU:1"])
cell("num_replicas_in_sync", lambda: strategy.num_replicas_in_sync)
cell("worker_devices", lambda: strategy.extended.worker_devices)
cell("parameter_devices", lambda: strategy.extended.parameter_devices)
with strategy.scope():
    v = tf.Variable(1.0)
cell("variable repr", lambda: repr(v))
cell("values devices", lambda: [x.device for x in v.values])


def step(x):
    ctx = tf.distribute.get_replica_context()
    return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)


cell("run", lambda: strategy.run(step, args=(tf.constant(2.0),)))
cell("reduce SUM", lambda: strategy.reduce("SUM", strategy.run(step, args=(tf.constant(2.0),)), axis=None))
cell("reduce MEAN", lambda: strategy.reduce("MEAN", strategy.run(step, args=(tf.constant(2.0),)), axis=None))
