"""Which constants log an ``_EagerConst`` on a worker of a cluster: in and out of the strategy's scope
(the context's device name printed where TensorFlow's private API tells it)."""
import tensorflow as tf


def device_name():
    try:
        from tensorflow.python.eager import context
    except ImportError:
        return "?"
    return repr(context.context().device_name)


tf.debugging.set_log_device_placement(True)
print("A device_name", device_name(), flush=True)
strategy = tf.distribute.MultiWorkerMirroredStrategy()
print("B device_name", device_name(), flush=True)
with strategy.scope():
    print("C in scope device_name", device_name(), flush=True)
    print("--- ones in scope", flush=True)
    a = tf.ones((3, 2))
    print("--- constant in scope", flush=True)
    b = tf.constant([1.0, 2.0])
print("--- ones outside", flush=True)
c = tf.ones((3, 2))
print("--- zeros outside", flush=True)
c = tf.zeros((3, 2))
print("--- constant outside", flush=True)
d = tf.constant([1.0, 2.0])
print("--- constant outside again same", flush=True)
d = tf.constant([1.0, 2.0])
print("--- scalar mul", flush=True)
e = 0.1 * d
print("--- scalar mul again", flush=True)
e = 0.1 * d
print("--- fill", flush=True)
f = tf.fill((2, 2), 3.0)
print("--- end", flush=True)
