"""A CheckpointManager on a directory with earlier saves takes them over (TensorFlow reads the
``checkpoint`` state file): its ``checkpoints`` list them, and ``max_to_keep`` deletes the oldest
of them as new saves come (the checkpoint guide's second training run)."""
import os
import tempfile

import tensorflow as tf

directory = tempfile.mkdtemp()
step = tf.Variable(0)
first = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), directory, max_to_keep=3)
for _ in range(5):
    step.assign_add(1)
    first.save()
print([os.path.basename(p) for p in first.checkpoints])
ckpt = tf.train.Checkpoint(step=tf.Variable(0))
second = tf.train.CheckpointManager(ckpt, directory, max_to_keep=3)
print([os.path.basename(p) for p in second.checkpoints], os.path.basename(second.latest_checkpoint))
ckpt.restore(second.latest_checkpoint)
print(int(ckpt.step))
for _ in range(2):
    second.save()
print([os.path.basename(p) for p in second.checkpoints])
print(sorted(os.listdir(directory)))
print(os.path.basename(tf.train.latest_checkpoint(directory)))
unlimited = tf.train.CheckpointManager(ckpt, directory, max_to_keep=None)
print([os.path.basename(p) for p in unlimited.checkpoints])
