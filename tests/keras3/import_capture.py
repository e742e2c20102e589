"""Writes ``import.json``: each of ``import_probes.PROBES`` evaluated with Keras 3.15 and TensorFlow
2.21 (``repr`` of the value, or ``[error class, message]``). Run by hand with the oracle venv:
``/work/tfvenv/bin/python tests/keras3/import_capture.py``."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402
from import_probes import PROBES  # noqa: E402


def evaluate(expression):
    try:
        value = eval(expression, {"keras": keras, "tf": tf})
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return repr(value) if isinstance(value, (bool, str)) else "<object>"


with open(os.path.join(HERE, "import.json"), "w") as f:
    json.dump({p: evaluate(p) for p in PROBES}, f, indent=1)
