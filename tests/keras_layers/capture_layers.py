"""Captures Keras 3.15 (TensorFlow 2.21) outputs of the cases in layer_cases.py for
tests/test_keras_layers_more.py: run with /work/tfvenv/bin/python tests/keras_layers/capture_layers.py."""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
import tensorflow as tf  # noqa: E402
from layer_cases import CASES, call, gradients, inputs_for, weights_for  # noqa: E402


def run(case):
    layer = eval(case["layer"], {"keras": keras})  # noqa: S307 (our own case table)
    xs = inputs_for(case)
    call(layer, case, xs, np)
    layer.set_weights(weights_for(case, [w.shape for w in layer.weights]))
    out = gradients(tf, layer, case, xs, np) if case.get("grad") else call(layer, case, xs, np)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return {"weights": [[w.path, list(w.shape)] for w in layer.weights],
            "outputs": [np.asarray(o).tolist() for o in outs]}


if __name__ == "__main__":
    result = {c["id"]: run(c) for c in CASES}
    with open(os.path.join(os.path.dirname(__file__), "captures", "layers.json"), "w") as f:
        json.dump({"keras": keras.__version__, "cases": result}, f)
