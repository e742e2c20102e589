import tensorflow as tf

# A tf.function called while another is traced: a PartitionedCall node in the caller's graph
# (StatefulPartitionedCall when the callee reads a variable), inlined before the caller is placed.
tf.debugging.set_log_device_placement(True)
v = tf.Variable([1.0, 2.0], name="v")
x = tf.constant([1.0, 2.0])


@tf.function
def scale(x):
    return x * v


@tf.function
def inner(x):
    return tf.square(x) + 1.0


@tf.function
def outer(x):
    y = inner(x)
    z = inner(y)
    return scale(z) - 1.0


print("RESULT", outer(x).numpy())
tf.debugging.set_log_device_placement(False)
ops = outer.get_concrete_function(x).graph.get_operations()
print("OPS", [(op.type, len(op.inputs)) for op in ops])
print("NAMES", [op.name for op in ops if op.type != "Placeholder"])
