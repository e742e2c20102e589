# tf.nn's convolution and pooling take padding "SAME"/"VALID" (EXPLICIT) as the op defines it: a
# lowercase "valid" is the op's error eagerly, its builder's ValueError in a tf.function.
import tensorflow as tf

x, k = tf.ones((1, 4, 4, 1)), tf.ones((2, 2, 1, 1))
calls = [("conv2d", lambda p: tf.nn.conv2d(x, k, 1, p)),
         ("conv1d", lambda p: tf.nn.conv1d(tf.ones((1, 4, 1)), tf.ones((2, 1, 1)), 1, p)),
         ("max_pool2d", lambda p: tf.nn.max_pool2d(x, 2, 2, p)), ("avg_pool2d", lambda p: tf.nn.avg_pool2d(x, 2, 2, p))]
for name, call in calls:
    print(name, call("VALID").shape)
    try:
        call("valid")
    except tf.errors.InvalidArgumentError as e:
        print(name, type(e).__name__, str(e).splitlines()[0])


@tf.function
def traced(a):
    return tf.nn.conv2d(a, k, 1, "same")


try:
    traced(x)
except ValueError as e:
    print("traced", type(e).__name__, str(e).strip().splitlines()[-1].strip())
