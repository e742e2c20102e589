# Issue 10 area 1/4 (casting): tf.cast semantics, unsigned/float16/bfloat16/complex values, bitcast, errors.
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


f = tf.constant([-1.7, -0.5, 0.5, 1.7, 300.0])
cell("cast float->int32 truncates", lambda: tf.cast(f, tf.int32))
cell("cast float->uint8", lambda: tf.cast(tf.constant([0.5, 1.7, 255.0]), tf.uint8))
cell("cast int->uint8 wraps", lambda: tf.cast(tf.constant([-1, 256, 257]), tf.uint8))
cell("cast float->bool", lambda: tf.cast(tf.constant([0.0, 0.1, -2.0]), tf.bool))
cell("cast bool->float", lambda: tf.cast(tf.constant([True, False]), tf.float32))
cell("cast to float16", lambda: tf.cast(tf.constant([0.1, 65504.0, 70000.0]), tf.float16))
cell("cast to bfloat16", lambda: tf.cast(tf.constant([0.1, 1.0, 3.14159, 1e30]), tf.bfloat16))
cell("bfloat16 constant repr", lambda: repr(tf.constant([1.5, 2.25], dtype=tf.bfloat16)))
cell("bfloat16 scalar repr", lambda: repr(tf.constant(0.1, dtype=tf.bfloat16)))
cell("bfloat16 add", lambda: tf.constant([1.0], tf.bfloat16) + tf.constant([0.001], tf.bfloat16))
cell("bfloat16 numpy dtype", lambda: tf.constant([1.0], tf.bfloat16).numpy().dtype)
cell("float16 repr", lambda: repr(tf.constant([0.1, 1.0 / 3.0], dtype=tf.float16)))
cell("float16 scalar repr", lambda: repr(tf.constant(0.1, dtype=tf.float16)))
cell("uint8 ops", lambda: tf.constant([250], tf.uint8) + tf.constant([10], tf.uint8))
cell("uint16 uint32 uint64", lambda: (tf.constant([65535], tf.uint16), tf.constant([2**32 - 1], tf.uint32), tf.constant([2**64 - 1], tf.uint64)))
cell("uint64 repr", lambda: repr(tf.constant(2**63, dtype=tf.uint64)))
cell("uint32 multiply", lambda: tf.constant([2**31], tf.uint32) * tf.constant([2], tf.uint32))
cell("int8 overflow in constant (error)", lambda: tf.constant([200], tf.int8))
cell("uint8 negative constant (error)", lambda: tf.constant([-1], tf.uint8))
cell("int16 cast saturate?", lambda: tf.cast(tf.constant([40000]), tf.int16))
cell("complex64 repr", lambda: repr(tf.constant([1 + 2j, -3j], dtype=tf.complex64)))
cell("complex128 default", lambda: tf.constant(1 + 1j).dtype)
cell("complex scalar repr", lambda: repr(tf.constant(1.5 - 2j)))
cell("cast complex->float (drops imag)", lambda: tf.cast(tf.constant([1 + 2j]), tf.float32))
cell("cast float->complex", lambda: tf.cast(tf.constant([1.5]), tf.complex64))
cell("cast string (error)", lambda: tf.cast(tf.constant(["1"]), tf.int32))
cell("cast to string (error)", lambda: tf.cast(tf.constant([1]), tf.string))
cell("bitcast float->int32", lambda: tf.bitcast(tf.constant([1.0, -2.0]), tf.int32))
cell("bitcast uint8", lambda: tf.bitcast(tf.constant([1], tf.int32), tf.uint8))
cell("saturate_cast", lambda: tf.dtypes.saturate_cast(tf.constant([-5, 300]), tf.uint8))
cell("numpy dtypes round trip", lambda: [tf.constant(np.array([1], dtype=d)).dtype for d in ["int8", "uint16", "uint32", "uint64", "float16", "complex64"]])
cell("numpy float64 stays float64", lambda: tf.constant(np.float64(1.5)).dtype)
cell("python float defaults float32", lambda: tf.constant(1.5).dtype)
cell("to_float deprecated gone?", lambda: hasattr(tf, "to_float"))
cell("cast same dtype", lambda: tf.cast(tf.constant([1, 2]), tf.int32))
cell("nan to int", lambda: tf.cast(tf.constant([float("nan")]), tf.int32).shape)
