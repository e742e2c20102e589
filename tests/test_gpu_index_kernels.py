"""Indices out of range on a GPU (issue 30): TensorFlow's GPU kernels do not check them — a gather
gives zeros for them (``tf.gather``'s and ``tf.gather_nd``'s docstrings; ``gather_functor_gpu.cu.h``:
``out[i] = T(0)``), a scatter ignores them (``tf.tensor_scatter_nd_*``'s and ``tf.scatter_nd``'s
docstrings: "raises on CPU and ignore on GPU") — while its CPU kernels raise
(``tests/tf221/programs/gather_out_of_range.py`` holds the CPU's captured messages). A simulated GPU
and a real one (the strict fake CuPy) run the GPU kernel; the values are exact."""

import numpy as np
import pytest

import devtrace as tf

P = [[1.0, 2.0], [3.0, 4.0]]
CASES = [  # params, indices, axis, batch_dims -> the GPU kernel's output
    ([1.0, 2.0, 3.0], [0, 5], 0, 0, [1.0, 0.0]),
    (P, [[0, 1], [7, 0]], 0, 0, [[[1.0, 2.0], [3.0, 4.0]], [[0.0, 0.0], [1.0, 2.0]]]),
    (P, [1, -1], 1, 0, [[2.0, 0.0], [4.0, 0.0]]),
    (P, [[1], [2]], 1, 1, [[2.0], [0.0]]),
    (np.zeros([0, 3], np.float32), [0], 0, 0, [[0.0, 0.0, 0.0]]),
    (np.array([[True, False]]), [[2, 0]], 1, 0, [[[False, True]]]),
    (np.array([7, 8, 9], np.int64), [3, -4, 2], 0, 0, [0, 0, 9]),
]


@pytest.mark.parametrize("params,indices,axis,batch_dims,expected", CASES)
def test_gpu_gather_returns_zeros_for_indices_out_of_range(op_device, params, indices, axis, batch_dims, expected):
    if op_device == "/CPU:0":
        pytest.skip("the CPU kernel raises: tests/tf221/programs/gather_out_of_range.py")
    with tf.device(op_device):
        out = tf.gather(params, indices, axis=axis, batch_dims=batch_dims)
    assert out.device.endswith("GPU:0")
    assert out.numpy().tolist() == expected and out.dtype == tf.convert_to_tensor(params).dtype


def test_cpu_gather_raises_with_the_index_named_by_its_position(op_device):
    with tf.device("/CPU:0"):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,0\] = 7 is not in \[0, 2\) \[Op:GatherV2\]"):
            tf.gather(P, [[0, 1], [7, 0]])


def test_gpu_gather_nd_returns_a_slice_of_zeros_for_an_index_out_of_range(op_device):
    with tf.device(op_device):
        if op_device == "/CPU:0":
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[5\] does not index into"):
                tf.gather_nd(P, [[5], [1]])
            return
        rows = tf.gather_nd(P, [[5], [1]])
        elements = tf.gather_nd(P, [[0, 1], [2, 0], [1, -1], [1, 1]])
    assert rows.numpy().tolist() == [[0.0, 0.0], [3.0, 4.0]]
    assert elements.numpy().tolist() == [2.0, 0.0, 0.0, 4.0]


def test_gpu_gather_in_a_function_and_its_gradient(op_device):
    """The GPU kernel serves a function's node too; the gradient of the zeros is zero (its
    ``UnsortedSegmentSum`` drops indices out of range, as TensorFlow's GPU kernel does)."""
    if op_device == "/CPU:0":
        pytest.skip("GPU only")
    with tf.device(op_device):
        params = tf.Variable([1.0, 2.0, 3.0])
        gather = tf.function(lambda i: tf.gather(params, i))
        assert gather(tf.constant([2, 9])).numpy().tolist() == [3.0, 0.0]
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(params, [2, 9, 0]))
        grad = tape.gradient(y, params)
    assert tf.convert_to_tensor(grad).numpy().tolist() == [1.0, 0.0, 1.0]


SCATTERS = [  # the public function, its arguments -> the GPU kernel's output (the index 5, -1 or 2 ignored)
    ("tensor_scatter_nd_update", ([1.0, 2.0, 3.0], [[0], [5], [-1], [2]], [9.0, 8.0, 7.0, 6.0]), [9.0, 2.0, 6.0]),
    ("tensor_scatter_nd_add", ([1.0, 2.0, 3.0], [[0], [5]], [9.0, 8.0]), [10.0, 2.0, 3.0]),
    ("tensor_scatter_nd_sub", ([1.0, 2.0, 3.0], [[-1], [1]], [9.0, 8.0]), [1.0, -6.0, 3.0]),
    ("tensor_scatter_nd_max", ([[0.0, 0.0], [0.0, 0.0]], [[0, 1], [2, 0]], [1.0, 4.0]), [[0.0, 1.0], [0.0, 0.0]]),
    ("tensor_scatter_nd_min", ([[0.0, 0.0], [0.0, 0.0]], [[1, 1], [0, 2]], [-1.0, -4.0]), [[0.0, 0.0], [0.0, -1.0]]),
    ("scatter_nd", ([[1], [7]], [5.0, 6.0], [3]), [0.0, 5.0, 0.0]),
]


@pytest.mark.parametrize("function,args,expected", SCATTERS, ids=[s[0] for s in SCATTERS])
def test_gpu_scatters_ignore_indices_out_of_range(op_device, function, args, expected):
    with tf.device(op_device):
        if op_device == "/CPU:0":
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"does not index into"):
                getattr(tf, function)(*args)
            return
        out = getattr(tf, function)(*args)
    assert out.device.endswith("GPU:0") and out.numpy().tolist() == expected
