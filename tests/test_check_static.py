"""``tf.debugging``'s static checks (dtype, rank, kind of argument) and traceback-filtering flag,
against TensorFlow 2.21: each case's result or error class and message as TensorFlow printed them
(probed with /work/tfvenv; the numbers are the probe's case numbers)."""

import numpy as np

import devtrace as tf

d = tf.debugging
x = tf.constant([1., 2.])
i = tf.constant([1, 2])
CASES = [
 lambda: d.assert_type(x, tf.int32), lambda: d.assert_type(x, tf.int32, message="m"), lambda: d.assert_type(x, tf.float32),
 lambda: d.assert_integer(x), lambda: d.assert_integer(x, message="m"), lambda: d.assert_integer(i),
 lambda: d.assert_scalar(x), lambda: d.assert_scalar(x, message="m"), lambda: d.assert_scalar(tf.constant(1.)),
 lambda: d.assert_rank(x, 2), lambda: d.assert_rank(x, 2, message="m"), lambda: d.assert_rank(x, 1),
 lambda: d.assert_rank_at_least(x, 2), lambda: d.assert_rank_at_least(x, 1),
 lambda: d.assert_rank_in(x, [0, 2]), lambda: d.assert_rank_in(x, (1, 2)),
 lambda: d.assert_same_float_dtype([x, x]), lambda: d.assert_same_float_dtype([x, tf.constant([1.], tf.float64)]), lambda: d.assert_same_float_dtype([i]), lambda: d.assert_same_float_dtype(None, tf.float16), lambda: d.assert_same_float_dtype(),
 lambda: d.is_numeric_tensor(x), lambda: d.is_numeric_tensor(tf.constant("a")), lambda: d.is_numeric_tensor(1.0),
 lambda: d.assert_proper_iterable([1]), lambda: d.assert_proper_iterable(x), lambda: d.assert_proper_iterable("ab"), lambda: d.assert_proper_iterable(3), lambda: d.assert_proper_iterable(np.array([1])),
 lambda: d.is_traceback_filtering_enabled(), lambda: (d.disable_traceback_filtering(), d.is_traceback_filtering_enabled()), lambda: (d.enable_traceback_filtering(), d.is_traceback_filtering_enabled()),
 lambda: tf.inside_function(), lambda: tf.function(lambda: tf.inside_function())(), lambda: tf.get_current_name_scope(),
 lambda: tf.autodiff.GradientTape is tf.GradientTape,
]
# TensorFlow's output for each case ("25", an EagerTensor's class path, is TensorFlow's own)
TENSORFLOW = r"""
0 !! TypeError 'tensor must be of type tf.int32; got tf.float32'
1 !! TypeError 'm.  tensor must be of type tf.int32; got tf.float32'
2 -> None
3 !! TypeError 'Expected "x" to be integer type.  Found: tensor of dtype <dtype: \'float32\'>'
4 !! TypeError 'm.  Expected "x" to be integer type.  Found: tensor of dtype <dtype: \'float32\'>'
5 -> None
6 !! ValueError 'Expected scalar shape, saw shape: (2,).'
7 !! ValueError 'm.  Expected scalar shape, saw shape: (2,).'
8 -> None
9 !! ValueError 'Tensor  must have rank 2.  Received rank 1, shape (2,)'
10 !! ValueError 'm.  Tensor  must have rank 2.  Received rank 1, shape (2,)'
11 -> None
12 !! ValueError 'Tensor  must have rank at least 2.  Received rank 1, shape (2,)'
13 -> None
14 !! ValueError 'Tensor  must have rank in (0, 2).  Received rank 1, shape (2,)'
15 -> None
16 -> tf.float32
17 !! ValueError "tf.Tensor([1.], shape=(1,), dtype=float64), type=<dtype: 'float64'>, must be of the same type (<dtype: 'float32'>) as tf.Tensor([1. 2.], shape=(2,), dtype=float32)."
18 !! ValueError "Expected floating point type, got <dtype: 'int32'>."
19 -> tf.float16
20 -> tf.float32
21 -> True
22 -> False
23 -> False
24 -> None
26 !! TypeError 'Expected argument "values" to be a "proper" iterable.  Found: <class \'str\'>'
27 !! TypeError 'Expected argument "values" to be iterable.  Found: <class \'int\'>'
28 !! TypeError 'Expected argument "values" to be a "proper" iterable.  Found: <class \'numpy.ndarray\'>'
29 -> True
30 -> (None, False)
31 -> (None, True)
"""


def test_static_checks_answer_as_tensorflow():
    got = []
    for n, case in enumerate(CASES[:32]):
        if n == 25:
            continue
        try:
            got.append(f"{n} -> {case()!r}")
        except Exception as e:  # noqa: BLE001 (the error is the answer compared)
            got.append(f"{n} !! {type(e).__name__} {str(e)!r}")
    assert got == TENSORFLOW.strip().splitlines()
