"""Captures Keras 3.15 (TensorFlow 2.21) outputs of the recurrent layers for
tests/test_keras_recurrent.py: run with /work/tfvenv/bin/python tests/keras_layers/capture_recurrent.py.
Inputs and weights come from NumPy's RandomState(0) in the order the cases list them, so the test
rebuilds them without TensorFlow."""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from recurrent_cases import CASES, inputs_for, weights_for  # noqa: E402


def run(case):
    layer = eval(case["layer"], {"keras": keras})  # noqa: S307 (our own case table)
    x = inputs_for(case)
    kwargs = {}
    if "mask" in case:
        kwargs["mask"] = np.array(case["mask"], bool)
    if case.get("initial_state"):
        kwargs["initial_state"] = [np.full((case["shape"][0], n), 0.5, "float32") for n in case["initial_state"]]
    layer(x, **kwargs)
    layer.set_weights(weights_for(case, [w.shape for w in layer.weights]))
    out = layer(x, **kwargs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return {"weights": [[w.path, list(w.shape)] for w in layer.weights],
            "outputs": [np.asarray(o).tolist() for o in outs]}


if __name__ == "__main__":
    result = {c["id"]: run(c) for c in CASES}
    seed = keras.initializers.Orthogonal(seed=3)((3, 5)).numpy().tolist()
    result["orthogonal_seed3_3x5"] = seed
    result["orthogonal_seed7_6x4_gain2"] = keras.initializers.Orthogonal(gain=2.0, seed=7)((6, 4)).numpy().tolist()
    with open(os.path.join(os.path.dirname(__file__), "captures", "recurrent.json"), "w") as f:
        json.dump({"keras": keras.__version__, "cases": result}, f)
