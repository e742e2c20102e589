"""Captures TensorFlow 2.21's static shapes of random ``tf.strided_slice`` calls (begin, end and
strides constant, the five masks random) over inputs with ``None`` dimensions, inside a
``tf.function`` traced from an ``input_signature``. Run with TensorFlow's venv:
``/work/tfvenv/bin/python tests/tf221_shapes/capture_strided_slice.py > tests/tf221_shapes/strided_slice.json``."""

import json
import os
import random

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf  # noqa: E402

rng = random.Random(221)
cases = []
for _ in range(400):
    rank = rng.randint(0, 4)
    shape = [rng.choice([None, 1, 2, 5, 8]) for _ in range(rank)]
    n = rng.randint(1, rank + 2)
    begin = [rng.randint(-9, 9) for _ in range(n)]
    end = [rng.randint(-9, 9) for _ in range(n)]
    strides = [rng.choice([1, 1, 2, 3, -1, -2]) for _ in range(n)]
    masks = {k: rng.getrandbits(n) & rng.getrandbits(n) for k in ("begin_mask", "end_mask", "new_axis_mask",
                                                                  "shrink_axis_mask")}
    masks["ellipsis_mask"] = (1 << rng.randrange(n)) if rng.random() < 0.4 else 0
    spec = tf.TensorSpec(shape, tf.float32)
    try:
        fn = tf.function(lambda x: tf.strided_slice(x, begin, end, strides, **masks), input_signature=[spec])
        out = fn.get_concrete_function().structured_outputs.shape
        result = None if out.rank is None else out.as_list()
    except ValueError as e:
        result = "error: " + str(e).split(" for '")[0].splitlines()[-1].split("ValueError: ")[-1]
    cases.append({"shape": shape, "begin": begin, "end": end, "strides": strides, **masks, "out": result})
print(json.dumps(cases, indent=None))
