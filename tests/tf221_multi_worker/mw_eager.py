"""A multi-worker step eagerly: mirrored variables, each replica's gradient, all-reduced across the
workers with strategy.reduce (CollectiveReduceV2), applied to the variables."""
import json
import os

import numpy as np
import tensorflow as tf

tf.debugging.set_log_device_placement(True)
strategy = tf.distribute.MultiWorkerMirroredStrategy()
print("num_replicas_in_sync", strategy.num_replicas_in_sync, flush=True)
print("worker_devices", strategy.extended.worker_devices, flush=True)
task = json.loads(os.environ["TF_CONFIG"])["task"]["index"]

with strategy.scope():
    w = tf.Variable(tf.ones((3, 2)), name="w")
print("w.device", w.device, flush=True)

x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) * (task + 1))


def step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.matmul(x, w))
    return loss, tape.gradient(loss, w)


loss, grad = strategy.run(step, args=(x,))
total = strategy.reduce(tf.distribute.ReduceOp.SUM, grad, axis=None)
print("total", total.numpy().tolist(), flush=True)
mean_loss = strategy.reduce("MEAN", loss, axis=None)
print("mean_loss", float(mean_loss), flush=True)
w.assign_sub(0.1 * total)
print("w", w.numpy().tolist(), flush=True)
