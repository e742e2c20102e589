import tensorflow as tf

# A tf.function called twice with one signature while another is traced is traced once there
# (two call nodes of one function); another signature traces it again.
@tf.function
def inner(x):
    print("tracing inner", x.shape)
    return x * 2.0


@tf.function
def outer(x):
    print("tracing outer")
    return inner(x) + inner(x + 1.0) + tf.reduce_sum(inner(tf.ones((3,))))


print(outer(tf.constant([1.0, 2.0])).numpy())
print([op.type for op in outer.get_concrete_function(tf.constant([1.0, 2.0])).graph.get_operations()
       if "Call" in op.type])
