"""tf.strings.unicode_script over a broad sample of code points (run in /work/tfvenv)."""
import json

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
codes = np.concatenate([np.arange(0, 0x3000, 13), rng.randint(0, 0x110000, 1500), [-5, 0x10FFFF, 0x110000]]).astype(np.int32)
print(json.dumps({"codes": codes.tolist(), "scripts": tf.strings.unicode_script(tf.constant(codes)).numpy().tolist()}))
try:
    tf.strings.unicode_script(tf.constant([1], tf.int64))
except Exception as e:  # noqa: BLE001
    print(json.dumps([type(e).__name__, str(e)]))
