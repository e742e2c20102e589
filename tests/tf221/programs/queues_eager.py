# tf.queue eagerly, placement logged: a FIFOQueue's ops on the CPU, its values and errors (a queue's number
# in them is a process-wide uid: replaced by N)
import os
import re
import sys

import tensorflow as tf


def err(f):
    try:
        print("OK", f())
    except Exception as e:
        print(type(e).__name__, re.sub(r"Queue '\d+'", "Queue 'N'", str(e)))


tf.debugging.set_log_device_placement(True)
q = tf.queue.FIFOQueue(10, tf.float32, ((),))
print(q.name, q.dtypes, q.shapes, q.names)
q.enqueue(1.0)
q.enqueue_many([[2.0, 3.0]])
print(q.size())
print(q.dequeue())
print(q.dequeue_many(2))
print(q.is_closed())
q.close()
print(q.is_closed())
err(q.dequeue)
err(lambda: q.enqueue(1.0))
sys.stdout.flush()
os._exit(0)  # before the queue's DestroyResourceOp at exit
