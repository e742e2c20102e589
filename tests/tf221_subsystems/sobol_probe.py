import tensorflow as tf
print(tf.math.sobol_sample(3, 5, skip=2).numpy().tolist())
print(tf.math.sobol_sample(2, 3).numpy().tolist())
print(tf.math.sobol_sample(64, 4, skip=1000003, dtype=tf.float64).numpy().tolist())
print(tf.math.sobol_sample(7, 3, skip=2**31 - 5).numpy().tolist())
for a in [(0, 1), (2, -1), (2, 1, -1), (21201, 1)]:
    try:
        tf.math.sobol_sample(*a)
    except Exception as e:  # noqa: BLE001
        print(type(e).__name__, repr(str(e)))
