"""Captures TensorFlow 2.21's tf.image.resize values for small inputs (run in /work/tfvenv:
``/work/tfvenv/bin/python tests/tf221_image/capture.py > tests/tf221_image/resize.json``)."""

import json

import numpy as np
import tensorflow as tf

METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
SIZES = ((3, 5), (7, 9), (2, 2), (10, 4))
image = (np.arange(5 * 6 * 2, dtype=np.float32).reshape(1, 5, 6, 2) * 7.3) % 11 - 3
cases = []
for method in METHODS:
    for antialias in (False, True):
        for size in SIZES:
            out = tf.image.resize(image, size, method=method, antialias=antialias)
            cases.append({"method": method, "antialias": antialias, "size": list(size),
                          "dtype": out.dtype.name, "out": out.numpy().astype(np.float64).tolist()})
uint8 = (np.arange(4 * 4 * 3).reshape(4, 4, 3) * 37 % 256).astype(np.uint8)
for method in METHODS:
    out = tf.image.resize(uint8, (6, 3), method=method)
    cases.append({"method": method, "antialias": False, "size": [6, 3], "uint8": True, "dtype": out.dtype.name,
                  "out": out.numpy().astype(np.float64).tolist()})
print(json.dumps({"tf": tf.__version__, "image": image.tolist(), "uint8": uint8.tolist(), "cases": cases}))
