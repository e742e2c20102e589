# A tf.function returning MirroredStrategy.run's per-replica results (two virtual CPUs), with and without an
# input signature of the distributed dataset's PerReplicaSpecs: PerReplica values, and no eager-run warning.
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpu[0], [tf.config.LogicalDeviceConfiguration() for _ in range(2)])
s = tf.distribute.MirroredStrategy()
ds = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(8).batch(4)
dd = s.experimental_distribute_dataset(ds)
print(dd.element_spec)
def step_fn(inputs):
    return 2 * inputs[0]
@tf.function
def plain(x):
    return s.run(step_fn, args=(x,))
@tf.function(input_signature=[dd.element_spec])
def signed(x):
    return s.run(step_fn, args=(x,))
it = iter(dd)
print(plain(next(it)))
print(signed(next(it)))
