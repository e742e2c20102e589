# Issue 13 area 2: eager device errors (soft placement on): unknown job/replica/task, tf.device(callable), e.op/e.node_def.
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


a = tf.constant([[1.0, 2.0], [3.0, 4.0]])


def catch(f):
    try:
        f()
    except Exception as e:
        return e


def run_in(dev, f):
    with tf.device(dev):
        return f()


cell("unknown job constant", lambda: run_in("/job:worker", lambda: tf.constant(1.0)))
cell("unknown job matmul", lambda: run_in("/job:worker", lambda: tf.matmul(a, a)))
cell("unknown replica matmul", lambda: run_in("/job:localhost/replica:1", lambda: tf.matmul(a, a)))
cell("unknown task constant", lambda: run_in("/job:localhost/replica:0/task:3", lambda: tf.constant([1])))
cell("unknown task add", lambda: run_in("/job:localhost/task:3", lambda: a + a))
cell("unknown job Variable", lambda: run_in("/job:ps/task:0", lambda: tf.Variable(1.0)))
cell("e.op e.node_def", lambda: (lambda e: (type(e).__name__, e.op, e.node_def))(catch(lambda: run_in("/job:worker", lambda: tf.matmul(a, a)))))
cell("e.message", lambda: catch(lambda: run_in("/job:worker", lambda: tf.matmul(a, a))).message)
cell("tf.device(callable)", lambda: run_in(lambda op: "/CPU:0", lambda: a + a))
cell("tf.device(DeviceSpec)", lambda: run_in(tf.DeviceSpec(device_type="CPU", device_index=0), lambda: (a + a).device))
cell("tf.device(123) (error)", lambda: run_in(123, lambda: a + a))
cell("tf.device('bogus') (error)", lambda: run_in("bogus", lambda: a + a))
cell("tf.device('/device:XLA_CPU:0')", lambda: run_in("/device:XLA_CPU:0", lambda: (a + a).device))
cell("tf.device('') inherits", lambda: run_in("", lambda: (a + a).device))
cell("tf.device(None)", lambda: run_in(None, lambda: (a + a).device))
cell("nested scopes inner wins", lambda: run_in("/job:localhost", lambda: run_in("/CPU:0", lambda: (a + a).device)))
cell("named op error suffix", lambda: tf.matmul(a, tf.ones([3, 3]), name="mm"))
cell("unnamed op error suffix", lambda: tf.matmul(a, tf.ones([3, 3])))
cell("device of result", lambda: (a + a).device)
cell("tensor device after cpu()", lambda: a.cpu().device)
cell("gpu() (error)", lambda: a.gpu())
cell("executing_eagerly", lambda: tf.executing_eagerly())
cell("device policy get", lambda: tf.config.experimental.get_device_policy())
cell("device policy set bad (error)", lambda: tf.config.experimental.set_device_policy("bogus"))
