"""Captures the static shapes TensorFlow 2.21 gives the outputs of the programs in ``cases.py``
(or the first line of the error tracing raises). Run with TensorFlow's venv:
``/work/tfvenv/bin/python tests/tf221_shapes/capture_graph_shapes.py > tests/tf221_shapes/graph_shapes.json``."""

import json
import os
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tensorflow as tf  # noqa: E402

from cases import cases, run  # noqa: E402


if __name__ == "__main__":
    results = {name: run(tf, sig, fn) for name, (sig, fn) in cases(tf).items()}
    print("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in results.items()) + "\n}")
