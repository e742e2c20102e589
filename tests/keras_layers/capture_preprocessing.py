"""Captures Keras 3.15's preprocessing-layer outputs (TensorFlow 2.21) for
tests/test_keras_preprocessing.py: run with /work/tfvenv/bin/python tests/keras_layers/capture_preprocessing.py."""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from preprocessing_cases import CASES  # noqa: E402


def plain(value):
    if isinstance(value, list):
        return [plain(v) for v in value]
    array = np.asarray(value)
    if array.dtype.kind in "SO":
        return [v.decode() if isinstance(v, bytes) else v for v in array.reshape(-1).tolist()]
    return {"dtype": str(array.dtype), "value": array.tolist()}


if __name__ == "__main__":
    out = {name: plain(fn(keras)) for name, fn in CASES.items()}
    with open(os.path.join(os.path.dirname(__file__), "captures", "preprocessing.json"), "w") as f:
        json.dump(out, f)
