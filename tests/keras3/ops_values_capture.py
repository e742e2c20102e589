"""Writes ``ops_values.json``: ``ops_values_cases.EXPRESSIONS`` evaluated with Keras 3.15.1
(TensorFlow 2.21). Run by hand with the oracle venv:
``/work/tfvenv/bin/python tests/keras3/ops_values_capture.py``."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")

import keras  # noqa: E402
from ops_values_cases import EXPRESSIONS, evaluate  # noqa: E402

with open(os.path.join(HERE, "ops_values.json"), "w") as f:
    json.dump({e: evaluate(e, keras) for e in EXPRESSIONS}, f, indent=0, sort_keys=True)
