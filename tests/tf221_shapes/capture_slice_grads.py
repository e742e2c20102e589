"""Captures the nodes TensorFlow 2.21 builds for a strided slice with a tensor index and for its
gradient inside a ``tf.function`` (``None`` batch dimension and static), with their static shapes and
the gradient's values. Run with TensorFlow's venv:
``/work/tfvenv/bin/python tests/tf221_shapes/capture_slice_grads.py > tests/tf221_shapes/slice_grads.json``."""

import json
import os
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tensorflow as tf  # noqa: E402

from cases import slice_programs  # noqa: E402


def nodes(graph):
    return [[op.name, op.type, [i.name for i in op.inputs],
             [None if o.shape.rank is None else o.shape.as_list() for o in op.outputs]]
            for op in graph.get_operations()]


if __name__ == "__main__":
    out = {}
    for name, (sig, fn, args) in slice_programs(tf).items():
        f = tf.function(fn, input_signature=sig)
        out[name] = {"nodes": nodes(f.get_concrete_function().graph), "value": f(*args).numpy().tolist()}
    print(json.dumps(out, indent=1))
