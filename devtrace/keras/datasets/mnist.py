"""``keras.datasets.mnist``: 28x28 grayscale digits, uint8, from ``mnist.npz``."""

from __future__ import annotations

import numpy as np

from .files import get_file


def load_data(path="mnist.npz"):
    path = get_file(fname=path, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz",
                    file_hash="731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1")
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
