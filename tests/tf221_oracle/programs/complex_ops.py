# Issue 10 area 1/4 (complex dtypes): construction, parts, arithmetic, reprs.
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


z = tf.constant([1 + 2j, -3 + 0.5j], dtype=tf.complex64)
cell("repr complex64", lambda: repr(z))
cell("complex()", lambda: tf.complex(tf.constant([1.0, 2.0]), tf.constant([3.0, -1.0])))
cell("complex() float64 -> complex128", lambda: tf.complex(tf.constant([1.0], tf.float64), tf.constant([1.0], tf.float64)).dtype)
cell("complex() int (error)", lambda: tf.complex(tf.constant([1]), tf.constant([1])))
cell("real imag", lambda: (tf.math.real(z), tf.math.imag(z)))
cell("real of float", lambda: tf.math.real(tf.constant([1.5])))
cell("angle", lambda: tf.math.angle(z))
cell("conj", lambda: tf.math.conj(z))
cell("abs complex", lambda: tf.abs(z))
cell("multiply complex", lambda: z * z)
cell("divide complex", lambda: z / tf.constant([1j, 2], dtype=tf.complex64))
cell("exp complex", lambda: tf.exp(tf.constant([3.141592653589793j], dtype=tf.complex128)))
cell("sqrt complex", lambda: tf.sqrt(tf.constant([-4 + 0j], dtype=tf.complex64)))
cell("reduce_sum complex", lambda: tf.reduce_sum(z))
cell("complex + float (error)", lambda: z + tf.constant([1.0, 1.0]))
cell("complex < (error)", lambda: z < z)
cell("matmul complex128", lambda: tf.matmul(tf.constant([[1j]]), tf.constant([[1j]])))
cell("fft", lambda: tf.signal.fft(tf.constant([1, 0, 0, 0], dtype=tf.complex64)))
cell("complex scalar format", lambda: str(tf.constant(2 + 3j)))
cell("complex numpy", lambda: repr(z.numpy()))
