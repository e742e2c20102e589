"""``keras.datasets.cifar10``: the five training batches and the test batch of Keras's
``cifar-10-batches-py-target`` archive (50,000 + 10,000 32x32 colour images, uint8)."""

from __future__ import annotations

import os

import numpy as np

from ..home import image_data_format
from .files import get_file, load_batch


def load_data():
    path = get_file(fname="cifar-10-batches-py-target", origin="https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz",
                    extract=True, file_hash="6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce")
    path = os.path.join(path, "cifar-10-batches-py")
    x_train = np.empty((50000, 3, 32, 32), dtype="uint8")
    y_train = np.empty((50000,), dtype="uint8")
    for i in range(1, 6):
        rows = slice((i - 1) * 10000, i * 10000)
        x_train[rows], y_train[rows] = load_batch(os.path.join(path, f"data_batch_{i}"))
    x_test, y_test = load_batch(os.path.join(path, "test_batch"))
    y_train, y_test = np.reshape(y_train, (len(y_train), 1)), np.reshape(y_test, (len(y_test), 1))
    if image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test.astype(y_train.dtype))
