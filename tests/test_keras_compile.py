"""``Model.compile``'s losses, ``loss_weights`` and metrics as Keras 3.15.1 names and computes them
in ``fit``'s history and ``evaluate`` (issue 28): repeated metric names numbered (``auc``,
``auc_1``), names as given, per-output losses and metrics of a two-output functional model (lists,
dicts keyed by output name, one loss for every output), the weighted total. Captured by
``tests/keras3/compile_capture.py`` into ``tests/keras3/compile.json``."""

import json
import os
import sys

import pytest

import devtrace as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
from compile_cases import run  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "keras3", "compile.json")) as _f:
    CAPTURED = json.load(_f)


@pytest.mark.parametrize("name", sorted(CAPTURED))
def test_compiled_logs_as_keras(name):
    got = run(tf.keras, name)
    want = CAPTURED[name]
    if "error" in want:
        assert got == want
        return
    assert got["metrics_names"] == want["metrics_names"]
    assert list(got["history"]) == list(want["history"])
    for key, values in want["history"].items():
        assert got["history"][key] == pytest.approx(values, abs=2e-5), key
    assert got["evaluate"] == pytest.approx(want["evaluate"], abs=2e-5)


def test_a_loss_dict_must_name_the_outputs():
    keras = tf.keras
    inp = keras.Input((3,))
    model = keras.Model(inp, [keras.layers.Dense(1, name="a")(inp), keras.layers.Dense(1, name="b")(inp)])
    model.compile(loss={"a": "mse", "c": "mse"})
    x = tf.zeros([2, 3])
    with pytest.raises(ValueError, match=r"Expected keys \['a', 'b'\] in loss dict"):
        model.fit(x, [x[:, :1], x[:, :1]], verbose=0)
