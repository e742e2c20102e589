"""``declare.quiet``: the kernels that warn from finite inputs (a division by zero, the log of 0) run
with NumPy's floating-point errors ignored, as TensorFlow's kernels return inf and nan silently; the
caller's own error state (a program's ``np.errstate``/``np.seterr``) is back once the kernel returns."""

import warnings

import numpy as np
import pytest

import devtrace as tf
from devtrace.ops.declare import quiet


def _divide(xp, a, b):
    return a / b


def test_a_quiet_kernel_ignores_errors_and_leaves_the_callers_state():
    kernel = quiet(_divide)
    one, zero = np.ones(2, np.float32), np.zeros(2, np.float32)
    assert kernel.__wrapped__ is _divide  # the graph runner calls no ufunc in its place
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kernel(np, one, zero).tolist() == [np.inf, np.inf]
        with pytest.raises(RuntimeWarning, match="divide by zero"):
            _divide(np, one, zero)
    before = np.geterr()
    with np.errstate(divide="raise"):
        assert np.isinf(kernel(np, one, zero)).all()
        assert np.geterr()["divide"] == "raise"
        with pytest.raises(FloatingPointError):
            _divide(np, one, zero)
    assert np.geterr() == before


def test_an_ops_division_by_zero_is_silent_eagerly_and_in_a_function():
    @tf.function
    def f(a, b):
        return a / b

    a, b = tf.constant([1.0, -1.0]), tf.constant([0.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (a / b).numpy().tolist() == [np.inf, -np.inf]
        assert f(a, b).numpy().tolist() == [np.inf, -np.inf]
