"""``keras.datasets.fashion_mnist``: the four gzipped IDX files Keras keeps in ``datasets/fashion-mnist``."""

from __future__ import annotations

import gzip
import os

import numpy as np

from .files import get_file

_FILES = ("train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz",
          "t10k-images-idx3-ubyte.gz")


def load_data():
    paths = [get_file(name, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/" + name, cache_subdir=os.path.join("datasets", "fashion-mnist"))
             for name in _FILES]
    out = []
    for labels_path, images_path in (paths[:2], paths[2:]):
        with gzip.open(labels_path, "rb") as f:
            labels = np.frombuffer(f.read(), np.uint8, offset=8)
        with gzip.open(images_path, "rb") as f:
            images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(len(labels), 28, 28)
        out.append((images, labels))
    return tuple(out)
