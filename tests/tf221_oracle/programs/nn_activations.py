# Issue 10 area 1 (tf.nn): activations.
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


x = tf.constant([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 7.0])
logits = tf.constant([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
cell("relu", lambda: tf.nn.relu(x))
cell("relu int", lambda: tf.nn.relu(tf.constant([-2, 3])))
cell("relu6", lambda: tf.nn.relu6(x))
cell("elu", lambda: tf.nn.elu(x))
cell("selu", lambda: tf.nn.selu(x))
cell("gelu exact", lambda: tf.nn.gelu(x))
cell("gelu approximate", lambda: tf.nn.gelu(x, approximate=True))
cell("sigmoid", lambda: tf.nn.sigmoid(x))
cell("softplus", lambda: tf.nn.softplus(x))
cell("softsign", lambda: tf.nn.softsign(x))
cell("leaky_relu", lambda: tf.nn.leaky_relu(x))
cell("leaky_relu alpha", lambda: tf.nn.leaky_relu(x, alpha=0.1))
cell("silu", lambda: tf.nn.silu(x))
cell("swish", lambda: tf.nn.swish(x))
cell("tanh", lambda: tf.nn.tanh(x))
cell("softmax", lambda: tf.nn.softmax(logits))
cell("softmax axis 0", lambda: tf.nn.softmax(logits, axis=0))
cell("log_softmax", lambda: tf.nn.log_softmax(logits))
cell("softmax int (error)", lambda: tf.nn.softmax(tf.constant([1, 2])))
cell("softmax large", lambda: tf.nn.softmax(tf.constant([1000.0, 1000.0])))
cell("relu float16", lambda: tf.nn.relu(tf.constant([-1.0, 2.0], dtype=tf.float16)))
cell("sigmoid float64", lambda: tf.nn.sigmoid(tf.constant([0.0, 1.0], dtype=tf.float64)))
