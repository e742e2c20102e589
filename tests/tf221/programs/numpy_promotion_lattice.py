"""The auto dtype conversion lattice through tf.add (AddV2): every pair of 14 strong dtypes and weak
tensors from Python int, float and complex, in 'all' and 'safe' mode: the result's dtype (``w``: weak)
or the error's class."""
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

DTYPES = [tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.int8, tf.int16, tf.int32, tf.int64, tf.bfloat16,
          tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128]


def operands():
    return [tf.constant(1, d) for d in DTYPES] + [tf.constant(1), tf.constant(1.0), tf.constant(1j)]


def outcome(a, b):
    try:
        out = tf.add(a, b)
    except Exception as e:
        return type(e).__name__
    return out.dtype.name + ("w" if "weak=True" in repr(out) else "")


for mode in ("all", "safe"):
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
    values = operands()
    for a in values:
        print(mode, outcome(a, a).ljust(12), " ".join(outcome(a, b) for b in values))
    print(mode, "python", " ".join(outcome(a, p) for a in values for p in (2, 2.5, 1j)))
