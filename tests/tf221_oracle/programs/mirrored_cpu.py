# Issue 13 area 5: MirroredStrategy on the one CPU of a CPU-only machine (no placement logging; INFO logger on).
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


tf.get_logger().setLevel("INFO")
strategy = tf.distribute.MirroredStrategy()
cell("num_replicas_in_sync", lambda: strategy.num_replicas_in_sync)
cell("worker_devices", lambda: strategy.extended.worker_devices)
cell("parameter_devices", lambda: strategy.extended.parameter_devices)
cell("cross_device_ops type", lambda: type(strategy.extended._cross_device_ops).__name__)
with strategy.scope():
    v = tf.Variable(1.0)
cell("variable type", lambda: type(v).__name__)
cell("variable repr", lambda: repr(v))
cell("variable device", lambda: v.device)


def step(x):
    ctx = tf.distribute.get_replica_context()
    return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)


cell("run", lambda: strategy.run(step, args=(tf.constant(2.0),)))
cell("replica_id_in_sync_group type", lambda: strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group))
cell("reduce SUM", lambda: strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, args=(tf.constant(2.0),)), axis=None))
cell("reduce MEAN", lambda: strategy.reduce("MEAN", strategy.run(lambda: tf.constant([1.0, 3.0])), axis=0))
cell("experimental_local_results", lambda: strategy.experimental_local_results(strategy.run(step, args=(tf.constant(1.0),))))
cell("MirroredStrategy bad device (error)", lambda: tf.distribute.MirroredStrategy(["/GPU:0"]))
cell("in cross-replica context", lambda: tf.distribute.in_cross_replica_context())
with strategy.scope():
    cell("in scope: has_strategy", lambda: tf.distribute.has_strategy())
cell("get_strategy default type", lambda: type(tf.distribute.get_strategy()).__name__)
