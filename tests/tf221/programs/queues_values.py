# tf.queue eagerly: FIFOQueue, PaddingFIFOQueue, PriorityQueue, RandomShuffleQueue (a seeded order),
# their values and errors (a queue's number in them is a process-wide uid: replaced by N)
import re

import tensorflow as tf


def err(f):
    try:
        print("OK", f())
    except Exception as e:
        print(type(e).__name__, re.sub(r"Queue '\d+'", "Queue 'N'", str(e)))


u = tf.queue.FIFOQueue(10, tf.int32)
u.enqueue(1)
err(lambda: u.dequeue_many(1))
err(lambda: u.enqueue(1.5))
q2 = tf.queue.FIFOQueue(3, [tf.int32, tf.float32], shapes=[(), (2,)], names=["a", "b"])
print(q2.name, q2.names, q2.shapes, q2.dtypes)
err(lambda: q2.enqueue({"a": 1, "b": [1., 2.]}))
err(lambda: q2.enqueue({"a": 1, "b": [1., 2., 3.]}))
err(lambda: q2.enqueue((1, [1., 2.])))
err(lambda: q2.dequeue())
err(lambda: q2.enqueue_many({"a": [1, 2, 3], "b": [[1., 2.]] * 3}))
err(lambda: q2.dequeue_up_to(1))
q2.close()
err(lambda: q2.dequeue_many(5))
err(lambda: q2.dequeue_up_to(5))
err(lambda: q2.dequeue_up_to(5))
err(lambda: q2.enqueue_many({"a": [1], "b": [[1., 2.]]}))
p = tf.queue.PaddingFIFOQueue(5, [tf.int32], shapes=[(None,)])
print(p.name, p.shapes)
p.enqueue([[1, 2, 3]])
p.enqueue([[4]])
err(lambda: p.dequeue_many(2))
pq = tf.queue.PriorityQueue(5, [tf.string], shapes=[()])
print(pq.dtypes, pq.shapes)
for priority, value in ((5, "five"), (1, "one"), (3, "three")):
    pq.enqueue((tf.constant(priority, tf.int64), value))
err(lambda: pq.dequeue())
err(lambda: pq.dequeue_many(2))
tf.random.set_seed(1)
r = tf.queue.RandomShuffleQueue(10, 2, tf.int32, shapes=[()], seed=3)
r.enqueue_many([tf.range(8)])
err(lambda: r.dequeue_many(3))
err(lambda: r.dequeue())
err(lambda: r.dequeue_up_to(2))
r.close()
err(lambda: r.dequeue_many(4))
err(lambda: r.dequeue_up_to(10))
err(lambda: r.dequeue())
with tf.name_scope("sc"):
    g = tf.queue.FIFOQueue(2, tf.int32)
print(g.name)
err(lambda: tf.queue.FIFOQueue(2, tf.int32, shapes=[(None,)]))
