# Issue 13 area 1: Variable creation/reads/prints as ops (VarHandleOp, AssignVariableOp, ReadVariableOp, Identity).
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
v = None


def make():
    global v
    v = tf.Variable([1.0, 2.0], name="v")
    return v.name


cell("create Variable", make)
cell("read_value", lambda: v.read_value())
cell("value()", lambda: v.value())
cell("print(v) (str)", lambda: str(v))
cell("repr(v)", lambda: repr(v))
cell("v.numpy()", lambda: v.numpy().tolist())
cell("assign_add", lambda: v.assign_add([1.0, 1.0]).shape)
cell("assign_add read_value=False", lambda: v.assign_add([1.0, 1.0], read_value=False))
cell("assign", lambda: v.assign([0.0, 0.0]).shape)
cell("assign_sub", lambda: v.assign_sub([1.0, 1.0]).shape)
cell("v + 1", lambda: v + 1.0)
cell("tf.add(v, v)", lambda: tf.add(v, v))
cell("v[0]", lambda: v[0])
cell("scatter_nd_update", lambda: v.scatter_nd_update([[0]], [5.0]).shape)
cell("v.shape (no op)", lambda: v.shape)
cell("convert_to_tensor(v)", lambda: tf.convert_to_tensor(v))
cell("tf.identity(v)", lambda: tf.identity(v))
with tf.device("/CPU:0"):
    cell("read under CPU:0 scope", lambda: v.read_value())
    cell("create under CPU:0 scope", lambda: tf.Variable(0, name="w").device)
cell("int Variable", lambda: tf.Variable([1, 2]).dtype)
cell("Variable from tensor", lambda: tf.Variable(tf.zeros([2])).shape)
cell("non-trainable Variable", lambda: tf.Variable(1.0, trainable=False).trainable)
