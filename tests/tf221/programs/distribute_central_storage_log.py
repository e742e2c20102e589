# CentralStorageStrategy on two virtual CPUs (compute on CPU:0 and CPU:1, the variable on /device:CPU:0), with
# the placement log: the one variable, its reads colocated with it, the replicas' ops on their devices, reductions.
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpu[0], [tf.config.LogicalDeviceConfiguration() for _ in range(2)])
tf.debugging.set_log_device_placement(True)
strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
print(strategy.num_replicas_in_sync, strategy.extended.parameter_devices, strategy.extended.worker_devices)
with strategy.scope():
    v = tf.Variable([1.0, 2.0], name="v")
print(type(v).__name__, v.device, strategy.extended.variable_created_in_scope(v))
print(repr(v))
x = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([1.0, 2.0]) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32))
print(x)
out = strategy.run(lambda x: x * v, args=(x,))
print(out)
print(strategy.reduce("SUM", out, axis=None))
print(strategy.reduce(tf.distribute.ReduceOp.MEAN, out, axis=None))
v.assign_add([1.0, 1.0])
print(v.numpy())
print(strategy.experimental_local_results(v))
try:
    strategy.run(lambda: v.assign_add([1.0, 1.0]))
except ValueError as e:
    print(str(e)[:90])
