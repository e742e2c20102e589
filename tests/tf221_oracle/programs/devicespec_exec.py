# Issue 13 area 4: device strings that parse in Python but fail (or not) when an op executes.
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


a = tf.constant([1.0, 2.0])


def run_in(dev):
    with tf.device(dev):
        return (a + a).device


for s in ["/CPU:-1", "/GPU:-1", "/job:1", "/job:my-job", "/job:localhost/task:+0", "/replica: 0", "/device:Cpu:0",
          "/device:XLA_CPU:0", "/device:foo:0", "/cpu:0/gpu:1", "/task:x", "/device:CPU", "cpu", "/GPU:01", "/device:CPU:*"]:
    cell(f"execute under {s!r}", lambda s=s: run_in(s))
with tf.device("/CPU:-1"):
    cell("constant under '/CPU:-1' scope", lambda: tf.constant(1.0).device)
