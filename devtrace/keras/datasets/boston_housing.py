"""``keras.datasets.boston_housing``: ``boston_housing.npz``, shuffled by ``seed`` and split."""

from __future__ import annotations

import numpy as np

from .files import get_file, split


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 and 1 "
                         "(exclusive of 1).")
    path = get_file(path, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/boston_housing.npz",
                    file_hash="f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5")
    with np.load(path, allow_pickle=False) as f:
        return split(f["x"], f["y"], test_split, seed)
