# tf.ragged_fill_empty_rows: outputs (numbers and strings), its gradient op, the gradient through the fill
# (tests/test_ragged_fill.py compares with ragged_fill_tf.txt)
import tensorflow as tf
r = tf.ragged_fill_empty_rows(value_rowids=tf.constant([0, 0, 2, 2], tf.int64), values=tf.constant([1., 2., 3., 4.]), nrows=tf.constant(4, tf.int64), default_value=tf.constant(-1.))
print(r)
print(tf.ragged_fill_empty_rows_grad(reverse_index_map=r[3], grad_values=tf.constant([1., 2., 3., 4., 5., 6.])))
v = tf.constant([1., 2., 3.])
d = tf.constant(0.5)
with tf.GradientTape() as t:
    t.watch([v, d])
    o = tf.ragged_fill_empty_rows(tf.constant([1, 1, 3], tf.int64), v, tf.constant(5, tf.int64), d)
    s = tf.reduce_sum(o.output_values * tf.range(1., 7.))
print([g.numpy().tolist() for g in t.gradient(s, [v, d])])
print(tf.ragged_fill_empty_rows(tf.constant([0, 2], tf.int64), tf.constant(["a", "b"]), tf.constant(3, tf.int64), tf.constant("z")).output_values)
