# Real TF 2.21 placement log: MirroredStrategy on a CPU-only machine (one CPU), a variable and a reduced step.
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
tf.get_logger().setLevel("INFO")

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    v = tf.Variable(1.0, name="v")


def step(x):
    return x * v


per_replica = strategy.run(step, args=(tf.constant(3.0),))
print(strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None))
print(strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None))
