# Issue 10 area 1 (tf.nn): bias_add, l2_normalize, dropout (seeded), cross entropies, moments.
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


x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
cell("bias_add", lambda: tf.nn.bias_add(x, [10.0, 20.0]))
cell("bias_add wrong size (error)", lambda: tf.nn.bias_add(x, [1.0, 2.0, 3.0]))
cell("l2_normalize", lambda: tf.nn.l2_normalize(tf.constant([3.0, 4.0])))
cell("l2_normalize axis", lambda: tf.nn.l2_normalize(x, axis=1))
cell("dropout rate 0", lambda: tf.nn.dropout(x, rate=0.0))
cell("dropout seeded", lambda: tf.nn.dropout(tf.ones([2, 4]), rate=0.5, seed=1))
cell("dropout rate 1 (error)", lambda: tf.nn.dropout(x, rate=1.0))
cell("sparse_softmax_cross_entropy_with_logits", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=x))
cell("sparse xent bad label (error)", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 5], logits=x))
cell("softmax_cross_entropy_with_logits", lambda: tf.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0], [0.5, 0.5]], logits=x))
cell("sigmoid_cross_entropy_with_logits", lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=[[1.0, 0.0], [0.0, 1.0]], logits=x))
cell("weighted_cross_entropy_with_logits", lambda: tf.nn.weighted_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[0.5, -0.5], pos_weight=2.0))
cell("moments", lambda: tf.nn.moments(x, axes=[0]))
cell("moments keepdims", lambda: tf.nn.moments(x, axes=[0, 1], keepdims=True))
cell("batch_normalization", lambda: tf.nn.batch_normalization(x, 2.5, 1.25, 0.0, 1.0, 1e-3))
cell("conv1d", lambda: tf.nn.conv1d(tf.reshape(tf.range(5.0), [1, 5, 1]), tf.ones([2, 1, 1]), stride=1, padding="VALID"))
cell("conv2d", lambda: tf.nn.conv2d(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), strides=2, padding="SAME"))
cell("max_pool2d", lambda: tf.nn.max_pool2d(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), 2, 2, "VALID"))
cell("avg_pool1d", lambda: tf.nn.avg_pool1d(tf.reshape(tf.range(4.0), [1, 4, 1]), 2, 2, "VALID"))
cell("embedding_lookup", lambda: tf.nn.embedding_lookup(tf.constant([[0.0, 1.0], [2.0, 3.0]]), [1, 1, 0]))
cell("log_poisson_loss", lambda: tf.nn.log_poisson_loss(tf.constant([1.0]), tf.constant([0.5])))
