"""Writes ``applications.json``: ``applications_cases`` under Keras 3.15.1 / TensorFlow 2.21, offline
(``KERAS_HOME`` an empty temporary folder, so nothing is cached). Run by hand with the oracle venv:
``/work/tfvenv/bin/python tests/keras3/applications_capture.py``."""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3", KERAS_HOME=tempfile.mkdtemp())

import keras  # noqa: E402
from applications_cases import (COUNTED, IMAGENET, MODELS, PREPROCESS, build, counts, decode_offline,  # noqa: E402
                                imagenet_offline, preprocess)

result = {"models": {name: build(keras, name) for name in MODELS},
          "counted": {name: counts(keras, name) for name in COUNTED},
          "imagenet": {c: imagenet_offline(keras, c) for c in IMAGENET},
          "preprocess": {m: preprocess(keras, m) for m in PREPROCESS},
          "decode": decode_offline(keras)}
with open(os.path.join(HERE, "applications.json"), "w", encoding="utf-8") as f:
    json.dump(result, f, indent=0, ensure_ascii=False)
