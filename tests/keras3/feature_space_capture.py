"""Writes ``feature_space.json``: ``feature_space_cases.run`` under Keras 3.15.1 / TensorFlow 2.21. Run by
hand with the oracle venv: ``/work/tfvenv/bin/python tests/keras3/feature_space_capture.py``."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402
from feature_space_cases import run  # noqa: E402

with open(os.path.join(HERE, "feature_space.json"), "w", encoding="utf-8") as f:
    json.dump(run(keras, tf), f, indent=0, ensure_ascii=False)
