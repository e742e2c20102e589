"""Captures the static shapes, values and graph nodes TensorFlow 2.21 gives ops whose argument is computed in the
graph (``cases.py``'s ``dynamic_programs``). Run with TensorFlow's venv:
``/work/tfvenv/bin/python tests/tf221_shapes/capture_dynamic_args.py > tests/tf221_shapes/dynamic_args.json``."""

import json
import os
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tensorflow as tf  # noqa: E402

from cases import dynamic_programs  # noqa: E402

if __name__ == "__main__":
    out = {}
    for name, (sig, fn, args) in dynamic_programs(tf).items():
        f = tf.function(fn, input_signature=sig)
        shape = f.get_concrete_function().structured_outputs.shape
        nodes = [[op.name, op.type, [i.name for i in op.inputs]] for op in f.get_concrete_function().graph.get_operations()]
        out[name] = {"shape": None if shape.rank is None else shape.as_list(), "value": f(*args).numpy().tolist(),
                     "nodes": nodes}
    print("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in out.items()) + "\n}")
