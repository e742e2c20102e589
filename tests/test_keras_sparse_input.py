"""``keras.Input(sparse=True)`` (issue 28; TensorFlow's sparse-tensor guide): a model on a
``tf.SparseTensor``, its ``Dense`` a sparse-dense product, ``predict`` and ``fit`` in batches, as
TensorFlow 2.21 / Keras 3.15.1 (``tests/keras3/sparse.json``, by ``tests/keras3/sparse_capture.py``)."""

import json
import os
import sys

import pytest

import devtrace as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
from sparse_cases import run  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "keras3", "sparse.json")) as _f:
    CAPTURED = json.load(_f)


def test_sparse_input_as_keras():
    got = run(tf)
    for key in ("input", "sparse", "config_sparse", "call", "predict"):
        assert got[key] == CAPTURED[key], key
    assert got["loss"] == pytest.approx(CAPTURED["loss"], abs=2e-5)
    assert [v for row in got["kernel"] for v in row] == pytest.approx([v for row in CAPTURED["kernel"] for v in row],
                                                                      abs=2e-5)
