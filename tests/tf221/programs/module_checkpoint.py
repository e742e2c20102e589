# tf.train.Checkpoint / CheckpointManager: save, numbering, state file, restore, latest_checkpoint, errors (issue 11, item 3).
import os
import shutil
import tempfile

import tensorflow as tf

root = tempfile.mkdtemp()
os.chdir(root)


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
        self.layers = [tf.Variable(tf.constant([1, 2, 3], tf.int64), name="i"), tf.Variable(True, name="flag")]


net = Net()
ck = tf.train.Checkpoint(model=net, step=tf.Variable(7))
p1 = ck.save("out/model")
print(os.path.relpath(p1, root), ck.save_counter.numpy())
net.w.assign(tf.zeros([2, 2]))
net.layers[0].assign(tf.constant([0, 0, 0], tf.int64))
p2 = ck.save("out/model")
print(os.path.relpath(p2, root), os.path.relpath(tf.train.latest_checkpoint("out"), root))
print(sorted(os.listdir("out")))
print(open("out/checkpoint").read())
ck.restore(p1)
print(net.w.numpy(), net.layers[0].numpy(), net.layers[1].numpy(), ck.save_counter.numpy())
written = ck.write("out/plain")
print(os.path.relpath(written, root), sorted(os.listdir("out")))
mgr = tf.train.CheckpointManager(ck, "managed", max_to_keep=2)
for _ in range(3):
    print(os.path.relpath(mgr.save(), root))
print([os.path.relpath(p, root) for p in mgr.checkpoints], os.path.relpath(mgr.latest_checkpoint, root))
print(sorted(os.listdir("managed")))
state = open("managed/checkpoint").read().splitlines()
print([line for line in state if "timestamp" not in line], sum("timestamp" in line for line in state))
try:
    ck.restore("out/nothere-9")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(tf.train.latest_checkpoint("no_such_dir"))
shutil.rmtree(root)
