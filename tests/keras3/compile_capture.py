"""Writes ``compile.json``: each case of ``compile_cases.py`` run with Keras 3.15.1 (TensorFlow
2.21). Run by hand with the oracle venv: ``/work/tfvenv/bin/python tests/keras3/compile_capture.py``."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")

import keras  # noqa: E402
from compile_cases import cases, run  # noqa: E402

names = list(cases(keras)[3])
with open(os.path.join(HERE, "compile.json"), "w") as f:
    json.dump({name: run(keras, name) for name in names}, f, indent=1)
