"""Samples of tf.queue's ops: every queue lives on the CPU (FIFOQueue asks for it; the other queues
have CPU kernels only), and the ops on a queue run where its resource is, whatever the scope."""

import numpy as np

import devtrace as tf

from . import Sample


def _fifo():
    q = tf.queue.FIFOQueue(4, tf.int32, shapes=[(2,)])
    q.enqueue(tf.constant([1, 2]))
    q.enqueue_many(tf.constant([[3, 4], [5, 6]]))
    return q


def _closed(take):
    q = _fifo()
    q.close()
    return take(q)


def _padding():
    q = tf.queue.PaddingFIFOQueue(3, tf.int32, shapes=[(None,)])
    q.enqueue(tf.constant([1, 2, 3]))
    q.enqueue(tf.constant([4]))
    return q.dequeue_many(2)


def _shuffled():
    q = tf.queue.RandomShuffleQueue(10, 2, tf.int32, shapes=[()], seed=3)
    q.enqueue_many(tf.range(8))
    return q.dequeue_many(3)


def _priority():
    q = tf.queue.PriorityQueue(3, tf.int32, shapes=[()])
    q.enqueue_many((tf.constant([5, 1], tf.int64), tf.constant([50, 10])))
    return q.dequeue()


_PAIR = np.array([1, 2], np.int32)
SAMPLES = [
    Sample("FIFOQueueV2", lambda: _fifo().dequeue(), _PAIR, "CPU"),
    Sample("QueueEnqueueV2", lambda: _fifo().dequeue(), _PAIR, "CPU"),
    Sample("QueueEnqueueManyV2", lambda: _fifo().size(), np.int32(3), "CPU"),
    Sample("QueueDequeueV2", lambda: _fifo().dequeue(), _PAIR, "CPU"),
    Sample("QueueDequeueManyV2", lambda: _fifo().dequeue_many(2), np.array([[1, 2], [3, 4]], np.int32), "CPU"),
    Sample("QueueDequeueUpToV2", lambda: _closed(lambda q: q.dequeue_up_to(5)),
           np.array([[1, 2], [3, 4], [5, 6]], np.int32), "CPU"),
    Sample("QueueCloseV2", lambda: _closed(lambda q: q.is_closed()), np.bool_(True), "CPU"),
    Sample("QueueIsClosedV2", lambda: _fifo().is_closed(), np.bool_(False), "CPU"),
    Sample("QueueSizeV2", lambda: _fifo().size(), np.int32(3), "CPU"),
    Sample("PaddingFIFOQueueV2", _padding, np.array([[1, 2, 3], [4, 0, 0]], np.int32), "CPU"),
    # TensorFlow 2.21's order for this seed (global seed unset: the op's seed 3 with the default graph seed)
    Sample("RandomShuffleQueueV2", _shuffled, lambda v: sorted(v.tolist()) != v.tolist() and len(set(v.tolist())) == 3,
           "CPU"),
    Sample("PriorityQueueV2", _priority, [np.int64(1), np.int32(10)], "CPU"),
]
