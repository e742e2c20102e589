# Mixing dtypes in a tf.function and eagerly: TensorFlow's TypeError texts (a graph checks an op's input dtypes as the node is built; a Python value converts to the other input's dtype, or says which parameter it was passed to).
import tensorflow as tf

cases = {
    "xi + 0.5": lambda xi, xf: xi + 0.5,
    "xi + xf": lambda xi, xf: xi + xf,
    "add(xi, 0.5)": lambda xi, xf: tf.add(xi, 0.5),
    "add(0.5, xi)": lambda xi, xf: tf.add(0.5, xi),
    "add(xi, 'a')": lambda xi, xf: tf.add(xi, "a"),
    "subtract(xi, xf)": lambda xi, xf: tf.subtract(xi, xf),
    "xi - 'a'": lambda xi, xf: xi - "a",
    "multiply(xi, 0.5)": lambda xi, xf: tf.multiply(xi, 0.5),
    "multiply(2, xf)": lambda xi, xf: tf.multiply(2, xf),
    "multiply(2.5, xf)": lambda xi, xf: tf.multiply(2.5, xf),
    "multiply(xi, [1, 2.5])": lambda xi, xf: tf.multiply(xi, [1, 2.5]),
    "xi * 0.5": lambda xi, xf: xi * 0.5,
    "0.5 * xi": lambda xi, xf: 0.5 * xi,
    "2 * xf": lambda xi, xf: 2 * xf,
    "xi * True": lambda xi, xf: xi * True,
    "maximum(xi, 1.5)": lambda xi, xf: tf.maximum(xi, 1.5),
    "maximum([1, 2], xf)": lambda xi, xf: tf.maximum([1, 2], xf),
    "less(0.5, xi)": lambda xi, xf: tf.less(0.5, xi),
    "less(1, 2.5)": lambda xi, xf: tf.less(1, 2.5),
    "xi < 0.5": lambda xi, xf: xi < 0.5,
    "pow(xi, 0.5)": lambda xi, xf: tf.pow(xi, 0.5),
    "xi / 2.5": lambda xi, xf: xi / 2.5,
    "xi / 2": lambda xi, xf: xi / 2,
    "2.5 / xi": lambda xi, xf: 2.5 / xi,
    "truediv(xi, xf)": lambda xi, xf: tf.math.truediv(xi, xf),
    "constant(0.5, int32)": lambda xi, xf: tf.constant(0.5, tf.int32),
    "constant([1, 2.5], int32)": lambda xi, xf: tf.constant([1, 2.5], tf.int32),
    "constant(1.5, bool)": lambda xi, xf: tf.constant(1.5, tf.bool),
}
xi, xf = tf.constant(2), tf.constant(1.5)
for mode in ("function", "eager"):
    for label, fn in cases.items():
        try:
            r = tf.function(fn)(xi, xf) if mode == "function" else fn(xi, xf)
            print(mode, label, "| ok", r.dtype.name, r.numpy())
        except Exception as e:
            print(mode, label, "|", type(e).__name__, "|", str(e).strip().splitlines()[-1].strip())
