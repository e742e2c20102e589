"""``keras.datasets.california_housing``: ``california_housing.npz`` (its first 600 rows for
``version="small"``), shuffled by ``seed`` and split."""

from __future__ import annotations

import numpy as np

from .files import get_file, split


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 and 1 "
                         "(exclusive of 1).")
    path = get_file(path, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/california_housing.npz",
                    file_hash="1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f")
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:600], y[:600]
    elif version != "large":
        raise ValueError(f"Argument `version` must be one of 'small', 'large'. Received: version={version}")
    return split(x, y, test_split, seed)
