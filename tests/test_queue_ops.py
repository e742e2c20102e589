"""tf.queue (issue 28): queues as TensorFlow 2.21's resource ops. Eager values, errors and placement
are compared with TensorFlow's own output by ``tests/tf221/programs/queues_eager.py`` and
``queues_values.py`` (``tests/test_tf221.py``); here the TF1 graph (its node names, the placer's
lines, a Session's runs and its error, as tensorflow-cpu 2.21 printed them for the same program),
placement on a machine with a GPU (TensorFlow's FIFOQueue asks for the CPU and its ops follow the
queue's resource), tf.function, and what devtrace cannot do (wait on a queue) in one line."""

from __future__ import annotations

import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context
from devtrace.runtime.graph import graph as graph_mod
from devtrace.trace import events as ev

v1 = tf.compat.v1
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"


def _ctx(gpus=(), eager=True):
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated" if gpus else "cpu"), env={})
    v1.reset_default_graph()
    if not eager:
        v1.disable_eager_execution()
    return ctx


@pytest.fixture
def restore():
    yield
    graph_mod.reset_default_graph()
    ctx = reset_context()
    ctx.eager = True


def _placed(ctx, start=0):
    return [(e.node or e.op, e.op, e.device) for e in ctx.trace.of(ev.OpPlaced)][start:]


def test_a_tf1_graph_runs_a_queue_as_tensorflow(restore):
    """tensorflow-cpu 2.21 on the same program: names, values, the placer's nodes, the error."""
    ctx = _ctx(eager=False)
    q = tf.queue.FIFOQueue(3, tf.float32, shapes=[()])
    enq = q.enqueue_many([[1., 2., 3.]])
    deq = q.dequeue()
    assert (q.name, enq.name, deq.name, q.queue_ref.dtype) == ("fifo_queue", "fifo_queue_EnqueueMany",
                                                               "fifo_queue_Dequeue:0", tf.resource)
    with v1.Session() as s:
        s.run(enq)
        assert [n for n, _, _ in _placed(ctx)] == ["fifo_queue_EnqueueMany", "fifo_queue_Dequeue", "fifo_queue",
                                                   "fifo_queue_EnqueueMany/component_0"]
        assert s.run(deq) == 1.0
        assert s.run(q.size()) == 2
        assert s.run(q.dequeue_many(2)).tolist() == [2.0, 3.0]
        assert s.run(q.close()) is None
        with pytest.raises(tf.errors.OutOfRangeError) as e:
            s.run(deq)
    assert "FIFOQueue '_0_fifo_queue' is closed and has insufficient elements (requested 1, current size 0)\n\t " \
           "[[{{node fifo_queue_Dequeue}}]]" in e.value.message
    assert {d for _, _, d in _placed(ctx)} == {CPU0}


def test_queue_ops_follow_the_queue_onto_the_cpu_on_a_gpu_machine(restore):
    ctx = _ctx(tuple(simulated.parse_simulate("1")))
    with tf.device("/GPU:0"):
        q = tf.queue.FIFOQueue(3, tf.float32, shapes=[()])
        x = tf.constant([1.0, 2.0])
        q.enqueue_many(x)
        got = q.dequeue()
        size = q.size()
    assert x.device == GPU0 and got.device == CPU0 and size.device == CPU0
    assert {(op, d) for _, op, d in _placed(ctx) if op.startswith(("Queue", "FIFO"))} == {
        ("FIFOQueueV2", CPU0), ("QueueEnqueueManyV2", CPU0), ("QueueDequeueV2", CPU0), ("QueueSizeV2", CPU0)}
    assert [e.src for e in ctx.trace.of(ev.TensorCopied)] == [GPU0]  # the enqueued tensor, to the queue


def test_a_tf1_graph_colocates_the_queues_ops_with_it_on_a_gpu_machine(restore):
    ctx = _ctx(tuple(simulated.parse_simulate("1")), eager=False)
    q = tf.queue.FIFOQueue(3, tf.float32, shapes=[()])
    enq = q.enqueue(1.0)
    size = q.size()
    with v1.Session() as s:
        s.run(enq)
        assert s.run(size) == 1
    assert {(n, d) for n, _, d in _placed(ctx)} >= {("fifo_queue", CPU0), ("fifo_queue_enqueue", CPU0),
                                                    ("fifo_queue_Size", CPU0)}


def test_a_function_uses_an_eager_queue(restore):
    _ctx()
    q = tf.queue.FIFOQueue(5, tf.int32, shapes=[()])

    @tf.function
    def produce(x):
        q.enqueue(x)
        q.enqueue(x + 1)
        return q.size()

    assert int(produce(tf.constant(1))) == 2
    assert int(produce(tf.constant(10))) == 4
    assert q.dequeue_many(4).numpy().tolist() == [1, 2, 10, 11]


def test_a_queue_made_in_a_function_is_made_once(restore):
    _ctx()

    @tf.function
    def make():
        q = tf.queue.FIFOQueue(2, tf.int32, shapes=[()])  # TensorFlow's init_scope: made eagerly
        q.enqueue(7)
        return q.dequeue()

    assert int(make()) == 7


def test_waiting_on_a_queue_fails_in_one_line_naming_it(restore):
    _ctx()
    q = tf.queue.FIFOQueue(1, tf.int32)
    with pytest.raises(tf.errors.UnimplementedError, match=r"FIFOQueue '\d+' has 0 elements, fewer than the 1 a "
                                                            r"dequeue needs: TensorFlow would wait for an enqueue; "
                                                            r"devtrace does not implement waiting on a queue yet"):
        q.dequeue()
    q.enqueue(1)
    with pytest.raises(tf.errors.UnimplementedError, match=r"FIFOQueue '\d+' is full \(capacity 1\)"):
        q.enqueue(2)


def test_the_queue_names_are_tensorflows():
    assert sorted(n for n in vars(tf.queue) if not n.startswith("_")) == [
        "FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue"]
