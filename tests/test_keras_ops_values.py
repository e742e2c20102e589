"""Keras 3's ops, losses, metrics and layers that devtrace added for TensorFlow 2.21's docstring
examples (``keras.ops.unique``, ``stft``, ``sparsemax``, ``elastic_transform``, the lookups' OOV
buckets, ``F1Score`` …), their values (and errors) against Keras 3.15.1's: each expression of
``tests/keras3/ops_values_cases.py``, captured by ``tests/keras3/ops_values_capture.py`` into
``tests/keras3/ops_values.json``; numbers compared with ``allclose`` (rtol 1e-4, atol 1e-5)."""

import json
import os
import sys

import numpy as np
import pytest

import devtrace as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
from ops_values_cases import EXPRESSIONS, evaluate  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "keras3", "ops_values.json")) as _f:
    CAPTURED = json.load(_f)


def _same(got, want, where="") -> list:
    """The differences between two evaluated values (numbers with ``allclose``)."""
    if isinstance(want, dict) and set(want) == {"dtype", "shape", "values"} and isinstance(got, dict):
        if (got.get("dtype"), got.get("shape")) != (want["dtype"], want["shape"]):
            return [f"{where}: {got.get('dtype')} {got.get('shape')} != {want['dtype']} {want['shape']}"]
        a, b = got["values"], want["values"]
        if a and isinstance(b[0], str) and not b[0] in ("nan", "inf", "-inf"):
            return [] if a == b else [f"{where}: {a} != {b}"]
        a = np.array([float(v) if isinstance(v, str) else v for v in a], dtype=np.float64)
        b = np.array([float(v) if isinstance(v, str) else v for v in b], dtype=np.float64)
        ok = a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True)
        return [] if ok else [f"{where}: {a.tolist()[:8]} != {b.tolist()[:8]}"]
    if isinstance(want, dict) and isinstance(got, dict) and set(got) == set(want):
        return [d for k in want for d in _same(got[k], want[k], f"{where}[{k}]")]
    if isinstance(want, list) and isinstance(got, list) and len(got) == len(want):
        return [d for i, (g, w) in enumerate(zip(got, want)) for d in _same(g, w, f"{where}[{i}]")]
    return [] if got == want else [f"{where}: {str(got)[:300]} != {str(want)[:300]}"]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_values_and_errors_as_keras():
    differences = {e: d for e in EXPRESSIONS if (d := _same(evaluate(e, tf.keras), CAPTURED[e]))}
    assert differences == {}


def test_every_expression_was_captured():
    assert sorted(CAPTURED) == sorted(EXPRESSIONS)
