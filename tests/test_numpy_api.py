"""tf.experimental.numpy: its functions are ordinary ops, placed on the device in scope and run by every
backend; TensorFlow 2.21's values and dtypes for them are compared by the tf221 probes (numpy_api,
numpy_more, numpy_prefer_float32, numpy_api_log)."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.generated.tf_api_names import NAMES

tnp = tf.experimental.numpy


def test_every_name_tensorflow_publishes_is_there():
    for path in ("experimental.numpy", "experimental.numpy.random"):
        names = NAMES[path][1].split()
        space = tnp if path == "experimental.numpy" else tnp.random
        assert [n for n in names if not hasattr(space, n)] == []
    assert len(NAMES["experimental.numpy"][1].split()) == 229  # 228 functions, types and constants, and random


def test_a_name_tensorflow_lacks_says_so_as_tensorflow_does():
    with pytest.raises(AttributeError, match="module 'tensorflow._api.v2.experimental.numpy' has no attribute "
                                             "'array_split'"):
        tnp.array_split  # noqa: B018


@pytest.mark.parametrize("case", [
    ("add", lambda: tnp.add(tnp.arange(3), 1), [1, 2, 3], "int64"),
    ("mean", lambda: tnp.mean(tnp.array([[1.0, 2.0], [3.0, 5.0]]), axis=0), [2.0, 3.5], "float64"),
    ("matmul", lambda: tnp.matmul(tnp.ones((2, 3)), tnp.ones(3)), [3.0, 3.0], "float64"),
    ("cumsum", lambda: tnp.cumsum(tnp.array([1, 2, 3], dtype=tnp.int32)), [1, 3, 6], "int64"),
    ("where", lambda: tnp.where(tnp.arange(4) > 1, tnp.arange(4), 0.5), [0.5, 0.5, 2.0, 3.0], "float64"),
    ("triu", lambda: tnp.triu(tnp.ones((2, 2), dtype=tnp.float32)), [[1.0, 1.0], [0.0, 1.0]], "float32"),
], ids=lambda case: case[0])
def test_functions_run_on_the_device_in_scope(op_device, case):
    _, fn, want, dtype = case
    with tf.device(op_device):
        got = fn()
    assert got.device.endswith("/device:" + op_device.lstrip("/"))
    assert got.dtype.name == dtype
    np.testing.assert_allclose(got.numpy(), want)


def test_int_operands_of_float_functions_need_the_numpy_behaviour():
    with pytest.raises(AttributeError, match="object has no attribute 'astype'"):
        tnp.sqrt(tnp.arange(3))
    assert tnp.sqrt(tnp.arange(3.0)).dtype == tf.float64


def test_python_values_take_numpys_dtypes_and_scalars_are_weak():
    assert tnp.array([1.5]).dtype == tf.float64
    assert tnp.array([1]).dtype == tf.int64
    assert tnp.add(tnp.ones(2, dtype=tnp.float32), 1.5).dtype == tf.float32
    assert tnp.add(tnp.ones(2, dtype=tnp.int32), tnp.ones(2, dtype=tnp.float32)).dtype == tf.float64
    assert tnp.result_type(tnp.int32, tnp.float32) == tf.float64
    assert tnp.promote_types(tnp.int8, tnp.uint8) == np.int16


def test_functions_compose_in_a_tf_function():
    """No host NumPy on the way: the functions build graph ops when traced."""
    @tf.function
    def f(x):
        y = tnp.reshape(x, (2, 3))
        return (tnp.take_along_axis(y, tnp.array([[2], [0]]), 1), tnp.kron(tnp.eye(2), y), tnp.vander(x[:2], 3),
                tnp.cross(y, tnp.ones(3)), tnp.std(y, axis=1), tnp.full_like(y, 2), tnp.diff(x),
                tnp.bitwise_xor(tnp.array([12, 10]), 6))

    got = [t.numpy() for t in f(tnp.arange(6.0))]
    y = np.arange(6.0).reshape(2, 3)
    want = [np.take_along_axis(y, np.array([[2], [0]]), 1), np.kron(np.eye(2), y), np.vander(np.arange(2.0), 3),
            np.cross(y, np.ones(3)), np.std(y, axis=1), np.full_like(y, 2), np.diff(np.arange(6.0)),
            np.bitwise_xor(np.array([12, 10]), 6)]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w)
