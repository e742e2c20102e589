# Issue 13 area 1: _EagerConst device and scalar cache (value, dtype, device) under explicit device scopes.
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
c = tf.constant([1.0, 2.0])
cell("add 3.0 no scope", lambda: tf.add(c, 3.0))
cell("add 3.0 no scope again", lambda: tf.add(c, 3.0))
with tf.device("/CPU:0"):
    cell("add 3.0 under CPU:0", lambda: tf.add(c, 3.0))
    cell("add 3.0 under CPU:0 again", lambda: tf.add(c, 3.0))
    cell("constant under CPU:0", lambda: tf.constant(4.0))
    cell("zeros under CPU:0", lambda: tf.zeros([2]))
with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
    cell("add 3.0 under full CPU:0 name", lambda: tf.add(c, 3.0))
cell("add 3 int vs 3.0 float", lambda: tf.add(tf.constant([1, 2]), 3))
cell("add 3 int again", lambda: tf.add(tf.constant([1, 2]), 3))
cell("add 3.0 float64", lambda: tf.add(tf.constant([1.0], tf.float64), 3.0))
cell("tf.constant(3.0) explicit", lambda: tf.constant(3.0))
cell("tf.constant(3.0) explicit again", lambda: tf.constant(3.0))
cell("convert_to_tensor(3.0)", lambda: tf.convert_to_tensor(3.0))
cell("list operand", lambda: c + [1.0, 1.0])
cell("list operand again", lambda: c + [1.0, 1.0])
cell("numpy operand", lambda: c + __import__("numpy").array([1.0, 1.0], dtype="float32"))
cell("reshape shape list", lambda: tf.reshape(c, [2, 1]))
cell("reshape shape list again", lambda: tf.reshape(c, [2, 1]))
cell("reshape shape tuple", lambda: tf.reshape(c, (1, 2)))
cell("reduce_sum axis 0 python int", lambda: tf.reduce_sum(c, 0))
cell("reduce_sum axis tensor", lambda: tf.reduce_sum(c, tf.constant(0)))
cell("fill value and dims", lambda: tf.fill([3], 9))
cell("range bounds", lambda: tf.range(2, 8, 2))
cell("transpose perm", lambda: tf.transpose(tf.ones([2, 3]), [1, 0]))
cell("tile multiples", lambda: tf.tile(c, [2]))
cell("pad paddings", lambda: tf.pad(c, [[1, 1]]))
cell("expand_dims axis", lambda: tf.expand_dims(c, 1))
cell("cumsum axis", lambda: tf.cumsum(c))
cell("split", lambda: tf.split(c, 2))
cell("strided slice with step", lambda: c[::-1])
cell("Variable init from python float", lambda: tf.Variable(1.0).dtype)
