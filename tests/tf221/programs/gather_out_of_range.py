"""Out-of-range gather indices on the CPU: TensorFlow's CPU kernels raise, naming the index by its
position in ``indices`` (``indices[1,0]``; a scalar index: ``indices``); an empty output checks
nothing. (TensorFlow's GPU kernels return zeros instead: ``tests/test_gpu_index_kernels.py``.)"""
import tensorflow as tf

cases = [("vector", [1.0, 2.0, 3.0], [0, 5], 0, 0),
         ("matrix of indices", [[1.0, 2.0], [3.0, 4.0]], [[0, 1], [7, 0]], 0, 0),
         ("negative, axis 1", [[1.0, 2.0], [3.0, 4.0]], [1, -1], 1, 0),
         ("batch_dims", [[1.0, 2.0], [3.0, 4.0]], [[1], [2]], 1, 1),
         ("scalar index", tf.constant([1.0, 2.0]), tf.constant(5), 0, 0),
         ("empty output", tf.zeros([2, 0]), [5], 0, 0),
         ("empty gathered dim", tf.zeros([0, 3]), [0], 0, 0)]
for name, params, indices, axis, batch_dims in cases:
    try:
        print(name, tf.gather(params, indices, axis=axis, batch_dims=batch_dims).numpy().tolist())
    except tf.errors.InvalidArgumentError as e:
        print(name, type(e).__name__, e)

for name, params, indices in [("nd pair", [[1.0, 2.0], [3.0, 4.0]], [[0, 1], [2, 0]]),
                              ("nd row", [[1.0, 2.0], [3.0, 4.0]], [[5]])]:
    try:
        print(name, tf.gather_nd(params, indices).numpy().tolist())
    except tf.errors.InvalidArgumentError as e:
        print(name, type(e).__name__, e)


@tf.function
def gather(params, indices):
    return tf.gather(params, indices)


try:
    gather(tf.constant([1.0, 2.0]), tf.constant([[0], [3]]))
except tf.errors.InvalidArgumentError as e:
    print("in a function:", str(e).splitlines()[-2])
