"""Ops through the eager hot path and each of its ways out, printing everything a user or a view can
see of them: values, trace records, allocator counters, memory info, errors and their chains.

tests/test_fastpath.py runs it with the C module (``runtime/_fastpath.c``) and with the Python
references (``DEVTRACE_PURE_PYTHON=1``); the two outputs must be the same, line for line.
"""

import os
import sys

os.environ["DEVTRACE_SIMULATE"] = "1xT4:1MiB"
os.environ["DEVTRACE_NVML"] = "0"

import numpy as np  # noqa: E402

import devtrace as tf  # noqa: E402
from devtrace.runtime.context import context  # noqa: E402
from devtrace.runtime.dtypes import ListValue  # noqa: E402
from devtrace.runtime.eager.executor import execute_binary  # noqa: E402
from devtrace.runtime.registry import register  # noqa: E402


def show(label, value):
    print(f"{label}: {value!r}")


def records():
    """The trace so far, times left out (they differ run to run)."""
    for event in context().trace.events:
        fields = {k: v for k, v in vars_of(event).items() if k != "duration_ns"}
        print("  ", fields)
    context().trace._events.clear()
    context().trace._done = 0


def vars_of(event):
    return {name: getattr(event, name) for name in event.__slots__}


def allocators():
    for device in context().devices:
        a = device.allocator
        print("  ", device.name, a.bytes_in_use, a.peak_bytes_in_use, a.num_allocs, a.largest_alloc_size)


def error(label, fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        print(f"{label}: {type(e).__name__}: {e}")
        print(f"  cause={e.__cause__!r} suppress={e.__suppress_context__} context={type(e.__context__).__name__}")


a32 = np.arange(6, dtype=np.float32).reshape(2, 3)
with tf.device("/CPU:0"):
    x, y = tf.constant(a32), tf.constant(a32 + 1)
    for fn in (tf.add, tf.subtract, tf.multiply, tf.divide, tf.maximum, tf.minimum, tf.less, tf.greater_equal):
        show(fn.__name__, fn(x, y).numpy())
    show("operators", (x + y * x - y / (x + 1)).numpy())
    s = tf.constant(3, dtype=tf.int32)
    show("scalar", tf.add(s, s).numpy())
    show("int overflow", tf.multiply(tf.constant(2**30, dtype=tf.int32), tf.constant(4, dtype=tf.int32)).numpy())
    show("broadcast", tf.add(x, tf.constant([1.0, 2.0, 3.0])).numpy())
    show("named", tf.add(x, y, name="plus").numpy())
    big = tf.constant(np.ones((300, 300), np.float32))  # 360,000 bytes: oneDNN's allocator books it too
    show("large", float(tf.reduce_sum(tf.add(big, big))))
    del big
    error("shapes", lambda: tf.add(x, tf.constant([1.0, 2.0])))
    error("dtypes", lambda: tf.add(x, tf.constant([1, 2, 3])))
records()
allocators()

with tf.device("/GPU:0"):
    g = tf.constant(a32)
    h = tf.add(g, g)
    show("gpu", h.numpy())
    show("gpu memory", tf.config.experimental.get_memory_info("GPU:0"))
    del h
    show("gpu memory after del", tf.config.experimental.get_memory_info("GPU:0"))
    fill = tf.constant(np.ones(262048, np.float32))  # what is left of the 1 MiB: the next output does not fit
    error("oom", lambda: tf.add(g, g))
    del fill
    show("gpu memory after oom", tf.config.experimental.get_memory_info("GPU:0"))
records()
allocators()

register("PairToList", lambda xp, a, b: ListValue.of([a, b]), device_types=["CPU", "GPU"])  # a variant: finish() takes it
register("PairToNone", lambda xp, a, b: None, device_types=["CPU", "GPU"])  # no output: a resource handle
register("PairRaises", lambda xp, a, b: (_ for _ in ()).throw(ValueError("kernel says no")), device_types=["CPU"])
with tf.device("/CPU:0"):
    for op_name in ("PairToList", "PairToNone", "PairRaises"):
        for _ in range(2):  # the second call finds its placement cached
            error(op_name, lambda: show(op_name, type(execute_binary(op_name, x, y)).__name__))
records()

tf.debugging.set_log_device_placement(True)
with tf.device("/CPU:0"):
    show("logged", tf.add(x, y).numpy())
tf.debugging.set_log_device_placement(False)
with tf.GradientTape() as tape:
    v = tf.Variable(2.0)
    out = tf.multiply(v, tf.constant(3.0))
show("gradient", float(tape.gradient(out, v)))
records()

with tf.device("/CPU:0"):
    t = x
    for _ in range(5000):  # across Trace.FLUSH_EVERY
        t = tf.add(t, x)
    show("chain", t.numpy())
show("seq", context().trace._seq)
allocators()
sys.stdout.flush()
