"""An eager op's error ends `` name: `` only when its arguments came as tensors: a Python list
argument (made a tensor by the op's Python function) drops it — also under a device scope, where
the list becomes a host tensor without an ``_EagerConst``, and when the same list comes again."""
import tensorflow as tf

x = tf.constant([1.0, 2.0])
cases = [("gather list", lambda: tf.gather(x, [5])),
         ("gather list again", lambda: tf.gather(x, [5])),
         ("reshape list", lambda: tf.reshape(x, [3])),
         ("reshape tensor", lambda: tf.reshape(x, tf.constant([3])))]
for scope in (None, "/CPU:0"):
    for name, f in cases:
        try:
            if scope is None:
                f()
            else:
                with tf.device(scope):
                    f()
        except tf.errors.InvalidArgumentError as e:
            print(scope, name, repr(str(e).split("}} ")[-1]))
