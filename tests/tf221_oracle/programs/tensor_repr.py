# Issue 10 area 4 (printing): repr/str of eager tensors of every kind and shape.
import tensorflow as tf
import sys
import numpy as np


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


cell("repr 0-d float", lambda: repr(tf.constant(21.0)))
cell("str 0-d float", lambda: str(tf.constant(21.0)))
cell("repr 0-d int", lambda: repr(tf.constant(7)))
cell("repr 0-d bool", lambda: repr(tf.constant(True)))
cell("repr 0-d string", lambda: repr(tf.constant("hello")))
cell("str 0-d string", lambda: str(tf.constant("hello")))
cell("repr unicode string", lambda: repr(tf.constant("héllo")))
cell("repr bytes", lambda: repr(tf.constant(b"\x00\xff")))
cell("repr vector float", lambda: repr(tf.constant([1.0, 2.5, -3.0])))
cell("str vector float", lambda: str(tf.constant([1.0, 2.5, -3.0])))
cell("repr vector int", lambda: repr(tf.constant([1, 2, 3])))
cell("repr int64 vector", lambda: repr(tf.constant([1, 2], dtype=tf.int64)))
cell("repr 2-d", lambda: repr(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
cell("str 2-d", lambda: str(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
cell("str 2-d int", lambda: str(tf.constant([[22, 28], [49, 64]])))
cell("repr 3-d", lambda: repr(tf.reshape(tf.range(8), [2, 2, 2])))
cell("str 3-d", lambda: str(tf.reshape(tf.range(8.0), [2, 2, 2])))
cell("repr string vector", lambda: repr(tf.constant(["a", "bc"])))
cell("str string matrix", lambda: str(tf.constant([["a", "b"], ["c", "d"]])))
cell("repr bool vector", lambda: repr(tf.constant([True, False])))
cell("repr empty", lambda: repr(tf.constant([], dtype=tf.float32)))
cell("str empty 2-d", lambda: str(tf.zeros([0, 3])))
cell("repr float64", lambda: repr(tf.constant([0.1], dtype=tf.float64)))
cell("repr float32 precision", lambda: repr(tf.constant([0.1, 1 / 3])))
cell("repr 0-d float32 precision", lambda: repr(tf.constant(1 / 3)))
cell("repr large floats", lambda: repr(tf.constant([1e10, 1e-10])))
cell("repr nan inf", lambda: repr(tf.constant([float("nan"), float("inf"), -float("inf")])))
cell("repr long vector summarised", lambda: repr(tf.range(2000)))
cell("str long vector summarised", lambda: str(tf.range(1001.0)))
cell("str 1000 elements not summarised head", lambda: str(tf.range(1000))[:60])
cell("repr wide matrix wraps", lambda: repr(tf.reshape(tf.range(40.0), [2, 20])))
cell("np.set_printoptions precision=2", lambda: (np.set_printoptions(precision=2), repr(tf.constant([1 / 3, 2 / 3])))[1])
cell("np.set_printoptions restore", lambda: (np.set_printoptions(precision=8), repr(tf.constant([1 / 3])))[1])
cell("print tuple of tensors", lambda: (tf.constant(1), tf.constant([2.0])))
cell("print list of tensors", lambda: [tf.constant("x")])
cell("repr 0-d uint8", lambda: repr(tf.constant(200, dtype=tf.uint8)))
cell("repr 0-d float16", lambda: repr(tf.constant(1.5, dtype=tf.float16)))
cell("repr -0.0", lambda: repr(tf.constant(-0.0)))
