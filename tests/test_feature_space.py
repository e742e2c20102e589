"""``keras.utils.FeatureSpace`` as Keras 3.15.1 computes it on a small table (``tests/keras3/feature_space_cases.py``,
captured into ``feature_space.json``): adapted on a batched ``tf.data`` dataset (a normalized float, string and
integer categories one-hot encoded, a hashed cross), called on a dict batch and on one example, in a dataset's
``map``, the encoded features' shapes, ``output_mode="dict"`` and the errors."""

import json
import os
import sys

import pytest

import devtrace as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
from feature_space_cases import run  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "keras3", "feature_space.json"), encoding="utf-8") as _f:
    CAPTURED = json.load(_f)


@pytest.fixture(scope="module")
def got():
    return run(tf.keras, tf)


@pytest.mark.parametrize("key", list(CAPTURED))
def test_feature_space_as_keras(got, key):
    assert got[key] == CAPTURED[key]


def test_get_config_says_devtrace_lacks_it():
    fs = tf.keras.utils.FeatureSpace(features={"x": "float"})
    says = r"^devtrace does not implement keras.utils.FeatureSpace.get_config yet$"
    with pytest.raises(NotImplementedError, match=says):
        fs.get_config()
