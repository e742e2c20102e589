"""Captures Keras 3.15's keras.random draws and keras.initializers' forms and draws (TensorFlow 2.21) for tests/test_keras_random.py:
run with /work/tfvenv/bin/python tests/keras_layers/capture_random.py."""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from random_cases import CASES, INITIALIZERS  # noqa: E402

if __name__ == "__main__":
    out = {}
    for name, src in CASES.items():
        value = eval(src, {"keras": keras, "np": np})  # noqa: S307 (our own case table)
        out[name] = [np.asarray(v).tolist() for v in value] if isinstance(value, list) else np.asarray(value).tolist()
    out["initializers"] = {name: eval(src, {"keras": keras}) for name, src in INITIALIZERS.items()}  # noqa: S307
    with open(os.path.join(os.path.dirname(__file__), "captures", "random.json"), "w") as f:
        json.dump(out, f)
