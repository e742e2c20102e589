import tensorflow as tf, numpy as np
x = tf.constant(np.arange(1*7*9*2, dtype=np.float32).reshape(1, 7, 9, 2) % 11)
for f in (tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool):
    for kw in (dict(pooling_ratio=[1.0, 1.44, 1.73, 1.0], seed=3), dict(pooling_ratio=[1.0, 1.5, 1.5, 1.0], pseudo_random=True, seed=5),
               dict(pooling_ratio=[1.0, 2.0, 1.5, 1.0], overlapping=True, seed=9), dict(pooling_ratio=[1.0, 1.3, 2.2, 1.0], pseudo_random=True, overlapping=True, seed=11)):
        out, r, c = f(x, **kw)
        print(f.__name__, kw, r.numpy().tolist(), c.numpy().tolist(), out.numpy().reshape(-1).tolist())
    with tf.GradientTape() as tape:
        tape.watch(x)
        out, r, c = f(x, [1.0, 1.44, 1.73, 1.0], seed=3, overlapping=True)
        y = tf.reduce_sum(out * tf.range(tf.size(out), dtype=tf.float32)[:, None, None, None][0:1] if False else out * out)
    print("grad", tape.gradient(y, x).numpy().reshape(-1).tolist())
