"""Captures TensorFlow 2.21's JPEG encodings and decodings of small images (run in /work/tfvenv:
``/work/tfvenv/bin/python tests/tf221_image/capture_codecs.py > tests/tf221_image/codecs.json``)."""

import base64
import json

import numpy as np
import tensorflow as tf

small = np.array([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]], np.uint8)
big = (np.add.outer(np.arange(32) * 7, np.arange(32) * 3)[..., None] * np.array([1, 2, 3]) % 256).astype(np.uint8)
cases = []
for label, image in (("small", small), ("big", big)):
    for quality in (75, 95, 100):
        data = tf.image.encode_jpeg(image, quality=quality)
        decoded = {key: tf.io.decode_jpeg(data, **kwargs).numpy().tolist() for key, kwargs in (
            ("default", {}), ("accurate", {"dct_method": "INTEGER_ACCURATE"}), ("no_fancy", {"fancy_upscaling": False}))}
        cases.append({"image": label, "quality": quality, "jpeg": base64.b64encode(data.numpy()).decode(),
                      "decoded": decoded})
print(json.dumps({"tf": tf.__version__, "small": small.tolist(), "big": big.tolist(), "cases": cases}))
