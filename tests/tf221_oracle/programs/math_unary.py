# Issue 10 area 1 (math): elementwise unary ops of tf.math on float and int inputs.
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


x = tf.constant([-2.5, -1.0, -0.5, 0.0, 0.5, 1.5, 2.5])
p = tf.constant([0.25, 1.0, 4.0])
u = tf.constant([-0.5, 0.0, 0.5])
i = tf.constant([-3, -1, 0, 2])
cell("abs float", lambda: tf.abs(x))
cell("abs int", lambda: tf.abs(i))
cell("sign", lambda: tf.sign(x))
cell("sign int", lambda: tf.math.sign(i))
cell("negative", lambda: tf.negative(i))
cell("exp", lambda: tf.exp(p))
cell("log", lambda: tf.math.log(p))
cell("log of negative", lambda: tf.math.log(tf.constant([-1.0, 0.0])))
cell("log1p", lambda: tf.math.log1p(p))
cell("expm1", lambda: tf.math.expm1(p))
cell("sqrt", lambda: tf.sqrt(p))
cell("rsqrt", lambda: tf.math.rsqrt(p))
cell("square", lambda: tf.square(x))
cell("square int", lambda: tf.square(i))
cell("reciprocal", lambda: tf.math.reciprocal(p))
cell("sin cos tan", lambda: (tf.sin(p), tf.cos(p), tf.tan(p)))
cell("asin acos atan", lambda: (tf.asin(u), tf.acos(u), tf.atan(u)))
cell("sinh cosh tanh", lambda: (tf.sinh(u), tf.cosh(u), tf.tanh(u)))
cell("asinh acosh atanh", lambda: (tf.asinh(u), tf.acosh(p + 1.0), tf.atanh(u)))
cell("floor ceil", lambda: (tf.floor(x), tf.math.ceil(x)))
cell("round half to even", lambda: tf.round(x))
cell("rint", lambda: tf.math.rint(x))
cell("is_nan is_finite is_inf", lambda: (tf.math.is_nan(tf.constant([1.0, float("nan"), float("inf")])),
                                         tf.math.is_finite(tf.constant([1.0, float("nan"), float("inf")])),
                                         tf.math.is_inf(tf.constant([1.0, float("nan"), -float("inf")]))))
cell("sqrt of int (error)", lambda: tf.sqrt(i))
cell("exp of int (error)", lambda: tf.exp(tf.constant(1)))
cell("sigmoid via math", lambda: tf.math.sigmoid(u))
cell("erf", lambda: tf.math.erf(u))
cell("lgamma", lambda: tf.math.lgamma(p))
cell("float64 exp", lambda: tf.exp(tf.constant([1.0], dtype=tf.float64)))
