"""tf.nn.ctc_loss (issue 28): TensorFlow 2.21's ctc_loss_dense composed of its ops, with its custom
gradient; values and gradients against TensorFlow's for the same program (tests/tf221_nn/)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime.context import reset_context

HERE = pathlib.Path(__file__).resolve().parent / "tf221_nn"
ROOT = HERE.parents[1]


def test_losses_and_gradients_are_tensorflows():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "tf221" / "run_devtrace.py"),
                           str(HERE / "ctc_loss_program.py")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    want = [json.loads(line) for line in (HERE / "ctc_loss_tf.txt").read_text().splitlines()]
    got = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(got) == len(want) == 4
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.array(g), np.array(w), rtol=1e-5, atol=1e-6)


def test_sparse_labels_say_what_is_missing():
    reset_context()
    labels = tf.sparse.from_dense(tf.constant([[1, 2]], tf.int64))
    with pytest.raises(NotImplementedError, match=r"^devtrace does not implement tf.nn.ctc_loss of SparseTensor "
                                                  r"labels \(the CTCLoss op\) yet$"):
        tf.nn.ctc_loss(labels, tf.zeros([3, 1, 4]), None, [3], blank_index=0)


def test_reduce_logsumexp_of_minus_infinities_is_minus_infinity():
    """TensorFlow's reduce_logsumexp subtracts no infinite maximum (the CTC posterior's empty states)."""
    reset_context()
    x = tf.constant([[-np.inf, -np.inf], [0.0, 1.0]])
    out = tf.reduce_logsumexp(x, axis=1)
    assert out.numpy()[0] == -np.inf and abs(out.numpy()[1] - np.logaddexp(0.0, 1.0)) < 1e-6
