"""Writes ``sparse.json``: ``sparse_cases.run`` under TensorFlow 2.21 / Keras 3.15.1. Run by hand
with the oracle venv: ``/work/tfvenv/bin/python tests/keras3/sparse_capture.py``."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(TF_CPP_MIN_LOG_LEVEL="3")

import tensorflow as tf  # noqa: E402
from sparse_cases import run  # noqa: E402

with open(os.path.join(HERE, "sparse.json"), "w") as f:
    json.dump(run(tf), f, indent=1)
