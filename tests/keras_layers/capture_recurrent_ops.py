"""Captures the ops TensorFlow 2.21 runs for a built Keras 3 ``LSTM(3)`` called eagerly on a
(2, 4, 5) input on the CPU (tests/test_keras_recurrent.py compares devtrace's): run with
/work/tfvenv/bin/python tests/keras_layers/capture_recurrent_ops.py; it writes
captures/lstm_ops.txt, one op type a line (oneDNN's ``_MklMatMul`` as ``MatMul``)."""

import os
import re
import subprocess
import sys

CHILD = """
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "0"
import numpy as np, tensorflow as tf, keras
tf.debugging.set_log_device_placement(True)
layer = keras.layers.LSTM(3)
x = np.ones((2, 4, 5), "float32")
layer(x)
print("BEGIN", file=__import__("sys").stderr, flush=True)
layer(x)
"""

if __name__ == "__main__":
    err = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True).stderr
    ops = re.findall(r"Executing op (\w+) in device", err.split("BEGIN", 1)[1])
    ops = ["MatMul" if op == "_MklMatMul" else op for op in ops]
    with open(os.path.join(os.path.dirname(__file__), "captures", "lstm_ops.txt"), "w") as f:
        f.write("\n".join(ops) + "\n")
