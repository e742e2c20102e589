# tf.nn.ctc_loss of dense labels (its docstring example's inputs), losses and gradients; run under TensorFlow 2.21
# and devtrace, each line of output a JSON list (tests/test_ctc_loss.py)
import numpy as np
import tensorflow as tf
np.set_printoptions(precision=6)
tf.random.set_seed(50)
batch_size = 8; num_labels = 6; max_label_length = 5; num_frames = 12
labels = tf.random.uniform([batch_size, max_label_length], minval=1, maxval=num_labels, dtype=tf.int64)
logits = tf.random.uniform([num_frames, batch_size, num_labels])
label_length = tf.random.uniform([batch_size], minval=2, maxval=max_label_length, dtype=tf.int64)
label_mask = tf.sequence_mask(label_length, maxlen=max_label_length, dtype=label_length.dtype)
labels *= label_mask
logit_length = [num_frames] * batch_size
with tf.GradientTape() as t:
    t.watch(logits)
    ref_loss = tf.nn.ctc_loss(labels=labels, logits=logits, label_length=label_length, logit_length=logit_length, blank_index=0)
ref_grad = t.gradient(ref_loss, logits)
print(ref_loss.numpy().tolist())
print(ref_grad.numpy()[:2, :2].tolist())
with tf.GradientTape() as t:
    t.watch(logits)
    l2 = tf.nn.ctc_loss(labels=labels, logits=tf.transpose(logits, [1, 0, 2]), label_length=label_length, logit_length=[12, 10, 9, 12, 5, 12, 12, 8], blank_index=-1, logits_time_major=False)
    s = tf.reduce_sum(l2 * tf.range(8.0))
print(l2.numpy().tolist())
print(t.gradient(s, logits).numpy()[8:10, :2].tolist())
